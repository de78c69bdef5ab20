# A function whose last instruction is not a return: it runs into the next one.
# f runs straight into g, which is how a deliberate second entry looks too
# (a note); g's other path runs into int3 padding before h, plainly a bug.
	.text
	.globl	f
	.type	f, @function
f:
	endbr64
	movl	$1, %eax		# no ret: reported (a note), falls into g
	.size	f, .-f

	.globl	g
	.type	g, @function
g:
	endbr64
	testl	%edi, %edi
	je	1f
	movl	$2, %eax
	ret
1:	xorl	%eax, %eax		# the other path lacks its ret: reported
	.size	g, .-g

	.p2align 4, 0xcc
	.globl	h
	.type	h, @function
h:
	ret
	.size	h, .-h
