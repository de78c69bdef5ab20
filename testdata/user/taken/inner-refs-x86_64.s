# Pointers into functions inner-defs-x86_64.s defines (see there).
	.section	.data.rel.ro,"aw"
	.globl	inner_table
	.type	inner_table, @object
inner_table:
	.quad	handler_inner+0xa	# an ENDBR64: fine
	.quad	handler_inner_bad+0x4	# no ENDBR64: the finding
	.quad	handler_inner_bad+0xa	# the function's end
	.quad	handler_inner_bad+0x5	# inside an instruction
	.quad	handler_inner_bad-0x6	# handler_inner+0xe, no ENDBR64: a finding
	.quad	handler_inner_bad+0xe	# handler_third+0x4, no ENDBR64: a finding
	.quad	code_routine		# a routine's ENDBR64: fine
	.quad	code_routine+0x4	# no ENDBR64: a finding
	.quad	code_routine+0xa	# the routine's end: no branch target
	.quad	code_bad		# no ENDBR64: a finding
	.size	inner_table, .-inner_table

	.section	.note.GNU-stack,"",@progbits
	.section	.note.gnu.property,"a"
	.p2align 3
	.long	4
	.long	16
	.long	5
	.asciz	"GNU"
	.long	0xc0000002	# GNU_PROPERTY_X86_FEATURE_1_AND
	.long	4
	.long	3		# IBT | SHSTK
	.p2align 3
