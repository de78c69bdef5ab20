# The x86 no_pad_target: a static_call trampoline in .static_call.text,
# referenced from data in an IBT object: exempt. The same prefix in .text,
# and an arm64 exemption's name (vectors) on x86, are reported.
	.section .note.gnu.property,"a"
	.p2align 3
	.long 4, 16, 5
	.asciz "GNU"
	.long 0xc0000002, 4, 3		# X86_FEATURE_1_AND: IBT | SHSTK
	.p2align 3

	.section .static_call.text,"ax"
	.globl __SCT__tp_func_foo
	.type __SCT__tp_func_foo,@function
__SCT__tp_func_foo:
	jmp	__x86_return_thunk
	int3
	.size __SCT__tp_func_foo, . - __SCT__tp_func_foo

	.text
	.globl __SCT__misplaced
	.type __SCT__misplaced,@function
__SCT__misplaced:
	ret
	.size __SCT__misplaced, . - __SCT__misplaced
	.globl vectors
	.type vectors,@function
vectors:
	ret
	.size vectors, . - vectors

	.section .data
	.quad	__SCT__tp_func_foo
	.quad	__SCT__misplaced
	.quad	vectors
