// Code in a section the assembler was not told is executable: Linux 6.12's
// arm64 head.S, cpu-reset.S, sleep.S and mm/proc.S put their identity-mapped
// code in `.section ".idmap.text", "a"` (6.1: "awx"). rules/special.toml
// `code_sections` says it is code; before, none of it was decoded and no
// rule looked at it. idmap_fault returns without restoring its frame
// record (stack-modified-return); idmap_clean is the clean form.
	.section ".idmap.text", "a"
	.globl	idmap_clean
	.type	idmap_clean, %function
idmap_clean:
	bti	c
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	helper
	ldp	x29, x30, [sp], #16
	ret
	.size	idmap_clean, .-idmap_clean

	.globl	idmap_fault
	.type	idmap_fault, %function
idmap_fault:
	bti	c
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	helper
	ret
	.size	idmap_fault, .-idmap_fault
