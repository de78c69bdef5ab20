# Hand-written CFI directives: one function states its stack right, one
# forgets the push (cfi-mismatch must report it).
	.text
	.globl	cfi_ok
	.type	cfi_ok, @function
cfi_ok:
	.cfi_startproc
	push	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbx, -16
	call	cfi_leaf
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	cfi_ok, .-cfi_ok

	.globl	cfi_missing_push
	.type	cfi_missing_push, @function
cfi_missing_push:
	.cfi_startproc
	push	%rbx
	call	cfi_leaf
	pop	%rbx
	ret
	.cfi_endproc
	.size	cfi_missing_push, .-cfi_missing_push

	.globl	cfi_leaf
	.type	cfi_leaf, @function
cfi_leaf:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	cfi_leaf, .-cfi_leaf
