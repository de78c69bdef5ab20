# IRET in and out of functions, as objtool reads them: in an STT_FUNC it is
# sync_core()'s return to itself (it pops its five-word frame and execution
# goes on after it); in SYM_CODE entry code it leaves for another context.
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

	# Entry code (SYM_CODE_START: no function symbol): IRET ends it.
	.globl	entry_code
entry_code:
	iretq
