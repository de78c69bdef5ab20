# OpenSSL perlasm shapes in an object that claims IBT: constant tables kept
# in .text and reached with `lea table(%rip)` (no relocation: the assembler
# resolved the label). A table is data, not an indirect-branch target:
# `K256` is an STT_OBJECT symbol (`.type K256,@object`, size 0 as perlasm
# writes it), `.Lconst` a local label between two functions, outside both.
# `set_funcs` stores function addresses into a table of function pointers
# (poly1305_init's shape): `blocks` has no ENDBR64, a real finding, and its
# message says "reference" (no relocation) where `emit`'s says "relocation"
# (a global symbol, so the assembler left one).
	.text
	.globl	sha_block
	.type	sha_block, @function
sha_block:
	endbr64
	leaq	K256(%rip), %rbp
	movdqa	(%rbp), %xmm0
	leaq	.Lconst(%rip), %rax
	movdqa	(%rax), %xmm1
	leaq	K_XX_XX(%rip), %r11
	movdqa	(%r11), %xmm2
	leaq	untyped_entry(%rip), %rax
	ret
	.size	sha_block, .-sha_block

	.p2align 6
	.type	K256, @object
K256:
	.long	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5
	.long	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5

	.globl	set_funcs
	.type	set_funcs, @function
set_funcs:
	endbr64
	leaq	blocks(%rip), %rax
	movq	%rax, 0(%rdx)
	leaq	emit(%rip), %rax
	movq	%rax, 8(%rdx)
	ret
	.size	set_funcs, .-set_funcs

	.p2align 6
.Lconst:
	.quad	0x0000000003ffffff, 0x0000000003ffffff
	.quad	0xffffffffffffffff, 0x0000000000000000

	.p2align 6
K_XX_XX:
	.long	0x5a827999, 0x5a827999, 0x5a827999, 0x5a827999

	.globl	untyped_entry
untyped_entry:
	xorl	%eax, %eax
	ret

	.type	blocks, @function
blocks:
	xorl	%eax, %eax
	ret
	.size	blocks, .-blocks

	.globl	emit
	.type	emit, @function
emit:
	xorl	%eax, %eax
	ret
	.size	emit, .-emit

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
