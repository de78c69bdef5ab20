# analysis-incomplete, cause undecodable: a path reaches bytes that are not an
# instruction in 64-bit mode (0x06 was `push %es`). objtool stops with "can't
# decode instruction"; objlint ends the path and says what it did not check.
	.text
	.globl	decode_gap
	.type	decode_gap, @function
decode_gap:
	stac
	test	%edi, %edi
	je	1f
	.byte	0x06, 0x06
	call	helper		# with UACCESS open: unseen behind the bytes
1:	clac
	ret
	.size	decode_gap, .-decode_gap

# Clean: the same bytes where no path goes (after a return).
	.globl	data_after_ret
	.type	data_after_ret, @function
data_after_ret:
	ret
	.byte	0x06, 0x06
	.size	data_after_ret, .-data_after_ret
