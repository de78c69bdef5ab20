// glibc's memcpy_thunderx.S shape: `__memmove_x` tests for overlap and
// continues into `__memcpy_x` (alignment NOPs between). Reported as a note;
// `annotated_move` is named in the objlint annotation section and is not.
	.text
	.globl	__memmove_x
	.type	__memmove_x, %function
__memmove_x:
	sub	x14, x0, x1
	cmp	x2, #0x60
	ccmp	x14, x2, #0x2, hi
	b.cc	1f
	.size	__memmove_x, .-__memmove_x
	.p2align 6
	.globl	__memcpy_x
	.type	__memcpy_x, %function
__memcpy_x:
	mov	x3, x0
1:	ret
	.size	__memcpy_x, .-__memcpy_x

	.globl	annotated_move
	.type	annotated_move, %function
annotated_move:
	cmp	x2, #0
	b.eq	2f
	.size	annotated_move, .-annotated_move
	.pushsection .discard.objlint.fallthrough, "", %progbits
	.quad	annotated_move + 4
	.popsection
	.globl	annotated_copy
	.type	annotated_copy, %function
annotated_copy:
	mov	x3, x0
2:	ret
	.size	annotated_copy, .-annotated_copy
	.section	.note.GNU-stack,"",%progbits
