# Whether an object is a frame-pointer build is read from it when nothing
# says (rules/stack.toml): here 19 of 20 calling functions set up a frame
# record (0.95) and one calls before it. objlint once wanted 32 calling
# functions for a verdict and said nothing; objtool --stackval reports the
# call (x86-fp-detect.stackval.objtool.txt). As in a kernel built with
# UNWINDER_FRAME_POINTER, leaf functions have no frame.
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

	.globl	leaf
	.type	leaf, @function
leaf:
	mov	%rdi, %rax
	ret
	.size	leaf, .-leaf

	.globl	call_before_frame
	.type	call_before_frame, @function
call_before_frame:
	call	ext
	push	%rbp
	mov	%rsp, %rbp
	pop	%rbp
	ret
	.size	call_before_frame, .-call_before_frame
