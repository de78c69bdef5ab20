// A switch whose table address is set once before its loop, where a case
// body follows `bl __stack_chk_fail` (reduced from gcc 12's parse_options
// in Linux 6.1's jfs.ko). Looking back from the dispatch for where x23 was
// set, the path through the call that never returns led to the entry
// before the `adrp`/`add`: the table was not read (analysis-incomplete) and
// the cases went unwalked. Calls the rules list as noreturn end that path;
// the table is read and every case walked. Built twice: as is, clean; with
// FAULT, case 2 reloads x19 and x20 from their save slots before going
// round the loop, a stack-mismatch that only a walk of the case can find.
	.text
	.globl	parse_options
	.type	parse_options, %function
	.p2align 2
parse_options:
	paciasp
	sub	sp, sp, #0xb0
	stp	x29, x30, [sp, #80]
	add	x29, sp, #0x50
	stp	x23, x24, [sp, #128]
	mov	x24, x1
	mrs	x1, sp_el0
	ldr	x2, [x1, #1360]
	str	x2, [sp, #72]
	cbz	x0, .Lout
	adrp	x23, .Ltable
	add	x23, x23, :lo12:.Ltable
	stp	x19, x20, [sp, #96]
.Lloop:
	add	x0, sp, #0x8
	bl	strsep
	mov	x19, x0
	cbz	x0, .Ldone
	bl	match_token
	cmp	w0, #0x2
	b.ls	.Ldispatch
	bl	_printk
	b	.Lloop
.Ldispatch:
	ldrh	w0, [x23, w0, uxtw #1]
	adr	x1, .Lbase
	add	x0, x1, w0, sxth #2
	br	x0
.Lbase:
.Lcase0:
	ldr	w0, [x24]
	orr	w0, w0, #0x1
	str	w0, [x24]
	b	.Lloop
.Lcase1:
	ldr	w0, [x24]
	and	w0, w0, #0xfffffffe
	str	w0, [x24]
	b	.Lloop
.Ldone:
	ldp	x19, x20, [sp, #96]
.Lout:
	mov	w0, #0x1
	mrs	x1, sp_el0
	ldr	x3, [sp, #72]
	ldr	x2, [x1, #1360]
	subs	x3, x3, x2
	mov	x2, #0x0
	b.ne	.Lfail
	ldp	x29, x30, [sp, #80]
	ldp	x23, x24, [sp, #128]
	add	sp, sp, #0xb0
	autiasp
	ret
.Lfail:
	stp	x19, x20, [sp, #96]
	bl	__stack_chk_fail
.Lcase2:
.ifdef FAULT
	ldp	x19, x20, [sp, #96]
.endif
	bl	_printk
	b	.Lloop
	.size	parse_options, .-parse_options

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lcase0 - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
