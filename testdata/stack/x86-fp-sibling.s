# Frame-pointer builds are compiled with -fno-optimize-sibling-calls
# (rules/stack.toml): a function that jumps on to another without ever
# setting up a frame record says the object is no frame-pointer build,
# however many of its calling functions keep frames. Built twice: with
# SIBLING, `tail_caller` (as gcc makes in an ORC build) and nothing is
# reported, although 19 of 19 calling functions are framed; without it, only
# a static_call trampoline jumps on (.static_call.text, a trampoline by
# design), the object is a frame-pointer build, and `scratch`, which keeps a
# value in %rbp, is objtool's "BP used as a scratch register"
# (x86-fp-trampoline.stackval.objtool.txt).
	.text
	.irp	n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
	.globl	framed\n
	.type	framed\n, @function
framed\n:
	push	%rbp
	mov	%rsp, %rbp
	call	ext
	pop	%rbp
	ret
	.size	framed\n, .-framed\n
	.endr

	.globl	scratch
	.type	scratch, @function
scratch:
	push	%rbp
	mov	%rdi, %rbp
	lea	1(%rbp), %rax
	pop	%rbp
	ret
	.size	scratch, .-scratch

.ifdef SIBLING
	.globl	tail_caller
	.type	tail_caller, @function
tail_caller:
	mov	%rsi, %rdi
	jmp	framed1
	.size	tail_caller, .-tail_caller
.endif

	.section .static_call.text, "ax"
	.globl	__SCT__tp_func_example
	.type	__SCT__tp_func_example, @function
__SCT__tp_func_example:
	jmp	framed2
	.byte	0x0f, 0xb9, 0xcc
	.size	__SCT__tp_func_example, .-__SCT__tp_func_example
