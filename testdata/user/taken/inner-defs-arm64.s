// The arm64 twin of inner-defs-x86_64.s: `handler_inner` has a `bti j`
// where another member points (inside a function a jump pad will do, as for
// references within one object); `handler_inner_bad+0x4` has no pad, nor
// have `handler_inner+0x10` and `handler_third+0x4`, which the other member
// names from `handler_inner_bad` (`sym-off`, `sym+off` past its end).
	.text
	.globl	handler_inner
	.type	handler_inner, %function
handler_inner:
	bti	c
	mov	w0, #4
	ret
	bti	j			// +0xc: the inner entry
	mov	w0, #5
	ret
	.size	handler_inner, .-handler_inner

	.globl	handler_inner_bad
	.type	handler_inner_bad, %function
handler_inner_bad:
	bti	c
	mov	w0, #6			// +0x4: pointed at, no pad
	ret
	.size	handler_inner_bad, .-handler_inner_bad

	.globl	handler_third
	.type	handler_third, %function
handler_third:
	bti	c
	mov	w0, #7			// +0x4: pointed at as handler_inner_bad+0x10
	ret
	.size	handler_third, .-handler_third

// Hand-written routines (SYM_CODE_START: global, sized, no type), as in
// inner-defs-x86_64.s: `code_routine` has its `bti c`, `code_routine+0x4`
// and `code_bad` no pad (findings), `code_routine+0xc` is its end.
	.globl	code_routine
code_routine:
	bti	c
	mov	w0, #8			// +0x4: pointed at, no pad
	ret
	.size	code_routine, .-code_routine

	.globl	handler_direct
	.type	handler_direct, %function
handler_direct:
	mov	w0, #9
	ret
	.size	handler_direct, .-handler_direct

	.globl	code_bad
code_bad:
	mov	w0, #10
	ret
	.size	code_bad, .-code_bad

	.section	.note.GNU-stack,"",%progbits
	.section	.note.gnu.property,"a"
	.p2align 3
	.word	4		// name size
	.word	16		// descriptor size
	.word	5		// NT_GNU_PROPERTY_TYPE_0
	.asciz	"GNU"
	.word	0xc0000000	// GNU_PROPERTY_AARCH64_FEATURE_1_AND
	.word	4
	.word	3		// BTI | PAC
	.p2align 3
