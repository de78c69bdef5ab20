# unreachable cases.
	.text
	.globl	dead
	.type	dead, @function
dead:
	ret
	mov	$1, %eax
	ret
	.size	dead, .-dead

	.globl	after_noreturn
	.type	after_noreturn, @function
after_noreturn:
	push	%rbp
	mov	%rsp, %rbp
	call	panic
	mov	$2, %eax
	pop	%rbp
	ret
	.size	after_noreturn, .-after_noreturn

	.globl	padded
	.type	padded, @function
padded:
	ret
	int3
	nop
	ud2
	.size	padded, .-padded


# The only return of far_thunk is reached by a far jump back from code in
# another mode (vmlinux.o's __efi64_thunk, STACK_FRAME_NON_STANDARD): it may
# return, so the code after calls_far's call is reachable.
	.globl	far_thunk
	.type	far_thunk, @function
far_thunk:
	pushq	$0x8
	pushq	%rdi
	lretq
	ret
	.size	far_thunk, .-far_thunk
	.pushsection .discard.func_stack_frame_non_standard, "aw"
	.long	far_thunk - .
	.popsection

	.globl	calls_far
	.type	calls_far, @function
calls_far:
	push	%rbp
	mov	%rsp, %rbp
	test	%edi, %edi
	je	2f
	call	far_thunk
	test	%eax, %eax
	jne	1f
2:	pop	%rbp
	ret
1:	call	__stack_chk_fail
	.size	calls_far, .-calls_far
