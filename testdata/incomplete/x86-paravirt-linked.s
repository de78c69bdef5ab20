# A linked module (it has .gnu.linkonce.this_module) of a retpoline build
# (it calls through __x86_indirect_thunk_rax), with a paravirt call as Linux
# 6.1 makes one: PARAVIRT_CALL's `call *pv_ops+N(%rip)`, which the source
# annotates ANNOTATE_RETPOLINE_SAFE. The link dropped .discard.retpoline_safe;
# .parainstructions (struct paravirt_patch_site: `u8 *instr; u8 type; u8 len;`
# aligned to 8) still lists the site, so the call is judged safe, not left
# unjudged (tests/incomplete.rs; Debian's 6.1 modules have 2,901 such calls).
	.text
	.globl	pv_irq_save
	.type	pv_irq_save, @function
pv_irq_save:
	push	%rbx
	call	__x86_indirect_thunk_rax
771:	call	*pv_ops+8(%rip)
772:	pop	%rbx
	jmp	__x86_return_thunk
	.size	pv_irq_save, .-pv_irq_save

	.section .parainstructions, "a"
	.balign	8
	.quad	771b
	.byte	1
	.byte	772b-771b
	.short	0
	.balign	8

	.section .gnu.linkonce.this_module, "aw"
	.zero	64
