// A function whose last instruction is not a return: it runs into the next one.
	.text
	.globl	f
	.type	f, %function
f:
	bti	c
	mov	w0, #1			// no ret: reported, falls into g
	.size	f, .-f

	.globl	g
	.type	g, %function
g:
	cbz	w0, 1f
	mov	w0, #2
	ret
1:	mov	w0, #3			// the other path lacks its ret: reported
	.size	g, .-g

	.p2align 4
	.globl	h
	.type	h, %function
h:
	ret
	.size	h, .-h
