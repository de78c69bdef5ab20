# objtool's embedded_insn: the SRSO untraining sequence (arch/x86/lib/
# retpoline.S) calls a return hidden in the immediate of its own movabs.
# That call needs no frame: objtool --stackval says nothing, and neither
# may objlint's frame-pointer rule (it once said "call without frame
# pointer save/setup" at srso_untrain_ret+0xd, on the kbuild
# frame-pointer corpus). The verdict: x86-embedded-call.stackval.objtool.txt.
	.text
	.type	srso_untrain_ret, @function
srso_untrain_ret:
	.byte	0x48, 0xb8
	.globl	srso_safe_ret
srso_safe_ret:
	lea	8(%rsp), %rsp
	ret
	int3
	int3
	lfence
	call	srso_safe_ret
	ud2
	.size	srso_untrain_ret, .-srso_untrain_ret

# A frame-pointer function as the compiler makes them, for the detection.
	.globl	framed
	.type	framed, @function
framed:
	push	%rbp
	mov	%rsp, %rbp
	call	ext
	pop	%rbp
	ret
	.size	framed, .-framed
