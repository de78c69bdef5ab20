# rustc 1.95 -O --crate-type=lib --emit=asm output of
# x86-switch-pie-scheduled.rs (kept beside it): one switch table, dispatched
# twice, `movslq (%r14,%rcx,4),%rdx; add %r14,%rdx; movb $2,%cl; jmpq *%rdx`
# at the loop's second dispatch: a `mov` scheduled between the `add` and the
# `jmp`, and the table register set at the first dispatch. The second jump
# was taken for a sibling call with a modified frame (32 of them in this
# build's own crates, criterion, regex, serde_json, toml among them). Built
# twice: as is, clean; with FAULT, a word pushed before the second dispatch,
# a stack-mismatch only a walk of its cases finds.
	.file	"t.8f48088d52e946eb-cgu.0"
	.section	.text._ZN1t5kinds17h5312d1d0eb81a03aE,"ax",@progbits
	.globl	_ZN1t5kinds17h5312d1d0eb81a03aE
	.p2align	4
	.type	_ZN1t5kinds17h5312d1d0eb81a03aE,@function
_ZN1t5kinds17h5312d1d0eb81a03aE:
.Lfunc_begin0:
	.cfi_startproc
	.cfi_personality 155, DW.ref.rust_eh_personality
	.cfi_lsda 27, .Lexception0
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$24, %rsp
	.cfi_def_cfa_offset 80
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movq	%rdx, %rbx
	testq	%rdx, %rdx
	je	.LBB0_1
	movq	%rsi, %r12
	movq	%rdi, (%rsp)
	callq	*_RNvCsfLfy6EI15iL_7___rustc35___rust_no_alloc_shim_is_unstable_v2@GOTPCREL(%rip)
	movl	$1, %esi
	movq	%rbx, %rdi
	callq	*_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc@GOTPCREL(%rip)
	testq	%rax, %rax
	je	.LBB0_4
	movq	%rax, %r15
	movabsq	$-9223372036854775808, %r13
	xorl	%ebp, %ebp
	movq	(%r12,%rbp,8), %rax
	movq	(%rax), %rax
	movq	(%rax), %rcx
	movq	%rcx, %rdx
	xorq	%r13, %rdx
	testq	%rcx, %rcx
	movl	$3, %esi
	cmovsq	%rdx, %rsi
	movb	$2, %cl
	leaq	.LJTI0_0(%rip), %r14
	movslq	(%r14,%rsi,4), %rdx
	addq	%r14, %rdx
	jmpq	*%rdx
.LBB0_1:
	movl	$1, %r15d
	jmp	.LBB0_15
.LBB0_4:
	movl	$1, %edi
	movq	%rbx, %rsi
	callq	*_RNvNtCslNYArtu3iFV_5alloc7raw_vec12handle_error@GOTPCREL(%rip)
	.p2align	4
.LBB0_13:
	movb	%cl, (%r15,%rbp)
	incq	%rbp
	cmpq	%rbp, %rbx
	je	.LBB0_14
	movq	(%r12,%rbp,8), %rax
	movq	(%rax), %rax
	movq	(%rax), %rdx
	movq	%rdx, %rcx
	xorq	%r13, %rcx
	testq	%rdx, %rdx
	js	.LBB0_7
	movl	$3, %ecx
.LBB0_7:
.ifdef FAULT
	pushq	%rax
.endif
	movslq	(%r14,%rcx,4), %rdx
	addq	%r14, %rdx
	movb	$2, %cl
	jmpq	*%rdx
.LBB0_8:
	xorl	%ecx, %ecx
	jmp	.LBB0_13
.LBB0_10:
	movq	8(%rax), %rsi
	movq	16(%rax), %rdx
.Ltmp0:
	leaq	8(%rsp), %rdi
	callq	*_RNvXs2_NtNtCsgEmfK2I1SDS_4core3num7dec2fltdNtNtNtB9_3str6traits7FromStr8from_str@GOTPCREL(%rip)
.Ltmp1:
	movzbl	8(%rsp), %ecx
	shlb	$2, %cl
	orb	$3, %cl
	jmp	.LBB0_13
.LBB0_12:
	movb	$4, %cl
	jmp	.LBB0_13
.LBB0_9:
	movb	$1, %cl
	jmp	.LBB0_13
.LBB0_14:
	movq	(%rsp), %rdi
.LBB0_15:
	movq	%rbx, (%rdi)
	movq	%r15, 8(%rdi)
	movq	%rbx, 16(%rdi)
	movq	%rdi, %rax
	addq	$24, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.LBB0_16:
	.cfi_def_cfa_offset 80
.Ltmp2:
	movq	%rax, %r14
	movl	$1, %edx
	movq	%r15, %rdi
	movq	%rbx, %rsi
	callq	*_RNvCsfLfy6EI15iL_7___rustc14___rust_dealloc@GOTPCREL(%rip)
	movq	%r14, %rdi
	callq	_Unwind_Resume@PLT
.Lfunc_end0:
	.size	_ZN1t5kinds17h5312d1d0eb81a03aE, .Lfunc_end0-_ZN1t5kinds17h5312d1d0eb81a03aE
	.cfi_endproc
	.section	.rodata._ZN1t5kinds17h5312d1d0eb81a03aE,"a",@progbits
	.p2align	2, 0x0
.LJTI0_0:
	.long	.LBB0_13-.LJTI0_0
	.long	.LBB0_8-.LJTI0_0
	.long	.LBB0_9-.LJTI0_0
	.long	.LBB0_10-.LJTI0_0
	.long	.LBB0_12-.LJTI0_0
	.section	.gcc_except_table._ZN1t5kinds17h5312d1d0eb81a03aE,"a",@progbits
	.p2align	2, 0x0
GCC_except_table0:
.Lexception0:
	.byte	255
	.byte	255
	.byte	1
	.uleb128 .Lcst_end0-.Lcst_begin0
.Lcst_begin0:
	.uleb128 .Lfunc_begin0-.Lfunc_begin0
	.uleb128 .Ltmp0-.Lfunc_begin0
	.byte	0
	.byte	0
	.uleb128 .Ltmp0-.Lfunc_begin0
	.uleb128 .Ltmp1-.Ltmp0
	.uleb128 .Ltmp2-.Lfunc_begin0
	.byte	0
	.uleb128 .Ltmp1-.Lfunc_begin0
	.uleb128 .Lfunc_end0-.Ltmp1
	.byte	0
	.byte	0
.Lcst_end0:
	.p2align	2, 0x0

	.hidden	DW.ref.rust_eh_personality
	.weak	DW.ref.rust_eh_personality
	.section	.data.DW.ref.rust_eh_personality,"awG",@progbits,DW.ref.rust_eh_personality,comdat
	.p2align	3, 0x0
	.type	DW.ref.rust_eh_personality,@object
	.size	DW.ref.rust_eh_personality, 8
DW.ref.rust_eh_personality:
	.quad	rust_eh_personality
	.ident	"rustc version 1.95.0 (59807616e 2026-04-14)"
	.section	".note.GNU-stack","",@progbits
