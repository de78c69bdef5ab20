// A switch in a loop, its table's address set once before the loop in x10;
// one case spills x10 with another register around a call and reloads the
// pair before going round again (Linux 7.2's nfp.ko,
// nfp_net_tlv_caps_parse, gcc 16): looking back for the table register met
// the reload, and the table went unread. The reload is followed back to
// the stores of its slot, and from there to the address. Built twice: as
// is, clean; with FAULT, a case reloads x19 and x20 before going round the
// loop, a stack-mismatch that only a walk of that case finds; with OTHER,
// the case stores another register in the slot it reloads x10 from: what
// x10 then holds is not the table's address, and the table stays unread
// (said so); with NARROW, a 32-bit store over half of the slot between the
// spill and the reload: unread too.
	.text
	.globl	slot_reload
	.type	slot_reload, %function
	.p2align 2
slot_reload:
	stp	x29, x30, [sp, #-64]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	adrp	x10, .Ltable
	add	x10, x10, :lo12:.Ltable
	mov	x5, #0
.Lloop:
	ldr	w2, [x0, x5, lsl #2]
	cmp	w2, #0x2
	b.hi	.Lout
	ldrh	w3, [x10, w2, uxtw #1]
	adr	x6, .Lbase
	add	x3, x6, w3, sxth #2
	br	x3
.Lbase:
	add	x5, x5, #0x1
	b	.Lloop
.Lcase1:
.ifdef OTHER
	stp	x11, x9, [sp, #48]
.else
	stp	x10, x9, [sp, #48]
.endif
	bl	callee
.ifdef NARROW
	str	w5, [sp, #52]
.endif
	ldp	x10, x9, [sp, #48]
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
	ldp	x29, x30, [sp], #64
	ret
	.size	slot_reload, .-slot_reload

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lbase - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
