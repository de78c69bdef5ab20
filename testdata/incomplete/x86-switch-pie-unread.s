# A position-independent switch dispatch (`movslq (%rB,%rI,4),%rA; add
# %rB,%rA; jmp *%rA`) whose table address is loaded from memory, so no
# relocation names the table: its jump cannot be followed. It was taken
# for a tail call through a register, and with the frame restored nothing
# was said; now it is a switch table not read.
	.text
	.globl	loaded_table
	.type	loaded_table, @function
loaded_table:
	movq	8(%rdi), %rdx
	movl	%esi, %eax
	movslq	(%rdx,%rax,4), %rcx
	addq	%rdx, %rcx
	jmp	*%rcx
	.size	loaded_table, .-loaded_table
