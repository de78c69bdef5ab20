# An unwind hint whose frame address the stack model does not follow:
# UNWIND_HINT_REGS based on ORC_REG_BP_INDIRECT (8 in Linux 6.4-6.12's
# numbering; objtool refuses it, "unsupported unwind_hint sp base reg").
# Before, the hint was dropped without a word and the walk went on with the
# state before it (here a false "return with modified stack frame"); now the
# place is an analysis-incomplete `unwind-hint` and nothing after it is
# judged. (8 is 7.x's PREV_SP, unsupported as well.) objtool 6.12's
# verdict is in x86-hint-unfollowed.objtool.txt.
.macro UNWIND_HINT sp_reg=5 sp_offset=0 type=2 signal=0
.Lhint_\@:
	.pushsection .discard.unwind_hints
	.long .Lhint_\@ - .
	.short \sp_offset
	.byte \sp_reg
	.byte \type
	.byte \signal
	.balign 4
	.popsection
.endm

	.text
	.globl	indirect_frame
	.type	indirect_frame, @function
indirect_frame:
	push	%rbp
	mov	%rsp, %rbp
	UNWIND_HINT sp_reg=8 sp_offset=16 type=3 signal=1
	nop
	ret
	.size	indirect_frame, .-indirect_frame
