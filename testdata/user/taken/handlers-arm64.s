// Hand-written handlers in an object that claims BTI and PAC (the arm64
// twin of handlers-x86_64.s): `handler_bad` has no `bti c` and another
// member of the archive takes its address; `handler_noendbr` is annotated,
// `called_only` only called directly.
	.text
	.globl	handler_ok
	.type	handler_ok, %function
handler_ok:
	bti	c
	mov	w0, #0
	ret
	.size	handler_ok, .-handler_ok

	.globl	handler_bad
	.type	handler_bad, %function
handler_bad:
	mov	w0, #1
	ret
	.size	handler_bad, .-handler_bad

	.globl	handler_noendbr
	.type	handler_noendbr, %function
handler_noendbr:
	mov	w0, #2
	ret
	.size	handler_noendbr, .-handler_noendbr
	.pushsection .discard.noendbr, "", %progbits
	.quad	handler_noendbr
	.popsection

	.globl	called_only
	.type	called_only, %function
called_only:
	mov	w0, #3
	ret
	.size	called_only, .-called_only

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
