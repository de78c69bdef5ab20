# analysis-incomplete, cause branch-target, for calls: a call to a place
# that is no instruction and that no symbol names cannot be followed. Into
# its own function it is also an unannotated intra-function call (objtool
# says that much, and stops); into another function it was taken for a call
# that returns, without a word. A call to a symbol that starts inside
# another instruction (Linux's srso_safe_ret, the tail of srso_untrain_ret's
# `movabs`) is a call to that symbol, as objtool has it: nothing to say.
	.text
	.globl	own_mid
	.type	own_mid, @function
own_mid:
	pushq	%rbx
	call	1f + 1			# into its own `movl`
	popq	%rbx
	ret
1:	movl	$1, %eax
	ret
	.size	own_mid, .-own_mid

	.globl	other_mid
	.type	other_mid, @function
other_mid:
	call	target + 2		# into target's `movl`
	ret
	.size	other_mid, .-other_mid

	.type	target, @function
target:
	movl	$2, %eax
	ret
	.size	target, .-target

	.globl	srso_untrain_ret
	.type	srso_untrain_ret, @function
srso_untrain_ret:
	.byte	0x48, 0xb8		# movabs $..., %rax: its immediate is srso_safe_ret
	.globl	srso_safe_ret
srso_safe_ret:
	lea	8(%rsp), %rsp
	ret
	int3
	int3
	lfence
	call	srso_safe_ret
	ud2
	.size	srso_safe_ret, .-srso_safe_ret
	.size	srso_untrain_ret, .-srso_untrain_ret
