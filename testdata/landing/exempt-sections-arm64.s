// The arm64 exempt_section entries of rules/landing_pads.toml no other
// fixture holds, in a BTI object: .bti_seal, as `objlint seal --mode section`
// writes it (a PC-relative list of BTI c pads that may become NOPs; the
// function it names has lost its pad, a sealed one); __kvm_ex_table (8-byte
// entries: the faulting instruction and its fixup); the runtime constants'
// patch-site lists. None is reported; tests/exemptions.rs removes each entry
// and expects the finding.
	.section .note.gnu.property,"a"
	.p2align 3
	.word 4, 16, 5
	.asciz "GNU"
	.word 0xc0000000, 4, 3		// AARCH64_FEATURE_1_AND: BTI | PAC
	.p2align 3
	.text
	.globl sealed
	.type sealed, %function
	.p2align 2
sealed:
	nop
	ret
	.size sealed, . - sealed
	.section .bti_seal,"a"
	.p2align 2
	.word sealed - .

	.text
	.globl in_kvm_ex_table
	.type in_kvm_ex_table, %function
	.p2align 2
in_kvm_ex_table:
	at s1e1r, x0
	ret
	.size in_kvm_ex_table, . - in_kvm_ex_table
	.globl in_runtime_ptr
	.type in_runtime_ptr, %function
	.p2align 2
in_runtime_ptr:
	movz x0, #0xcdef
	ret
	.size in_runtime_ptr, . - in_runtime_ptr
	.globl in_runtime_shift
	.type in_runtime_shift, %function
	.p2align 2
in_runtime_shift:
	lsr w0, w0, #12
	ret
	.size in_runtime_shift, . - in_runtime_shift
	.globl in_runtime_mask
	.type in_runtime_mask, %function
	.p2align 2
in_runtime_mask:
	ubfx w0, w0, #0, #32
	ret
	.size in_runtime_mask, . - in_runtime_mask
	.section __kvm_ex_table,"a"
	.p2align 3
	.word in_kvm_ex_table - ., in_kvm_ex_table - . + 4
	.section runtime_ptr_dentry_hashtable,"a"
	.p2align 2
	.word in_runtime_ptr - .
	.section runtime_shift_d_hash_shift,"a"
	.p2align 2
	.word in_runtime_shift - .
	.section runtime_mask___futex_mask,"a"
	.p2align 2
	.word in_runtime_mask - .
