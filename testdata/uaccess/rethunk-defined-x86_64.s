# A linked whole (vmlinux.o) defines the thunks its code jumps to. They are
# SYM_CODE (STT_NOTYPE) labels, not functions: a jump to __x86_return_thunk is
# still a return, and a call to __x86_indirect_thunk_rax an indirect call,
# though both resolve to a place in this object. Check with --link.
	.section .text..__x86.return_thunk,"ax"
	.globl	__x86_return_thunk
__x86_return_thunk:
	# ALTERNATIVE "ANNOTATE_UNRET_SAFE; ret", "jmp warn_thunk_thunk", X86_FEATURE_ALWAYS
	.pushsection .discard.retpoline_safe
	.long	661f - .
	.popsection
661:	ret
	.skip	4, 0x90
662:
	.pushsection .altinstructions,"a"
	.long	661b - .
	.long	6641f - .
	.long	117
	.byte	662b - 661b
	.byte	6642f - 6641f
	.popsection
	.pushsection .altinstr_replacement,"ax"
6641:	jmp	warn_thunk_thunk
6642:
	.popsection
	int3

	.globl	its_return_thunk
its_return_thunk:
	.pushsection .discard.retpoline_safe
	.long	1f - .
	.popsection
1:	ret
	int3

# One retpoline thunk per register, as retpoline.S's THUNK macro: each ends
# in `ret; int3` whatever the build, and is annotated so. They say nothing
# about whether the build is SLS-hardened (it is not: the bare returns and
# indirect jumps of the code below have no int3).
	.macro	THUNK reg
	.globl	__x86_indirect_thunk_\reg
__x86_indirect_thunk_\reg:
	.pushsection .discard.intra_function_calls
	.long	4f - .
	.popsection
4:	call	1f
2:	pause
	lfence
	jmp	2b
1:	mov	%\reg, (%rsp)
	.pushsection .discard.retpoline_safe
	.long	3f - .
	.popsection
3:	ret
	int3
	.endm

	.text
	.globl	__x86_indirect_thunk_array
__x86_indirect_thunk_array:
	THUNK	rax
	THUNK	rcx
	THUNK	rdx

# Leaves noinstr only by returning.
	.section .noinstr.text,"ax"
	.globl	noinstr_ret
	.type	noinstr_ret, @function
noinstr_ret:
	xor	%eax, %eax
	jmp	__x86_return_thunk
	.size	noinstr_ret, .-noinstr_ret

	.globl	noinstr_its
	.type	noinstr_its, @function
noinstr_its:
	jmp	its_return_thunk
	.size	noinstr_its, .-noinstr_its

	.text
# Not on the uaccess-safe list (in 6.12): returns with user access open
# (uaccess-return at the jump, as objtool reports).
	.globl	__put_user_1
	.type	__put_user_1, @function
__put_user_1:
	stac
	movb	%al, (%rcx)
	xor	%ecx, %ecx
	jmp	__x86_return_thunk
	.size	__put_user_1, .-__put_user_1

# On the list: may return with access open.
	.globl	rep_movs_alternative
	.type	rep_movs_alternative, @function
rep_movs_alternative:
	movb	%al, (%rcx)
	jmp	__x86_return_thunk
	.size	rep_movs_alternative, .-rep_movs_alternative

# Retpoline and return-thunk build, told by these two.
	.globl	via_thunk
	.type	via_thunk, @function
via_thunk:
	push	%rbp
	mov	%rsp, %rbp
	call	__x86_indirect_thunk_rax
	pop	%rbp
	jmp	__x86_return_thunk
	.size	via_thunk, .-via_thunk

# retpoline: a bare indirect jump.
	.globl	bare_jump
	.type	bare_jump, @function
bare_jump:
	jmp	*%rax
	.size	bare_jump, .-bare_jump

# rethunk: a bare return.
	.globl	bare_ret
	.type	bare_ret, @function
bare_ret:
	ret
	.size	bare_ret, .-bare_ret
