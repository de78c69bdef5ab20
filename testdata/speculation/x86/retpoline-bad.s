# A retpoline + return-thunk build (it calls through a thunk and returns
# through __x86_return_thunk), with what such a build must not contain.
	.text
	.globl	good
	.type	good, @function
good:
	call	__x86_indirect_thunk_rax
	jmp	__x86_return_thunk
	.size	good, .-good

# retpoline: a bare indirect call and a bare indirect tail call.
	.globl	bad_call
	.type	bad_call, @function
bad_call:
	call	*%rax
	jmp	__x86_return_thunk
	.size	bad_call, .-bad_call

	.globl	bad_jump
	.type	bad_jump, @function
bad_jump:
	jmp	*%rdx
	int3
	.size	bad_jump, .-bad_jump

# rethunk: a bare return.
	.globl	bad_ret
	.type	bad_ret, @function
bad_ret:
	xor	%eax, %eax
	ret
	int3
	.size	bad_ret, .-bad_ret

# ANNOTATE_RETPOLINE_SAFE / ANNOTATE_UNRET_SAFE (6.12's list section).
	.globl	annotated
	.type	annotated, @function
annotated:
	.pushsection .discard.retpoline_safe
	.long	1f - .
	.popsection
1:	call	*%rcx
	.pushsection .discard.retpoline_safe
	.long	2f - .
	.popsection
2:	ret
	int3
	.size	annotated, .-annotated

# Newer kernels' typed annotation (ANNOTYPE_RETPOLINE_SAFE = 2).
	.globl	annotated_typed
	.type	annotated_typed, @function
annotated_typed:
	.pushsection .discard.annotate_insn, "M", @progbits, 8
	.long	1f - .
	.long	2
	.popsection
1:	jmp	*%rsi
	int3
	.size	annotated_typed, .-annotated_typed

# A paravirt call: the kernel patches it into a direct call
# (ALTERNATIVE with ALT_CALL_ALWAYS = ALT_FLAG_DIRECT_CALL << 16 | X86_FEATURE_ALWAYS).
	.globl	pv_call
	.type	pv_call, @function
pv_call:
661:	call	*pv_ops+8(%rip)
662:
	.pushsection .altinstructions, "a"
	.long	661b - .
	.long	671f - .
	.4byte	(2 << 16) | (3 * 32 + 21)
	.byte	662b - 661b
	.byte	672f - 671f
	.popsection
	.pushsection .altinstr_replacement, "ax"
671:	call	BUG_func
672:
	.popsection
	jmp	__x86_return_thunk
	.size	pv_call, .-pv_call

# CALL_NOSPEC: the kernel picks the thunk or the plain form at boot.
	.globl	nospec
	.type	nospec, @function
nospec:
663:	call	*%r11
	nop
	nop
	nop
664:
	.pushsection .altinstructions, "a"
	.long	663b - .
	.long	673f - .
	.4byte	(7 * 32 + 12)
	.byte	664b - 663b
	.byte	674f - 673f
	.popsection
	.pushsection .altinstr_replacement, "ax"
673:	call	__x86_indirect_thunk_r11
674:
	.popsection
	jmp	__x86_return_thunk
	.size	nospec, .-nospec

# Code that runs only at boot needs no retpoline (outside modules).
	.section .init.text, "ax", @progbits
	.globl	boot_only
	.type	boot_only, @function
boot_only:
	call	*%rax
	ret
	int3
	.size	boot_only, .-boot_only
