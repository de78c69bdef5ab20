// An arm64 assembly alternative as the kernel writes them (alternative_if_not
// CAP: `b 1f` replaced by a NOP when the CPU has the capability), whose
// replacement goes to subsection 1 of the section, after data the section
// ends with (Linux 6.1 head.S, `ptrauth_keys_init_cpu` in
// __secondary_switched). clang's integrated assembler puts no `$x` mapping
// symbol before that code, so the mapping symbols call the replacement data;
// binutils puts one. The replacement is code all the same: the code after
// the `b` is reached through it (built by clang-19 and by gas; no finding in
// either).
	.text
	.globl	ptrauth_init
	.type	ptrauth_init, %function
	.p2align 2
ptrauth_init:
	adrp	x1, table
	ldr	x1, [x1, :lo12:table]
661:	b	1f
662:
	.pushsection .altinstructions, "a"
	.word	661b - .
	.word	663f - .
	.hword	5
	.byte	662b - 661b
	.byte	664f - 663f
	.popsection
	.subsection 1
663:	nop
664:
	.previous
	mrs	x3, id_aa64isar1_el1
	msr	apiakeylo_el1, x3
	isb
1:	ret
	.size	ptrauth_init, . - ptrauth_init
	.p2align 3
table:
	.quad	0x1234
