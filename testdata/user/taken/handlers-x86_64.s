# Hand-written handlers in an object that claims IBT. Another member of the
# archive (table.c) stores `handler_ok`, `handler_bad` and `handler_noendbr`
# in a table of function pointers and calls `called_only` directly.
# `handler_bad` has no ENDBR64: in the archive checked as one link it is an
# indirect-branch target without a landing pad (a real finding); on its own
# this object cannot tell. `handler_noendbr` is annotated NOENDBR (the
# kernel's `.discard.noendbr` layout: a list of places), `called_only` is
# never address-taken, and neither needs a pad.
	.text
	.globl	handler_ok
	.type	handler_ok, @function
handler_ok:
	endbr64
	xorl	%eax, %eax
	ret
	.size	handler_ok, .-handler_ok

	.globl	handler_bad
	.type	handler_bad, @function
handler_bad:
	movl	$1, %eax
	ret
	.size	handler_bad, .-handler_bad

	.globl	handler_noendbr
	.type	handler_noendbr, @function
handler_noendbr:
	movl	$2, %eax
	ret
	.size	handler_noendbr, .-handler_noendbr
	.pushsection .discard.noendbr, "", @progbits
	.quad	handler_noendbr
	.popsection

	.globl	called_only
	.type	called_only, @function
called_only:
	movl	$3, %eax
	ret
	.size	called_only, .-called_only

	.section	.note.GNU-stack,"",@progbits
	.section	.note.gnu.property,"a"
	.p2align 3
	.long	4		# name size
	.long	16		# descriptor size
	.long	5		# NT_GNU_PROPERTY_TYPE_0
	.asciz	"GNU"
	.long	0xc0000002	# GNU_PROPERTY_X86_FEATURE_1_AND
	.long	4
	.long	3		# IBT | SHSTK
	.p2align 3
