// The last function of a section runs off the end of the section.
	.section .text.one, "ax", %progbits
	.globl	last
	.type	last, %function
last:
	paciasp
	stp	x29, x30, [sp, #-16]!
	bl	work			// returns, then nothing: reported
	.size	last, .-last

	.section .text.two, "ax", %progbits
	.globl	cond_last
	.type	cond_last, %function
cond_last:
	tbnz	w0, #3, 1f
	ret
1:	cmp	w0, #7
	b.eq	cond_last		// not taken: runs off the end: reported
	.size	cond_last, .-cond_last
