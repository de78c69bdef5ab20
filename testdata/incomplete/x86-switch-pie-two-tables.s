# Two switches in a loop, gcc 12 -O2 -fPIE -fcf-protection=none
# -fno-asynchronous-unwind-tables output of x86-switch-pie-two-tables.c (kept
# beside it): both tables' `leaq .Ltable(%rip)` hoisted to the entry, the
# second one nearer the first dispatch. The first table was looked for as
# the nearest table address before its jump, and the second table was read
# for it: the first switch's case 4 (`orl $17`) was then an unreachable
# instruction, and what it did was never walked (glibc's
# _dl_tunable_set_hwcaps and OpenSSL's DES_cfb_encrypt, gcc, read the same
# wrong way). Now a dispatch of this form reads the table its register was
# set to. Built twice: as is, clean; with FAULT, case 4 pushes a word, a
# stack-mismatch only a walk of that case finds.
	.file	"t.c"
	.text
	.p2align 4
	.globl	two_tables
	.type	two_tables, @function
two_tables:
	testl	%esi, %esi
	jle	.L21
	pushq	%r13
	movslq	%esi, %rsi
	xorl	%eax, %eax
	pushq	%r12
	leaq	(%rdi,%rsi), %r13
	leaq	.L5(%rip), %r12
	pushq	%rbp
	leaq	.L13(%rip), %rbp
	pushq	%rbx
	movq	%rdi, %rbx
	subq	$8, %rsp
	.p2align 4,,10
	.p2align 3
.L20:
	cmpb	$5, (%rbx)
	ja	.L3
	movzbl	(%rbx), %edx
	movslq	(%r12,%rdx,4), %rdx
	addq	%r12, %rdx
	jmp	*%rdx
	.section	.rodata
	.align 4
	.align 4
.L5:
	.long	.L10-.L5
	.long	.L9-.L5
	.long	.L8-.L5
	.long	.L7-.L5
	.long	.L6-.L5
	.long	.L4-.L5
	.text
	.p2align 4,,10
	.p2align 3
.L6:
.ifdef FAULT
	pushq	%rax
.endif
	orl	$17, %eax
	.p2align 4,,10
	.p2align 3
.L3:
	cmpb	$6, 1(%rbx)
	ja	.L11
	movzbl	1(%rbx), %edx
	movslq	0(%rbp,%rdx,4), %rdx
	addq	%rbp, %rdx
	jmp	*%rdx
	.section	.rodata
	.align 4
	.align 4
.L13:
	.long	.L19-.L13
	.long	.L18-.L13
	.long	.L17-.L13
	.long	.L16-.L13
	.long	.L15-.L13
	.long	.L14-.L13
	.long	.L12-.L13
	.text
	.p2align 4,,10
	.p2align 3
.L7:
	leal	(%rax,%rax,2), %edx
	leal	(%rax,%rdx,4), %eax
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L8:
	subl	$11, %eax
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L9:
	xorl	$7, %eax
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L4:
	movl	%eax, %edi
	call	sink@PLT
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L10:
	addl	$3, %eax
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L14:
	andl	$29, %eax
	.p2align 4,,10
	.p2align 3
.L11:
	addq	$1, %rbx
	cmpq	%r13, %rbx
	jne	.L20
	addq	$8, %rsp
	popq	%rbx
	popq	%rbp
	popq	%r12
	popq	%r13
	ret
	.p2align 4,,10
	.p2align 3
.L15:
	leal	1(%rax), %edi
	call	sink@PLT
	jmp	.L11
	.p2align 4,,10
	.p2align 3
.L16:
	imull	$23, %eax, %eax
	jmp	.L11
	.p2align 4,,10
	.p2align 3
.L17:
	subl	$19, %eax
	jmp	.L11
	.p2align 4,,10
	.p2align 3
.L18:
	xorl	$9, %eax
	jmp	.L11
	.p2align 4,,10
	.p2align 3
.L12:
	sarl	%eax
	jmp	.L11
	.p2align 4,,10
	.p2align 3
.L19:
	addl	$5, %eax
	jmp	.L11
	.p2align 4,,10
	.p2align 3
.L21:
	xorl	%eax, %eax
	ret
	.size	two_tables, .-two_tables
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
