// An arm64 build with -mharden-sls=all: barriers after returns and
// indirect jumps, and indirect calls through a thunk, except where marked.
	.text
	.globl	a
	.type	a, %function
a:	bl	thunk
	ret
	dsb	sy
	isb
	.size	a, .-a
	.globl	b
	.type	b, %function
b:	br	x0
	sb
	.size	b, .-b
	.globl	thunk
	.type	thunk, %function
thunk:	mov	x16, x1
	br	x16
	dsb	nsh
	isb
	.size	thunk, .-thunk
	.globl	c
	.type	c, %function
c:	ret
	dsb	sy
	isb
	.size	c, .-c
// sls: no barrier after ret; dsb without isb after br; a bare blr.
	.globl	bad_ret
	.type	bad_ret, %function
bad_ret:
	ret
	.size	bad_ret, .-bad_ret
	.globl	bad_br
	.type	bad_br, %function
bad_br:	br	x2
	dsb	sy
	.size	bad_br, .-bad_br
	.globl	bad_blr
	.type	bad_blr, %function
bad_blr:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	blr	x3
	ldp	x29, x30, [sp], #16
	ret
	dsb	sy
	isb
	.size	bad_blr, .-bad_blr
	.globl	d
	.type	d, %function
d:	ret
	sb
	.size	d, .-d
