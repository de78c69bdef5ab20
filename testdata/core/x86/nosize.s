# Functions without .size run to the next symbol or the section end.
	.text
	.globl	nosize_ok
	.type	nosize_ok, @function
nosize_ok:
	movl	$1, %eax
	ret

	.globl	nosize_bad
	.type	nosize_bad, @function
nosize_bad:
	movl	$2, %eax		# no ret: reported, falls into sized
	.globl	sized
	.type	sized, @function
sized:
	ret
	.size	sized, .-sized

	.globl	nosize_last
	.type	nosize_last, @function
nosize_last:
	call	work			# runs off the end of .text: reported
