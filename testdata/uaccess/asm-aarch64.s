// Hand-written arm64 cases: PAN toggled directly (no alternative).
	.arch armv8.1-a
	.text

// uaccess-call: an indirect call with PAN cleared.
	.globl pan_blr
	.type pan_blr, %function
pan_blr:
	msr pan, #0
	ldr w0, [x0]
	blr x1
	msr pan, #1
	ret
	.size pan_blr, .-pan_blr

// uaccess-return: PAN is still cleared at the return.
	.globl pan_open_return
	.type pan_open_return, %function
pan_open_return:
	msr pan, #0
	ldr w0, [x0]
	ret
	.size pan_open_return, .-pan_open_return

// Clean: PAN is set again on both paths before the call and the return.
	.globl pan_ok
	.type pan_ok, %function
pan_ok:
	msr pan, #0
	ldr w0, [x0]
	cbz w0, 1f
	msr pan, #1
	b helper
1:	msr pan, #1
	ret
	.size pan_ok, .-pan_ok

// uaccess-call: a tail call (b) with PAN cleared.
	.globl pan_tail
	.type pan_tail, %function
pan_tail:
	msr pan, #0
	ldr w0, [x0]
	b helper
	.size pan_tail, .-pan_tail
