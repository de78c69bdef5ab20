// An object that claims GCS (and BTI, PAC): with the Guarded Control Stack
// on, a return must go back to the address the call left in x30, which the
// hardware kept on the GCS. `ok` saves and restores x30 around a call;
// `jumps_by_ret` uses `ret` as a jump to a label it put into x30, and
// `returns_elsewhere` returns to an address loaded from memory (a longjmp):
// both fault under GCS. (stack-modified-return says the same of every
// object; gnu-property says it is the GCS claim that breaks.)
	.text
	.globl	ok
	.type	ok, %function
ok:
	bti	c
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	callee
	ldp	x29, x30, [sp], #16
	autiasp
	ret
	.size	ok, .-ok

	.globl	jumps_by_ret
	.type	jumps_by_ret, %function
jumps_by_ret:
	bti	c
	adr	x30, ok
	ret
	.size	jumps_by_ret, .-jumps_by_ret

	.globl	returns_elsewhere
	.type	returns_elsewhere, %function
returns_elsewhere:
	bti	c
	ldr	x30, [x0, #8]
	ldr	x29, [x0]
	ret
	.size	returns_elsewhere, .-returns_elsewhere

	.section	.note.GNU-stack,"",%progbits
	.section	.note.gnu.property,"a"
	.p2align 3
	.long	4		// name size
	.long	16		// descriptor size
	.long	5		// NT_GNU_PROPERTY_TYPE_0
	.asciz	"GNU"
	.long	0xc0000000	// GNU_PROPERTY_AARCH64_FEATURE_1_AND
	.long	4
	.long	7		// BTI | PAC | GCS
	.p2align 3
