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

// Clean on arm64: a uaccess-safe function is not entered with PAN cleared
// (arm64 clears PAN only around inline-asm sequences that call nothing, and
// its user_access_save() is a no-op), so calling out needs no close first.
// The same on x86 is reported (asm-x86_64.s: rep_movs_alternative).
	.globl __stack_chk_fail
	.type __stack_chk_fail, %function
__stack_chk_fail:
	mov x1, x30
	bl helper
	brk #0x800
	.size __stack_chk_fail, .-__stack_chk_fail

// Clean: state resets (rules/uaccess_safe.toml) set PAN after boot, firmware
// entry or resume, whatever it was: cpufeature.c cpu_enable_pan(), noinstr
// entry-common.c __sdei_handler() as clang-19 builds them, and suspend.c
// __cpu_suspend_exit(), each in the section the kernel puts it in.
	.globl cpu_enable_pan
	.type cpu_enable_pan, %function
cpu_enable_pan:
	msr pan, #1
	ret
	.size cpu_enable_pan, .-cpu_enable_pan

	.globl __cpu_suspend_exit
	.type __cpu_suspend_exit, %function
__cpu_suspend_exit:
	msr pan, #1
	ret
	.size __cpu_suspend_exit, .-__cpu_suspend_exit

	.section .noinstr.text, "ax", %progbits
	.globl __sdei_handler
	.type __sdei_handler, %function
__sdei_handler:
	tbz w0, #0, 1f
	msr pan, #1
	b 2f
1:	msr pan, #0
2:	bl sdei_noinstr_helper
	ret
	.size __sdei_handler, .-__sdei_handler

	.type sdei_noinstr_helper, %function
sdei_noinstr_helper:
	ret
	.size sdei_noinstr_helper, .-sdei_noinstr_helper
	.text

// uaccess-redundant: the same first instruction anywhere else.
	.globl pan_close_at_entry
	.type pan_close_at_entry, %function
pan_close_at_entry:
	msr pan, #1
	ret
	.size pan_close_at_entry, .-pan_close_at_entry
