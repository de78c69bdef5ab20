# A function symbol nested inside another: findings past the inner one's end
# belong to the outer function (regression: they were placed at .text+0xoff).
	.text
	.globl	outer
	.type	outer, @function
outer:
	testl	%edi, %edi
	je	1f
	.globl	inner
	.type	inner, @function
inner:
	movl	$1, %eax		# inner ends here: reported
	.size	inner, .-inner
1:	addl	$2, %eax		# no ret: outer is reported at outer+0xb
	.size	outer, .-outer

	.globl	after
	.type	after, @function
after:
	ret
	.size	after, .-after
