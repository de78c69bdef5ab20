# Stack faults one per function, and the clean forms next to them. objtool
# reports each fault (x86-cases.objtool.txt, made by build.sh).
	.text

# Two paths reach the pop with different stack states.
	.globl	mismatch
	.type	mismatch, @function
mismatch:
	push	%rbx
	test	%edi, %edi
	je	1f
	push	%rbp
1:	pop	%rbx
	ret
	.size	mismatch, .-mismatch

# A pop missing before the return.
	.globl	ret_modified
	.type	ret_modified, @function
ret_modified:
	push	%rbx
	mov	%rdi, %rbx
	call	other
	ret
	.size	ret_modified, .-ret_modified

# The stack frame still set up at a tail call.
	.globl	sibling_modified
	.type	sibling_modified, @function
sibling_modified:
	sub	$0x18, %rsp
	mov	%rdi, (%rsp)
	jmp	other
	.size	sibling_modified, .-sibling_modified

# Switches to a stack the model cannot know, then pushes.
	.globl	undefined_state
	.type	undefined_state, @function
undefined_state:
	mov	%rdi, %rsp
	push	%rbx
	pop	%rbx
	ret
	.size	undefined_state, .-undefined_state

# Realigns the stack without a frame pointer or DRAP register.
	.globl	realign
	.type	realign, @function
realign:
	and	$-16, %rsp
	ret
	.size	realign, .-realign

# The clean forms.
	.globl	frame
	.type	frame, @function
frame:
	push	%rbp
	mov	%rsp, %rbp
	push	%rbx
	sub	$0x28, %rsp
	call	other
	add	$0x28, %rsp
	pop	%rbx
	pop	%rbp
	ret
	.size	frame, .-frame

	.globl	leave_frame
	.type	leave_frame, @function
leave_frame:
	push	%rbp
	mov	%rsp, %rbp
	sub	$0x10, %rsp
	call	other
	leave
	ret
	.size	leave_frame, .-leave_frame

# gcc's DRAP realignment (the comment above update_cfi_state in objtool).
	.globl	drap
	.type	drap, @function
drap:
	lea	0x8(%rsp), %r10
	and	$-64, %rsp
	pushq	-0x8(%r10)
	push	%rbp
	mov	%rsp, %rbp
	push	%r10
	sub	$0x40, %rsp
	call	other
	add	$0x40, %rsp
	pop	%r10
	pop	%rbp
	lea	-0x8(%r10), %rsp
	ret
	.size	drap, .-drap

# Both paths push the same: no mismatch.
	.globl	balanced
	.type	balanced, @function
balanced:
	push	%rbx
	test	%edi, %edi
	je	1f
	mov	%rdi, %rbx
	call	other
	jmp	2f
1:	call	other
2:	pop	%rbx
	ret
	.size	balanced, .-balanced

# The frame torn down before the tail call.
	.globl	sibling_ok
	.type	sibling_ok, @function
sibling_ok:
	push	%rbx
	mov	%rdi, %rbx
	call	other
	mov	%rbx, %rdi
	pop	%rbx
	jmp	other
	.size	sibling_ok, .-sibling_ok

# A copy of the stack pointer put back (gcc's rare `mov %rsp, %reg`).
	.globl	sp_copy
	.type	sp_copy, @function
sp_copy:
	push	%rbx
	mov	%rsp, %rax
	sub	$0x100, %rsp
	call	other
	mov	%rax, %rsp
	pop	%rbx
	ret
	.size	sp_copy, .-sp_copy

	.globl	other
	.type	other, @function
other:
	ret
	.size	other, .-other

# A pop missing only on the path through two branches: the finding shows
# that path (objtool --backtrace: x86-cases.backtrace.objtool.txt).
	.globl	branchy_return
	.type	branchy_return, @function
branchy_return:
	push	%rbx
	test	%edi, %edi
	je	1f
	call	other
	jmp	2f
1:	cmp	$3, %esi
	jne	3f
	pop	%rbx
	ret
3:	ret
2:	pop	%rbx
	ret
	.size	branchy_return, .-branchy_return

# A conditional jump to the first byte past the function, where the next
# function starts, with %rbx still pushed: on x86 a sibling call with a
# modified frame, as objtool reports it. (On arm64 the same shape is clang's
# bounds check of a switch table whose default it proved unreachable, and a
# dead edge: stack/switch-default.c.)
	.globl	jump_to_end
	.type	jump_to_end, @function
jump_to_end:
	push	%rbx
	test	%edi, %edi
	jne	1f
	pop	%rbx
	ret
1:
	.size	jump_to_end, .-jump_to_end

	.globl	after_jump_to_end
	.type	after_jump_to_end, @function
after_jump_to_end:
	ret
	.size	after_jump_to_end, .-after_jump_to_end
