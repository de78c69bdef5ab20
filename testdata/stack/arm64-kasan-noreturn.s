// A call through a pointer whose type is noreturn, in a KASAN build: the
// compiler calls __asan_handle_no_return() right before it (as gcc did
// before Linux 6.12 arm64 hibernate.c's `hibernate_exit(...)`) and may
// place another path's code right after it. Read as returning, the call
// fell into that code with x21 saved where the other path has it unsaved:
// "stack state mismatch". rules/noreturn.toml `markers` ends the path at
// the call. Assembled with `--defsym NOMARKER=1`, nothing says the call
// does not return, and the mismatch is reported.
	.text
	.globl	resume
	.type	resume, %function
resume:
	bti	c
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	mov	x20, x0
	bl	prepare
	cbnz	w0, 2f
	str	x21, [sp, #32]		// saved on this path only
	mov	x21, x1
.ifndef NOMARKER
	bl	__asan_handle_no_return
.endif
	mov	x0, x21
	blr	x20			// hibernate_exit(): never returns
2:	mov	w19, #-12		// the error path, x21 not saved
	bl	report
	mov	w0, w19
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #48
	ret
	.size	resume, .-resume
