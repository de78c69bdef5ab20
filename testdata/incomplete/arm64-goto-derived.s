// A computed goto whose table address is derived from another: gcc 12
// keeps `.rodata`'s address in one register for several of its objects
// and adds the table's offset into another (`adrp x23, .rodata; add x23,
// x23, :lo12:.rodata; add x21, x23, #0x2e0; ldr x2, [x21, w1, sxtw #3];
// br x2`: Linux 7.3's ___bpf_prog_run, arm64 defconfig). The relocation
// names `.rodata`, the table is 16 bytes on. Before, the table was looked
// for at `.rodata` itself, not found, and the `br` read as a tail call with
// the frame set up. Built twice: as is, clean; with FAULT, one handler
// reloads x19 and x20 before going round the loop, a stack-mismatch only
// a walk of the handlers finds.
	.text
	.globl	interp
	.type	interp, %function
	.p2align 2
interp:
	bti	c
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	adrp	x23, .Lconsts
	add	x23, x23, :lo12:.Lconsts
	mov	x19, x0
	add	x21, x23, #16
.Lselect:
	ldrb	w1, [x19], #1
	ldr	x2, [x21, w1, sxtw #3]
	br	x2
.Lop_add:
	bti	j
	ldr	x3, [x23]
	add	x0, x0, x3
	b	.Lselect
.Lop_sub:
	bti	j
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	ldr	x3, [x23, #8]
	sub	x0, x0, x3
	b	.Lselect
.Lop_exit:
	bti	j
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	interp, .-interp

	.section .rodata
	.p2align 3
.Lconsts:
	.quad	1
	.quad	2
.Ljumptable:
	.quad	.Lop_add
	.quad	.Lop_sub
	.quad	.Lop_exit
