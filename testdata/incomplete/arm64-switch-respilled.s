// A switch in a loop whose table address, set once before the loop in a
// caller-saved register, is spilled and reloaded around calls on the ways
// back to the loop's head (gcc 16; xe.ko's rule_match_and, Linux 7.2):
// `stp x4, x10` / `ldp x4, x10` around a WARN (`bl`, then `brk #0x800`
// that __bug_table says execution resumes after), and `stp x10, x4` /
// `ldr x10` in a case, so x10 is reloaded from two slots, each of which
// holds x4 on the other path. Built twice: as is, clean; with FAULT, case 2
// reloads x19 and x20 before going round the loop, a stack-mismatch that
// only a walk of the case finds.
	.text
	.globl	respilled
	.type	respilled, %function
	.p2align 2
respilled:
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	mov	x4, x0
	adrp	x10, .Ltable
	add	x10, x10, :lo12:.Ltable
.Lloop:
	ldrb	w2, [x4], #1
	cbz	w2, .Lout
	cmp	w2, #0x2
	b.ls	.Ldispatch
	stp	x4, x10, [sp, #32]
	bl	__warn_printk
.Lwarn:
	brk	#0x800
	ldp	x4, x10, [sp, #32]
	b	.Lloop
.Ldispatch:
	ldrh	w1, [x10, w2, uxtw #1]
	adr	x3, .Lbase
	add	x1, x3, w1, sxth #2
	br	x1
.Lbase:
.Lcase0:
	b	.Lloop
.Lcase1:
	stp	x10, x4, [sp, #32]
	mov	w0, w2
	bl	other_here
	ldr	x10, [sp, #32]
	ldr	x4, [sp, #40]
	b	.Lloop
.Lcase2:
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	b	.Lloop
.Lout:
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #48
	ret
	.size	respilled, .-respilled

	.section __bug_table, "aw"
	.p2align 2
	.long	.Lwarn - .
	.short	1			// BUGFLAG_WARNING
	.short	0

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lcase0 - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
