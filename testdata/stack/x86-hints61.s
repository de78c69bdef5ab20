# Unwind hints as Linux 6.1 writes them (struct unwind_hint: `u32 ip; s16
# sp_offset; u8 sp_reg; u8 type; u8 end;`, types CALL 0, REGS 1,
# REGS_PARTIAL 2, FUNC 3, ENTRY 4, SAVE 5, RESTORE 6): 6.4 renumbered the
# types and made `end` `signal`. The ORC objtool 6.1 writes for this object
# (x86-hints61.orc61.o) is the expected table (tests/stack.rs).
.macro UNWIND_HINT sp_reg=5 sp_offset=0 type=0 end=0
.Lhint_\@:
	.pushsection .discard.unwind_hints
	.long .Lhint_\@ - .
	.short \sp_offset
	.byte \sp_reg
	.byte \type
	.byte \end
	.balign 4
	.popsection
.endm

	.text
# Entry code as 6.1's entry_64.S has it: the stack's end, then a register
# frame, then the partial frame an interrupt pushes.
	.globl	entry_like
entry_like:
	UNWIND_HINT sp_reg=0 type=0 end=1
	nop
	UNWIND_HINT sp_reg=5 sp_offset=0 type=1
	push	%rbx
	pop	%rbx
	UNWIND_HINT sp_reg=5 sp_offset=8 type=2
	nop
	UNWIND_HINT sp_reg=0 type=4 end=1
	ud2
	.size	entry_like, .-entry_like

# A function entered in the middle, as a trampoline is: UNWIND_HINT_FUNC.
	.globl	func_hinted
	.type	func_hinted, @function
func_hinted:
	push	%rbp
	call	other
	pop	%rbp
	ret
	.globl	func_tail
func_tail:
	UNWIND_HINT sp_reg=5 sp_offset=8 type=3
	push	%rbx
	pop	%rbx
	ret
	.size	func_hinted, .-func_hinted

	.type	other, @function
other:
	ret
	.size	other, .-other
