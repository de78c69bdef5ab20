# ENDBR64 at every entry, but the note claims SHSTK only: linking this object
# silently turns IBT off for the whole binary (gnu-property).
	.section .note.gnu.property,"a"
	.p2align 3
	.long 4, 16, 5
	.asciz "GNU"
	.long 0xc0000002, 4, 2		# X86_FEATURE_1_AND: SHSTK only
	.p2align 3

	.text
	.globl a
	.type a,@function
a:	endbr64
	ret
	.size a,.-a
	.globl b
	.type b,@function
b:	endbr64
	ret
	.size b,.-b
