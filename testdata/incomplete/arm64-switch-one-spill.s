// A switch whose table address is spilled once (`str`) and reloaded at the
// dispatch, with a case placed after a call to a local function that never
// returns but is not declared so (only inference knows, and inference needs
// the switch tables first), in a loop. The path back from the reload runs
// round the loop, through that call and into the entry without passing the
// spill, so the spills reaching the
// reload cannot be told; the function's one store to the slot is taken then
// (msm.ko's mdp5_hwpipe_mode_set, Linux 6.12, read so before and unread for
// a moment after the search along paths came in). Built twice: as is, clean;
// with FAULT, case 2 reloads x19 and x20 before going round the loop, a
// stack-mismatch that only a walk of the case finds.
	.text
	.type	die_here, %function
	.p2align 2
die_here:
	b	die_here
	.size	die_here, .-die_here

	.globl	one_spill
	.type	one_spill, %function
	.p2align 2
one_spill:
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	cbz	x1, .Lbad
	adrp	x0, .Ltable
	add	x0, x0, :lo12:.Ltable
	str	x0, [sp, #32]
.Lloop:
	bl	next_token
	cmp	w0, #0x2
	b.hi	.Lout
	ldr	x2, [sp, #32]
	ldrh	w1, [x2, w0, uxtw #1]
	adr	x2, .Lbase
	add	x1, x2, w1, sxth #2
	br	x1
.Lbase:
.Lcase0:
	mov	w0, #0x1
	b	.Lloop
.Lcase1:
	mov	w0, #0x2
	b	.Lloop
.Lbad:
	bl	die_here
.Lcase2:
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	mov	w0, #0x3
	b	.Lloop
.Lout:
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #48
	ret
	.size	one_spill, .-one_spill

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lcase0 - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
