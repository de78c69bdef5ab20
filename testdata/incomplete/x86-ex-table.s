# analysis-incomplete, cause special-section: an __ex_table whose size is not
# a whole number of 12-byte entries. Its fixups cannot be followed, so the
# CLAC that only the fixup reaches is unseen; objlint says so.
	.text
	.globl	get_user_like
	.type	get_user_like, @function
get_user_like:
	stac
1:	movl	(%rdi), %eax
	clac
	ret
2:	clac
	movl	$-14, %eax
	ret
	.size	get_user_like, .-get_user_like

	.section __ex_table, "a"
	.balign 4
	.long	1b - .
	.long	2b - .
	.short	0		# 10 bytes: the entry's type field is cut short
