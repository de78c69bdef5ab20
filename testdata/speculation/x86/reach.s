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

