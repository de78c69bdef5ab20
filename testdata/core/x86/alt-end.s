# A path through an alternative whose site ends its function: the replacement
# (three NOPs for a RET) runs on past the site into the next function. objtool
# follows it and says "falls through to next function"
# (alt-end.objtool.txt); objlint once ended the path there without a word.
	.text
	.globl	alt_end
	.type	alt_end, @function
alt_end:
	movl	(%rdi), %eax
771:	ret
	int3
	int3
772:
	.pushsection .altinstructions,"a"
	.long	771b - .
	.long	774f - .
	.long	308
	.byte	772b-771b
	.byte	775f-774f
	.popsection
	.pushsection .altinstr_replacement,"ax"
774:	nop
	nop
	nop
775:
	.popsection
	.size	alt_end, .-alt_end
	.globl	next
	.type	next, @function
next:
	ret
	.size	next, .-next
