# intra-function-call: objtool stops at the first unannotated one.
	.text
	.globl	intra
	.type	intra, @function
intra:
	call	1f
	int3
1:	add	$8, %rsp
	ret
	.size	intra, .-intra

	.globl	intra_annotated
	.type	intra_annotated, @function
intra_annotated:
	.pushsection .discard.intra_function_calls
	.long	2f - .
	.popsection
2:	call	3f
	int3
3:	add	$8, %rsp
	ret
	.size	intra_annotated, .-intra_annotated

