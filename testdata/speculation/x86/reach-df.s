# direction-flag cases.
	.text
	.globl	df_call
	.type	df_call, @function
df_call:
	std
	call	helper
	cld
	ret
	.size	df_call, .-df_call

	.globl	df_return
	.type	df_return, @function
df_return:
	std
	ret
	.size	df_return, .-df_return

	.globl	df_ok
	.type	df_ok, @function
df_ok:
	std
	rep movsb
	cld
	ret
	.size	df_ok, .-df_ok

	.globl	redundant_cld
	.type	redundant_cld, @function
redundant_cld:
	cld
	ret
	.size	redundant_cld, .-redundant_cld

	.globl	helper
	.type	helper, @function
helper:
	ret
	.size	helper, .-helper
