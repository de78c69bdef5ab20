// A switch whose table address gcc spills with another register in one
// `stp` (be2iscsi.ko's beiscsi_process_cq, Linux 6.1) and reloads with
// `ldr` before the dispatch. A pair store over the slot once made the
// table unreadable; one register of a pair is a spill like any other.
// Built twice: as is, clean; with FAULT, case 2 reloads x19 and x20 before
// the common exit, a stack-mismatch that only a walk of the case finds.
	.text
	.globl	pair_spill
	.type	pair_spill, %function
	.p2align 2
pair_spill:
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	adrp	x0, .Ltable
	add	x0, x0, :lo12:.Ltable
	mov	x1, #0x0
	stp	x0, x1, [sp, #32]
	bl	next_token
	cmp	w0, #0x2
	b.hi	.Ldefault
	ldr	x2, [sp, #32]
	ldrh	w1, [x2, w0, uxtw #1]
	adr	x2, .Lbase
	add	x1, x2, w1, sxth #2
	br	x1
.Lbase:
.Lcase0:
	mov	w0, #0x1
	b	.Lout
.Lcase1:
	mov	w0, #0x2
	b	.Lout
.Lcase2:
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	mov	w0, #0x3
	b	.Lout
.Ldefault:
	mov	w0, #0x0
.Lout:
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #48
	ret
	.size	pair_spill, .-pair_spill

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lcase0 - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
