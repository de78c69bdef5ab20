# analysis-incomplete, cause unwalked-label: a computed goto whose table the
# walk cannot find (its address comes from a pointer in .data, not from a
# relocation near the jump), so the jump is taken for a tail call, as
# objtool takes it. With IBT each label has an ENDBR, which `unreachable`
# takes for entry code: without this cause nothing would be said, and the
# call with UACCESS open behind the first label would go unseen.
	.text
	.globl	goto_hidden
	.type	goto_hidden, @function
goto_hidden:
	endbr64
	movq	table_ptr(%rip), %rdx
	movzbl	(%rdi), %eax
	jmp	*(%rdx,%rax,8)
.Lop_a:
	endbr64
	stac
	call	helper
	clac
	ret
.Lop_b:
	endbr64
	ret
	.size	goto_hidden, .-goto_hidden

# Clean: the same with the table read where the jump is.
	.globl	goto_visible
	.type	goto_visible, @function
goto_visible:
	endbr64
	movzbl	(%rdi), %eax
	jmp	*visible_table(,%rax,8)
.Lop_c:
	endbr64
	ret
.Lop_d:
	endbr64
	ret
	.size	goto_visible, .-goto_visible

	.section .rodata
hidden_table:
	.quad	.Lop_a, .Lop_b
visible_table:
	.quad	.Lop_c, .Lop_d

	.data
table_ptr:
	.quad	hidden_table
