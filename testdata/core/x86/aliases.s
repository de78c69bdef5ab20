# Aliases share one function. A preamble name never stands for the function
# it aliases (regression: a global __pfx_ alias of a local function made
# the function exempt).
	.text
	.globl	__pfx_local_fn
	.type	__pfx_local_fn, @function
	.type	local_fn, @function
__pfx_local_fn:
local_fn:
	movl	$1, %eax		# no ret: reported as local_fn
	.size	local_fn, .-local_fn
	.size	__pfx_local_fn, .-__pfx_local_fn

# A weak and a global name for one function: the global one is shown.
	.weak	weak_name
	.type	weak_name, @function
	.globl	strong_name
	.type	strong_name, @function
weak_name:
strong_name:
	xorl	%eax, %eax		# no ret: reported as strong_name
	.size	weak_name, .-weak_name
	.size	strong_name, .-strong_name

	.globl	next
	.type	next, @function
next:
	ret
	.size	next, .-next
