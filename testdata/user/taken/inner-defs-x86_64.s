# Functions with a second way in: another member of the archive
# (inner-refs-x86_64.s) points inside them. `handler_inner` has an ENDBR64
# where it is pointed at (an inner entry, like the kernel's
# SYM_INNER_LABEL); `handler_inner_bad+0x4` has none: in the archive checked
# as one link an indirect branch may land there without a pad (a finding).
# The other references are no branch targets: the end of the function (a
# range's end) and the middle of an instruction. Two more name one function
# and land in another (`sym-off`, `sym+off` past its end): `handler_inner+0xe`
# and `handler_third+0x4`, neither with an ENDBR64.
	.text
	.globl	handler_inner
	.type	handler_inner, @function
handler_inner:
	endbr64
	movl	$4, %eax
	ret
	endbr64			# +0xa: the inner entry
	movl	$5, %eax
	ret
	.size	handler_inner, .-handler_inner

	.globl	handler_inner_bad
	.type	handler_inner_bad, @function
handler_inner_bad:
	endbr64
	movl	$6, %eax	# +0x4: pointed at, no ENDBR64
	ret
	.size	handler_inner_bad, .-handler_inner_bad

	.globl	handler_third
	.type	handler_third, @function
handler_third:
	endbr64
	movl	$7, %eax	# +0x4: pointed at as handler_inner_bad+0xe
	ret
	.size	handler_third, .-handler_third

# Hand-written routines as SYM_CODE_START makes them: global, sized, no
# type. The other member points at `code_routine` (its ENDBR64: fine), past
# its pad (a finding), at its end (`code_routine+0xa`, a range's end, where
# `handler_direct`, called only directly, has no pad: no branch target) and
# at `code_bad`, which has no ENDBR64 (a finding).
	.globl	code_routine
code_routine:
	endbr64
	movl	$8, %eax	# +0x4: pointed at, no ENDBR64
	ret
	.size	code_routine, .-code_routine

	.globl	handler_direct
	.type	handler_direct, @function
handler_direct:
	movl	$9, %eax
	ret
	.size	handler_direct, .-handler_direct

	.globl	code_bad
code_bad:
	movl	$10, %eax
	ret
	.size	code_bad, .-code_bad

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
