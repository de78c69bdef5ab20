// Two switches in one loop, the second dispatched only from the first's
// cases, both tables' addresses set before the loop (msm.ko's
// write_smp_fifo_regs, Linux 6.12, gcc 12). Looking back from the second
// dispatch for its table register, every path ended at a case of the first
// table (code only that table reaches), so the second table went unread.
// Once the first table is read, its cases lead back to its dispatch and on
// to the loop's head, and the second is read too. Built twice: as is,
// clean; with FAULT, a case of the second switch reloads x19 and x20
// before going round the loop, a stack-mismatch that only a walk of that
// case finds.
	.text
	.globl	two_switches
	.type	two_switches, %function
	.p2align 2
two_switches:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	adrp	x8, .Ltable1
	adrp	x10, .Ltable2
	add	x8, x8, :lo12:.Ltable1
	add	x10, x10, :lo12:.Ltable2
	mov	x4, #0
.Lloop:
	ldr	w2, [x0, x4, lsl #2]
	cmp	w2, #0x2
	b.hi	.Lout
	ldrh	w3, [x8, w2, uxtw #1]
	adr	x5, .Lbase1
	add	x3, x5, w3, sxth #2
	br	x3
.Lbase1:
	mov	w6, #0x1
	b	.Lsecond
.Lcase1_1:
	mov	w6, #0x2
	b	.Lsecond
.Lcase1_2:
	mov	w6, #0x3
.Lsecond:
	str	w6, [x1, x4, lsl #2]
	cmp	w2, #0x2
	b.hi	.Lout
	ldrh	w3, [x10, w2, uxtw #1]
	adr	x5, .Lbase2
	add	x3, x5, w3, sxth #2
	br	x3
.Lbase2:
	add	x4, x4, #0x1
	b	.Lloop
.Lcase2_1:
	add	x4, x4, #0x2
	b	.Lloop
.Lcase2_2:
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	add	x4, x4, #0x3
	b	.Lloop
.Lout:
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	two_switches, .-two_switches

	.section .rodata
	.p2align 1
.Ltable1:
	.hword	(.Lbase1 - .Lbase1) >> 2
	.hword	(.Lcase1_1 - .Lbase1) >> 2
	.hword	(.Lcase1_2 - .Lbase1) >> 2
.Ltable2:
	.hword	(.Lbase2 - .Lbase2) >> 2
	.hword	(.Lcase2_1 - .Lbase2) >> 2
	.hword	(.Lcase2_2 - .Lbase2) >> 2
