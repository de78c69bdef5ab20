// A switch in a loop, its table's address set before the loop in x4, and a
// conditional compare on a case's way back to the loop's head (ice.ko's
// ice_vc_add_fdir_fltr, Linux 7.3, gcc 14): `ccmp w2, #0x0, #0x4, ne`
// writes flags only, but its nzcv (4) sits where a destination register
// would, and it was taken for a write of x4: the table went unread. Built
// twice: as is, clean; with FAULT, a case reloads x19 and x20 before going
// round the loop, a stack-mismatch that only a walk of that case finds.
	.text
	.globl	ccmp_loop
	.type	ccmp_loop, %function
	.p2align 2
ccmp_loop:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	adrp	x4, .Ltable
	add	x4, x4, :lo12:.Ltable
	mov	x5, #0
.Lloop:
	ldr	w2, [x0, x5, lsl #2]
	cmp	w2, #0x2
	b.hi	.Lout
	ldrh	w3, [x4, w2, uxtw #1]
	adr	x6, .Lbase
	add	x3, x6, w3, sxth #2
	br	x3
.Lbase:
	add	x5, x5, #0x1
	b	.Lloop
.Lcase1:
	cmp	w1, #0x0
	ccmp	w2, #0x0, #0x4, ne
	b.eq	.Lout
	add	x5, x5, #0x2
	b	.Lloop
.Lcase2:
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	add	x5, x5, #0x3
	b	.Lloop
.Lout:
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	ccmp_loop, .-ccmp_loop

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lbase - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
