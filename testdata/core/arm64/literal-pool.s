// Data inside code ($d mapping symbols) is never decoded as instructions.
	.text
	.globl	pool
	.type	pool, %function
pool:
	ldr	x0, 1f
	ldr	w1, 2f
	b	3f
	.p2align 3
1:	.quad	0x14000000d503201f	// decodes as "nop; b ." if taken for code
2:	.word	0x94000000		// "bl ." if taken for code
3:	add	x0, x0, x1
	ret
	.word	0xd503201f		// a trailing pool word that looks like a nop
	.size	pool, .-pool

	.globl	after
	.type	after, %function
after:
	ldr	x0, =0x123456789abcdef0
	ret
	.ltorg				// pool at the end of the function
	.size	after, .-after

	.globl	next
	.type	next, %function
next:
	ret
	.size	next, .-next

// Reported: the path runs from code into the pool, which would execute data.
	.globl	into_pool
	.type	into_pool, %function
into_pool:
	ldr	w0, 1f
	add	w0, w0, #1		// no ret: runs into the word below
1:	.word	0x12345678
	.size	into_pool, .-into_pool

	.globl	last
	.type	last, %function
last:
	ret
	.size	last, .-last
