// Pointers into functions inner-defs-arm64.s defines (see there).
	.section	.data.rel.ro,"aw"
	.globl	inner_table
	.type	inner_table, %object
inner_table:
	.quad	handler_inner+0xc	// a `bti j`: fine
	.quad	handler_inner_bad+0x4	// no pad: the finding
	.quad	handler_inner_bad+0xc	// the function's end
	.quad	handler_inner_bad+0x6	// inside an instruction
	.quad	handler_inner_bad-0x8	// handler_inner+0x10, no pad: a finding
	.quad	handler_inner_bad+0x10	// handler_third+0x4, no pad: a finding
	.quad	code_routine		// a routine's `bti c`: fine
	.quad	code_routine+0x4	// no pad: a finding
	.quad	code_routine+0xc	// the routine's end: no branch target
	.quad	code_bad		// no pad: a finding
	.size	inner_table, .-inner_table

	.section	.note.GNU-stack,"",%progbits
	.section	.note.gnu.property,"a"
	.p2align 3
	.word	4
	.word	16
	.word	5
	.asciz	"GNU"
	.word	0xc0000000	// GNU_PROPERTY_AARCH64_FEATURE_1_AND
	.word	4
	.word	3		// BTI | PAC
	.p2align 3
