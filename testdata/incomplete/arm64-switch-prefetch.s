// A switch whose table address is in x17, set before its loop, with a
// `prfm pstl1strm` in the loop (Linux 6.1 ice.ko's ice_flow_add_prof, gcc
// 12, via an atomic bit operation). A prefetch's Rt field is no register
// but the kind of prefetch, and pstl1strm's is 17: the search back for
// x17 took the prefetch for a write of it and the table went unread. Built
// twice: as is, clean; with FAULT, a case reloads x19 and x20 before going
// round the loop, a stack-mismatch that only a walk of that case finds.
	.text
	.globl	prefetching
	.type	prefetching, %function
	.p2align 2
prefetching:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	adrp	x17, .Ltable
	add	x17, x17, :lo12:.Ltable
	mov	x4, #0
.Lloop:
	prfm	pstl1strm, [x1]
	ldr	w2, [x0, x4, lsl #2]
	cmp	w2, #0x2
	b.hi	.Lout
	ldrh	w3, [x17, w2, uxtw #1]
	adr	x5, .Lbase
	add	x3, x5, w3, sxth #2
	br	x3
.Lbase:
	add	x4, x4, #0x1
	b	.Lloop
.Lcase1:
	add	x4, x4, #0x2
	b	.Lloop
.Lcase2:
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	add	x4, x4, #0x3
	b	.Lloop
.Lout:
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	prefetching, .-prefetching

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lbase - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
