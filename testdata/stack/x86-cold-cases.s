# A computed goto whose table sends cases into the function's .cold part,
# as gcc builds Linux 6.1's ___bpf_prog_run (its default label is cold):
# the dispatch goes through a retpoline thunk, the table is C's
# `.rodata..c_jump_table`. The cases are the function's own code (objtool's
# pfunc), not a tail call, and the cold part is reached.
	.text
	.globl	dispatch
	.type	dispatch, @function
dispatch:
	push	%rbx
	movzbl	(%rdi), %eax
	mov	.Ltable(,%rax,8), %rax
	jmp	__x86_indirect_thunk_rax
.Lcase1:
	pop	%rbx
	ret
	.size	dispatch, .-dispatch

	.section .text.unlikely, "ax"
	.type	dispatch.cold, @function
dispatch.cold:
	xor	%eax, %eax
	pop	%rbx
	ret
	.size	dispatch.cold, .-dispatch.cold

	.section .rodata..c_jump_table, "a"
	.balign	8
.Ltable:
	.quad	dispatch.cold
	.quad	.Lcase1
	.quad	dispatch.cold
