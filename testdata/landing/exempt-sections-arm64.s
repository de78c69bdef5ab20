// The arm64 exempt_section entry of rules/landing_pads.toml no other fixture
// holds: .bti_seal, as `objlint seal --mode section` writes it (a PC-relative
// list of BTI c pads that may become NOPs), in a BTI object. The function it
// names has lost its pad (a sealed one): not reported. tests/exemptions.rs
// removes the entry and expects the finding.
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
