// analysis-incomplete, cause patchable-unnamed: an entry of
// __patchable_function_entries (CALL_OPS layout, -fpatchable-function-entry=4,2)
// at code no symbol names, as in shipped modules whose local symbols are gone.
// Its NOPs are checked; that it begins a function cannot be.
	.text
	.p2align 3
.La_entry:
	nop
	nop
	.globl	a
	.type	a, %function
a:
	nop
	nop
	ret
	.size	a, .-a
	mov	x0, x1
	mov	x0, x1
	mov	x0, x1
	.p2align 3
.Lanon_entry:
	nop
	nop
	nop
	nop
	ret
	.p2align 3
.Lb_entry:
	nop
	nop
	.globl	b
	.type	b, %function
b:
	nop
	nop
	ret
	.size	b, .-b

	.section __patchable_function_entries, "awo", %progbits, .text
	.p2align 3
	.xword	.La_entry
	.xword	.Lanon_entry
	.xword	.Lb_entry
