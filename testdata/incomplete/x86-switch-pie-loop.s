# Two switches in loops, gcc 12 -O2 -fPIE -fcf-protection=full
# -fno-asynchronous-unwind-tables output of x86-switch-pie-loop.c (kept beside
# it): gcc hoists both tables' `leaq .Ltable(%rip)` to the entry, so the
# second dispatch (`movslq (%r15,%rax,4),%rdx; add %r15,%rdx; notrack jmp
# *%rdx`) finds its table register set before the first dispatch, where
# the search back from it stopped (kconfig's zconfdump, a host program of
# every kbuild tree). The second table went unread, its jump was taken for a
# sibling call with a modified frame, and the first table's read ran on into
# the second's entries. Built twice: as is, clean; with FAULT, one case of
# the second switch pushes a word before going round the loop, a
# stack-mismatch only a walk of that case finds.
	.file	"switch-pie-loop.c"
	.text
	.section	.rodata.str1.1,"aMS",@progbits,1
.LC0:
	.string	"a"
.LC1:
	.string	"b"
.LC2:
	.string	"c"
.LC3:
	.string	"d"
.LC4:
	.string	"e"
.LC5:
	.string	"f"
.LC6:
	.string	"g"
.LC7:
	.string	"h"
.LC8:
	.string	"i"
.LC9:
	.string	"j"
.LC10:
	.string	"k"
.LC11:
	.string	"l"
.LC12:
	.string	"m"
	.text
	.p2align 4
	.globl	dump
	.type	dump, @function
dump:
	endbr64
	testq	%rdi, %rdi
	je	.L32
	pushq	%r15
	leaq	.L14(%rip), %r15
	pushq	%r14
	pushq	%r13
	pushq	%r12
	pushq	%rbp
	leaq	.L5(%rip), %rbp
	pushq	%rbx
	movq	%rdi, %rbx
	subq	$8, %rsp
	.p2align 4,,10
	.p2align 3
.L22:
	cmpl	$5, 8(%rbx)
	ja	.L3
	movl	8(%rbx), %eax
	movslq	0(%rbp,%rax,4), %rax
	addq	%rbp, %rax
	notrack jmp	*%rax
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
	leaq	.LC4(%rip), %rdi
	call	out@PLT
	.p2align 4,,10
	.p2align 3
.L3:
	movq	16(%rbx), %r12
	testq	%r12, %r12
	je	.L11
	leaq	.LC12(%rip), %r14
	leaq	.LC11(%rip), %r13
	.p2align 4,,10
	.p2align 3
.L21:
	cmpl	$6, 12(%r12)
	ja	.L12
	movl	12(%r12), %edx
	movslq	(%r15,%rdx,4), %rdx
	addq	%r15, %rdx
	notrack jmp	*%rdx
	.section	.rodata
	.align 4
	.align 4
.L14:
	.long	.L20-.L14
	.long	.L19-.L14
	.long	.L18-.L14
	.long	.L17-.L14
	.long	.L16-.L14
	.long	.L15-.L14
	.long	.L13-.L14
	.text
	.p2align 4,,10
	.p2align 3
.L15:
	movq	%r13, %rdi
	call	out@PLT
	.p2align 4,,10
	.p2align 3
.L12:
	movq	(%r12), %r12
	testq	%r12, %r12
	jne	.L21
.L11:
	movq	(%rbx), %rbx
	testq	%rbx, %rbx
	jne	.L22
	addq	$8, %rsp
	popq	%rbx
	popq	%rbp
	popq	%r12
	popq	%r13
	popq	%r14
	popq	%r15
	ret
	.p2align 4,,10
	.p2align 3
.L16:
	leaq	.LC10(%rip), %rdi
	call	out@PLT
	jmp	.L12
	.p2align 4,,10
	.p2align 3
.L17:
	leaq	.LC9(%rip), %rdi
	call	out@PLT
.ifdef FAULT
	pushq	%rax
.endif
	jmp	.L12
	.p2align 4,,10
	.p2align 3
.L18:
	leaq	.LC8(%rip), %rdi
	call	out@PLT
	jmp	.L12
	.p2align 4,,10
	.p2align 3
.L19:
	leaq	.LC7(%rip), %rdi
	call	out@PLT
	jmp	.L12
	.p2align 4,,10
	.p2align 3
.L20:
	leaq	.LC6(%rip), %rdi
	call	out@PLT
	jmp	.L12
	.p2align 4,,10
	.p2align 3
.L13:
	movq	%r14, %rdi
	call	out@PLT
	jmp	.L12
	.p2align 4,,10
	.p2align 3
.L7:
	leaq	.LC3(%rip), %rdi
	call	out@PLT
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L8:
	leaq	.LC2(%rip), %rdi
	call	out@PLT
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L9:
	leaq	.LC1(%rip), %rdi
	call	out@PLT
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L4:
	leaq	.LC5(%rip), %rdi
	call	out@PLT
	jmp	.L3
	.p2align 4,,10
	.p2align 3
.L10:
	leaq	.LC0(%rip), %rdi
	call	out@PLT
	jmp	.L3
.L32:
	ret
	.size	dump, .-dump
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
	.section	.note.gnu.property,"a"
	.align 8
	.long	1f - 0f
	.long	4f - 1f
	.long	5
0:
	.string	"GNU"
1:
	.align 8
	.long	0xc0000002
	.long	3f - 2f
2:
	.long	0x3
3:
	.align 8
4:
