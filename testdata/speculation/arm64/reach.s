// unreachable on arm64.
	.text
	.globl	dead
	.type	dead, %function
dead:	ret
	mov	x0, #1
	ret
	.size	dead, .-dead
	.globl	barrier_after_ret
	.type	barrier_after_ret, %function
barrier_after_ret:
	ret
	dsb	sy
	isb
	.size	barrier_after_ret, .-barrier_after_ret
	.globl	entered
	.type	entered, %function
entered:
	ret
1:	mov	x0, #2
	ret
	.size	entered, .-entered
	.globl	caller
	.type	caller, %function
caller:	b	1b
	.size	caller, .-caller
