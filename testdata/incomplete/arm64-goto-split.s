// A computed goto whose slot address is computed apart from its load:
// `add x20, x22, w27, uxtw #3; ldr x8, [x20]; br x8`, as clang-19 emits
// Linux 6.12's ___bpf_prog_run in a KASAN build (the address is checked
// before the load). The table's address is set once at the entry; its
// entries are pointers with relocations. Before, the dispatch was not
// recognised and the `br` read as a tail call with the frame set up
// ("sibling call from callable instruction with modified stack frame").
// Built twice: as is, clean; with FAULT, one handler reloads x19 and x20
// before going round the loop, a stack-mismatch only a walk of the
// handlers finds.
	.text
	.globl	interp
	.type	interp, %function
	.p2align 2
interp:
	bti	c
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	adrp	x22, .Ljumptable
	add	x22, x22, :lo12:.Ljumptable
	mov	x19, x0
.Lselect:
	ldrb	w27, [x19], #1
	add	x20, x22, w27, uxtw #3
	cbz	x20, .Lcheck		// KASAN's shadow check stands here
.Lcheck:
	ldr	x8, [x20]
	br	x8
.Lop_add:
	bti	j
	add	x0, x0, #1
	b	.Lselect
.Lop_sub:
	bti	j
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	sub	x0, x0, #1
	b	.Lselect
.Lop_exit:
	bti	j
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	interp, .-interp

	.section .rodata
	.p2align 3
.Ljumptable:
	.quad	.Lop_add
	.quad	.Lop_sub
	.quad	.Lop_exit
