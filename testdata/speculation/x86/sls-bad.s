# An SLS-hardened build without retpolines: returns and indirect jumps
# are followed by int3, except where marked.
	.text
	.globl	a
	.type	a, @function
a:	ret
	int3
	.size	a, .-a
	.globl	b
	.type	b, @function
b:	jmp	*%rax
	int3
	.size	b, .-b
	.globl	c
	.type	c, @function
c:	ret
	int3
	.size	c, .-c
	.globl	d
	.type	d, @function
d:	ret
	int3
	.size	d, .-d
# sls: no int3 after the return or the indirect jump.
	.globl	bad_ret
	.type	bad_ret, @function
bad_ret:
	ret
	.size	bad_ret, .-bad_ret
	.globl	bad_jump
	.type	bad_jump, @function
bad_jump:
	jmp	*%rcx
	.size	bad_jump, .-bad_jump
	.globl	e
	.type	e, @function
e:	ret
	int3
	.size	e, .-e
