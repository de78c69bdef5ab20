# A call the kernel annotates as returning whatever its callee: Linux's
# call_on_stack() (asm/irq_stack.h) calls the function it is given from
# inline assembly and marks the instruction after the call reachable
# (ASM_REACHABLE, `.discard.reachable`), since the function may be one that
# never returns (smp.c's __sysvec_reboot(), ending in stop_this_cpu()).
# objtool walks on past such a call; objlint did not, and took the code
# after it for unreachable (the ORC rows there undefined). Assembled with
# `--defsym UNANNOTATED=1` the mark is gone: the code after the call is
# unreachable for both.
	.text
	.type	dies, @function		# local, ends in a call that never returns
dies:
	xorl	%edi, %edi
	call	stop_this_cpu
	.size	dies, .-dies

	.globl	on_stack
	.type	on_stack, @function
on_stack:
	pushq	%rbx
	movq	%rdi, %rbx
	movq	%rsp, (%rbx)		# as call_on_stack() switches stacks
	movq	%rbx, %rsp
	call	dies
998:
.ifndef UNANNOTATED
	.pushsection .discard.reachable, "", @progbits
	.long	998b
	.popsection
.endif
	popq	%rsp
	popq	%rbx
	ret
	.size	on_stack, .-on_stack
