# IRET in and out of functions, as objtool reads them: in an STT_FUNC it is
# sync_core()'s return to itself (it pops its five-word frame and execution
# goes on after it); in SYM_CODE entry code it leaves for another context.
# INT3 is a trap the kernel resumes after (kprobes, the int3 selftest): it
# does not end a path either.
	.text
	.globl	sync_core_like
	.type	sync_core_like, @function
sync_core_like:
	movq	%ss, %rax
	pushq	%rax
	pushq	%rsp
	addq	$8, (%rsp)
	pushfq
	movq	%cs, %rax
	pushq	%rax
	leaq	1f(%rip), %rax
	pushq	%rax
	iretq
1:	ret
	.size	sync_core_like, .-sync_core_like

	# Runs into the next function: the IRET does not end the path.
	.globl	iret_in_function
	.type	iret_in_function, @function
iret_in_function:
	iretq
	.size	iret_in_function, .-iret_in_function

	.globl	next
	.type	next, @function
next:
	ret
	.size	next, .-next

	.globl	int3_in_function
	.type	int3_in_function, @function
int3_in_function:
	int3
	.size	int3_in_function, .-int3_in_function

	.globl	after_int3
	.type	after_int3, @function
after_int3:
	ret
	.size	after_int3, .-after_int3

	# Entry code (SYM_CODE_START: no function symbol): IRET ends it.
	.globl	entry_code
entry_code:
	iretq
