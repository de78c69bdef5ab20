// Preambles fall through into their function by design: clean.
	.text
	.p2align 3
	.type	__cfi_f, %function
__cfi_f:
	nop
	nop
	.size	__cfi_f, .-__cfi_f
	.globl	f
	.type	f, %function
f:
	bti	c
	ret
	.size	f, .-f

	.type	__pfx_g, %function
__pfx_g:
	nop
	nop
	.size	__pfx_g, .-__pfx_g
	.globl	g
	.type	g, %function
g:
	bti	c
	nop
	nop
	paciasp
	autiasp
	ret
	.size	g, .-g
