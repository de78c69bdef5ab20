# A kbuild object without code (capflags.o, clz_tab.o, an empty highmem.o):
# the IBT-only note (-fcf-protection=branch) has no code to describe, so
# gnu-property says nothing about SHSTK (fnptr-ibt.o, with code, gets it).
	.section .note.gnu.property,"a"
	.p2align 3
	.long 4, 16, 5
	.asciz "GNU"
	.long 0xc0000002, 4, 1		# X86_FEATURE_1_AND: IBT only
	.p2align 3

	.text
	.section .rodata
	.globl x86_cap_flags
x86_cap_flags:
	.quad 0
