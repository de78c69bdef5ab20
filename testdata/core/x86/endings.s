# Every way a path may end without a return: all clean.
	.text
	.globl	ends_ud2
	.type	ends_ud2, @function
ends_ud2:
	testl	%edi, %edi
	jne	1f
	ret
1:	ud2
	.size	ends_ud2, .-ends_ud2

	.globl	tail_call
	.type	tail_call, @function
tail_call:
	addl	$1, %edi
	jmp	work			# tail call to an external function
	.size	tail_call, .-tail_call

	.globl	tail_local
	.type	tail_local, @function
tail_local:
	jmp	ends_ud2		# tail call inside the object
	.size	tail_local, .-tail_local

	.globl	thunk_return
	.type	thunk_return, @function
thunk_return:
	jmp	__x86_return_thunk
	.size	thunk_return, .-thunk_return

	.globl	indirect
	.type	indirect, @function
indirect:
	jmp	*%rax
	.size	indirect, .-indirect

	.globl	retpoline
	.type	retpoline, @function
retpoline:
	jmp	__x86_indirect_thunk_rax
	.size	retpoline, .-retpoline

	.globl	listed_noreturn
	.type	listed_noreturn, @function
listed_noreturn:
	call	__stack_chk_fail	# on rules/noreturn.toml
	.size	listed_noreturn, .-listed_noreturn

	.globl	loop
	.type	loop, @function
loop:
	pause
	jmp	loop
	.size	loop, .-loop
