// A switch whose bounds check jumps over a call to a local function that
// is only `brk #0x800` (gcc 16's `__offset_PIPE.part.0`, a BUG() split off
// and not declared noreturn; msm.ko's write_smp_fifo_regs, Linux 7.2), the
// table's address in a caller-saved register set at the entry. Looking back
// from the dispatch through that call made the table unreadable.
// Built twice: as is, clean; with FAULT, case 2 reloads x19 and x20 before
// the common exit, a stack-mismatch that only a walk of the case finds.
	.text
	.type	bug_here, %function
	.p2align 2
bug_here:
	brk	#0x800
	.size	bug_here, .-bug_here

	.globl	trap_callee
	.type	trap_callee, %function
	.p2align 2
trap_callee:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	adrp	x10, .Ltable
	add	x10, x10, :lo12:.Ltable
	cmp	w0, #0x2
	b.ls	.Ldispatch
	bl	bug_here
.Ldispatch:
	ldrh	w1, [x10, w0, uxtw #1]
	adr	x2, .Lbase
	add	x1, x2, w1, sxth #2
	br	x1
.Lbase:
.Lcase0:
	mov	w0, #0x1
	b	.Lout
.Lcase1:
	mov	w0, #0x2
	b	.Lout
.Lcase2:
.ifdef FAULT
	ldp	x19, x20, [sp, #16]
.endif
	mov	w0, #0x3
.Lout:
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	trap_callee, .-trap_callee

	.section .rodata
	.p2align 1
.Ltable:
	.hword	(.Lcase0 - .Lbase) >> 2
	.hword	(.Lcase1 - .Lbase) >> 2
	.hword	(.Lcase2 - .Lbase) >> 2
