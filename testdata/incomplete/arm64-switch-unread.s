// A switch dispatch (`adr` base, scaled entry, `br`) whose table address
// comes from memory: no relocation or address computation names the table,
// so it cannot be read. analysis-incomplete says so once, and that neither
// the cases nor unreachable code in the function were judged.
	.text
	.globl	dispatch_unread
	.type	dispatch_unread, %function
	.p2align 2
dispatch_unread:
	ldr	x2, [x0, #16]
	cmp	w1, #0x2
	b.hi	.Ldefault
	ldrh	w1, [x2, w1, uxtw #1]
	adr	x3, .Lbase
	add	x1, x3, w1, sxth #2
	br	x1
.Lbase:
	mov	w0, #0x1
	ret
	mov	w0, #0x2
	ret
	mov	w0, #0x3
	ret
.Ldefault:
	mov	w0, #0x0
	ret
	.size	dispatch_unread, .-dispatch_unread
