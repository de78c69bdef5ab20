// A switch whose table address lives in x24, but one case keeps it in x23
// while it needs x24, and moves it back before going round the loop
// (clang-19's bstr_printf, Linux 6.12 with KASAN: `mov x23, x24` ...
// `mov x24, x23`). Looking back from the dispatch for x24 met the `mov
// x24, x23` as another value, and the table went unread; the address is
// now followed through such copies to its `adrp`/`add`. Built twice: as
// is, clean; with FAULT, another case reloads x19 and x20 before going
// round the loop, a stack-mismatch that only a walk of that case finds.
	.text
	.globl	moved
	.type	moved, %function
	.p2align 2
moved:
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	stp	x23, x24, [sp, #16]
	stp	x19, x20, [sp, #32]
	mov	x19, x0
	adrp	x24, .Ltable
	add	x24, x24, :lo12:.Ltable
	adrp	x23, other
	add	x23, x23, :lo12:other
.Lloop:
	mov	x0, x19
	bl	next_token
	and	w8, w0, #0xff
	cmp	w8, #0x2
	b.hi	.Lout
	and	x8, x0, #0xff
	adr	x9, .Lbase
	ldrsw	x10, [x24, x8, lsl #2]
	add	x9, x9, x10
	br	x9
.Lbase:
	mov	x23, x24
	ldr	x24, [x19]
	mov	x0, x24
	bl	consume
	mov	x24, x23
	adrp	x23, other
	add	x23, x23, :lo12:other
	b	.Lloop
.Lcase1:
	mov	x0, x23
	bl	consume
	b	.Lloop
.Lcase2:
.ifdef FAULT
	ldp	x19, x20, [sp, #32]
.endif
	add	x19, x19, #0x1
	b	.Lloop
.Lout:
	ldp	x19, x20, [sp, #32]
	ldp	x23, x24, [sp, #16]
	ldp	x29, x30, [sp], #48
	ret
	.size	moved, .-moved

	.section .rodata
	.p2align 2
.Ltable:
	.word	.Lbase - .Lbase
	.word	.Lcase1 - .Lbase
	.word	.Lcase2 - .Lbase
