# analysis-incomplete, cause branch-target: a jump into the middle of an
# instruction. objtool stops with "can't find jump dest instruction"; objlint
# ends that edge and says what it did not follow (until 2026-12-04 the path
# ended without a word).
	.text
	.globl	mid_jump
	.type	mid_jump, @function
mid_jump:
	stac
	test	%edi, %edi
	je	1f+1		# lands on the 0xc3 inside the mov: a ret
	clac
1:	movl	$0xc3, %eax
	jmp	__x86_return_thunk
	.size	mid_jump, .-mid_jump

# Clean: retbleed_untrain_ret's shape (arch/x86/lib/retpoline.S). From the
# function's start the bytes are `test $0xcc,%bl; lfence; jmp` back into
# the test, where retbleed_return_thunk is the `ret; int3` inside it. A jump
# to a return thunk is a return, also inside another instruction (objtool's
# embedded_insn).
	.globl	retbleed_untrain_ret
	.type	retbleed_untrain_ret, @function
retbleed_untrain_ret:
	.byte	0xf6
	.globl	retbleed_return_thunk
retbleed_return_thunk:
	ret
	int3
	lfence
	jmp	retbleed_return_thunk
	int3
	.size	retbleed_untrain_ret, .-retbleed_untrain_ret
