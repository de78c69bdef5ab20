// A function whose last instruction is not a return: it runs into the next one.
// f runs straight into g, which is how a deliberate second entry looks too
// (a note); g's other path runs into `brk` padding before h, plainly a bug.
	.text
	.globl	f
	.type	f, %function
f:
	bti	c
	mov	w0, #1			// no ret: reported (a note), falls into g
	.size	f, .-f

	.globl	g
	.type	g, %function
g:
	cbz	w0, 1f
	mov	w0, #2
	ret
1:	mov	w0, #3			// the other path lacks its ret: reported
	.size	g, .-g

	.balignl 16, 0xd4200020		// brk #0x1
	.globl	h
	.type	h, %function
h:
	ret
	.size	h, .-h
