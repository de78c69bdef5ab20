# kCFI and prefix preambles fall through into their function by design: clean.
	.text
	.p2align 4
	.type	__cfi_f, @function
__cfi_f:
	movl	$0x12345678, %eax
	.rept 11
	nop
	.endr
	.size	__cfi_f, .-__cfi_f
	.rept 16
	nop
	.endr
	.globl	f
	.type	f, @function
f:
	endbr64
	ret
	.size	f, .-f

	.p2align 4
	.type	__pfx_g, @function
__pfx_g:
	.rept 16
	nop
	.endr
	.size	__pfx_g, .-__pfx_g
	.globl	g
	.type	g, @function
g:
	endbr64
	jmp	__x86_return_thunk
	.size	g, .-g

# A preamble as the last thing in a section is still a preamble, not a finding.
	.section .text.tail, "ax", @progbits
	.type	__pfx_orphan, @function
__pfx_orphan:
	.rept 16
	nop
	.endr
	.size	__pfx_orphan, .-__pfx_orphan
