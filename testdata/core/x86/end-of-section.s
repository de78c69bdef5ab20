# The last function of a section runs off the end of the section.
	.section .text.one, "ax", @progbits
	.globl	last
	.type	last, @function
last:
	endbr64
	addl	$1, %edi
	call	work			# returns, then nothing: reported
	.size	last, .-last

# A conditional jump whose not-taken path is the section end.
	.section .text.two, "ax", @progbits
	.globl	cond_last
	.type	cond_last, @function
cond_last:
	testl	%edi, %edi
	jne	1f
	ret
1:	cmpl	$3, %edi
	je	cond_last		# not taken: runs off the end: reported
	.size	cond_last, .-cond_last
