// A switch table whose last entry the compiler knows is never taken points
// at what it left of that case at the function's end: one store, then the
// padding before the next function (gcc 16, Linux 7.2's mlxfw.ko:
// mlxfw_fsm_reactivate_err(), inlined into mlxfw_firmware_flash(), switches
// on a status its only caller has already returned on for that value; the
// case's block is a shrink-wrapping `stp x23, x24` and nothing after it).
// dead_case: the case is not followed, and its store is unreachable, said
// so with the table it came from; no fall-through. fallen_into: the same
// shape, but the case before runs into the store: a path that truly runs
// off the function, reported.
	.text
	.globl	dead_case
	.type	dead_case, %function
	.p2align 3
dead_case:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	cmp	w0, #0x3
	mov	w3, #0x3
	csel	w3, w0, w3, ls
	cmp	w3, #0x3
	b.hi	.Lout
	adrp	x1, .Ltable
	add	x1, x1, :lo12:.Ltable
	ldrh	w1, [x1, w3, uxtw #1]
	adr	x2, .Lbase
	add	x1, x2, w1, sxth #2
	br	x1
.Lbase:
	mov	w0, #1
	b	.Lout
.Lcase1:
	mov	w0, #2
	b	.Lout
.Lcase2:
	mov	w0, #3
.Lout:
	ldp	x29, x30, [sp], #32
	ret
.Ldead:
	stp	x23, x24, [sp, #16]
	.size	dead_case, .-dead_case
	.p2align 5

	.globl	fallen_into
	.type	fallen_into, %function
fallen_into:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	cmp	w0, #0x3
	mov	w3, #0x3
	csel	w3, w0, w3, ls
	cmp	w3, #0x3
	b.hi	.Lout2
	adrp	x1, .Ltable2
	add	x1, x1, :lo12:.Ltable2
	ldrh	w1, [x1, w3, uxtw #1]
	adr	x2, .Lbase2
	add	x1, x2, w1, sxth #2
	br	x1
.Lbase2:
	mov	w0, #1
	b	.Lout2
.Lcase21:
	mov	w0, #2
.Lout2:
	ldp	x29, x30, [sp], #32
	ret
.Lcase22:
	mov	w0, #3
.Ltail2:
	stp	x23, x24, [sp, #16]
	.size	fallen_into, .-fallen_into
	.p2align 5

	.globl	next_one
	.type	next_one, %function
next_one:
	ret
	.size	next_one, .-next_one

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lbase - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
	.hword	(.Ldead - .Lbase) >> 2
.Ltable2:
	.hword	(.Lbase2 - .Lbase2) >> 2
	.hword	(.Lcase21 - .Lbase2) >> 2
	.hword	(.Lcase22 - .Lbase2) >> 2
	.hword	(.Ltail2 - .Lbase2) >> 2
