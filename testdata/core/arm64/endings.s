// Every way a path may end without a return: all clean.
	.arch	armv8.3-a
	.text
	.globl	ends_brk
	.type	ends_brk, %function
ends_brk:
	cbnz	w0, 1f
	ret
1:	brk	#0x800
	.size	ends_brk, .-ends_brk

	.globl	ends_udf
	.type	ends_udf, %function
ends_udf:
	udf	#0
	.size	ends_udf, .-ends_udf

	.globl	tail_call
	.type	tail_call, %function
tail_call:
	add	w0, w0, #1
	b	work			// tail call to an external function
	.size	tail_call, .-tail_call

	.globl	tail_local
	.type	tail_local, %function
tail_local:
	b	ends_brk		// tail call inside the object
	.size	tail_local, .-tail_local

	.globl	indirect
	.type	indirect, %function
indirect:
	br	x16
	.size	indirect, .-indirect

	.globl	signed_return
	.type	signed_return, %function
signed_return:
	paciasp
	retaa
	.size	signed_return, .-signed_return

	.globl	listed_noreturn
	.type	listed_noreturn, %function
listed_noreturn:
	stp	x29, x30, [sp, #-16]!
	bl	__stack_chk_fail	// on rules/noreturn.toml
	.size	listed_noreturn, .-listed_noreturn

	.globl	exception_return
	.type	exception_return, %function
exception_return:
	eret
	.size	exception_return, .-exception_return

	.globl	loop
	.type	loop, %function
loop:
	wfe
	b	loop
	.size	loop, .-loop
