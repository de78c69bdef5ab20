# A call to a function symbol no instruction starts at (a zero-size
# symbol at the end of its section, which objtool refuses: "STT_FUNC at end
# of section"): objlint's frame-pointer rule does not count such a call, as
# it does not count a call to a label inside an instruction
# (x86-embedded-call.s). The function's flags byte says so
# (src/model/thunks.rs function_flags; model::functions tests).
	.text
	.globl	caller
	.type	caller, @function
caller:
	call	past_end
	push	%rbp
	mov	%rsp, %rbp
	call	other
	pop	%rbp
	ret
	.size	caller, .-caller
	.globl	other
	.type	other, @function
other:
	push	%rbp
	mov	%rsp, %rbp
	pop	%rbp
	ret
	.size	other, .-other
	.globl	past_end
	.type	past_end, @function
past_end:
	.size	past_end, 0
