// Returns that do not go through x30, in an object that claims GCS (and
// BTI, PAC) unless assembled with --defsym NOGCS=1: `keeps_lr` copies the
// return address to x15 around a call and returns with `ret x15` (glibc's
// __rawmemchr shape: right only if x15 still holds it, which objlint cannot
// follow), `jumps_by_ret_x1` uses `ret x1` as a computed jump (faults under
// GCS), `returns_by_br` returns with `br x30` (leaves its GCS entry behind).
// `plain` returns through x30 and is fine.
	.text
	.globl	plain
	.type	plain, %function
plain:
	bti	c
	mov	x0, #1
	ret
	.size	plain, .-plain

	.globl	keeps_lr
	.type	keeps_lr, %function
keeps_lr:
	bti	c
	mov	x15, x30
	bl	plain
	ret	x15
	.size	keeps_lr, .-keeps_lr

	.globl	jumps_by_ret_x1
	.type	jumps_by_ret_x1, %function
jumps_by_ret_x1:
	bti	c
	adr	x1, plain
	ret	x1
	.size	jumps_by_ret_x1, .-jumps_by_ret_x1

	.globl	returns_by_br
	.type	returns_by_br, %function
returns_by_br:
	bti	c
	br	x30
	.size	returns_by_br, .-returns_by_br

	.section	.note.GNU-stack,"",%progbits
	.section	.note.gnu.property,"a"
	.p2align 3
	.long	4		// name size
	.long	16		// descriptor size
	.long	5		// NT_GNU_PROPERTY_TYPE_0
	.asciz	"GNU"
	.long	0xc0000000	// GNU_PROPERTY_AARCH64_FEATURE_1_AND
	.long	4
.ifdef NOGCS
	.long	3		// BTI | PAC
.else
	.long	7		// BTI | PAC | GCS
.endif
	.p2align 3
