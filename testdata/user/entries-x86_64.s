# Second entries that run into the function after them on purpose, as
# glibc's memmove-vec-unaligned-erms.S and strcasecmp_l.S write them:
# `__memcpy_chk_erms` checks the size and continues into `__memcpy_erms`
# (alignment NOPs between); `__strcasecmp_x` loads the locale and continues
# into `__strcasecmp_l_x`. Reported as notes. `annotated_chk` says it means
# it (the objlint annotation section) and is not reported at all.
	.text
	.globl	__memcpy_chk_erms
	.type	__memcpy_chk_erms, @function
__memcpy_chk_erms:
	cmpq	%rdx, %rcx
	jb	__chk_fail
	.size	__memcpy_chk_erms, .-__memcpy_chk_erms
	.p2align 4
	.globl	__memcpy_erms
	.type	__memcpy_erms, @function
__memcpy_erms:
	movq	%rdi, %rax
	movq	%rdx, %rcx
	rep movsb
	ret
	.size	__memcpy_erms, .-__memcpy_erms

	.globl	__strcasecmp_x
	.type	__strcasecmp_x, @function
__strcasecmp_x:
	movq	__libc_tsd_LOCALE@gottpoff(%rip), %rax
	movq	%fs:(%rax), %rdx
	.size	__strcasecmp_x, .-__strcasecmp_x
	.globl	__strcasecmp_l_x
	.type	__strcasecmp_l_x, @function
__strcasecmp_l_x:
	xorl	%eax, %eax
	ret
	.size	__strcasecmp_l_x, .-__strcasecmp_l_x

	.globl	annotated_chk
	.type	annotated_chk, @function
annotated_chk:
	cmpq	%rdx, %rcx
	jb	__chk_fail
	.size	annotated_chk, .-annotated_chk
	.pushsection .discard.objlint.fallthrough, "", @progbits
	.long	annotated_chk - .
	.popsection
	.globl	annotated_body
	.type	annotated_body, @function
annotated_body:
	movq	%rdi, %rax
	ret
	.size	annotated_body, .-annotated_body

# Not the shape: int3 padding stops execution, so running into it is an
# error (and so is running off the end after a call, the noreturn question).
	.globl	int3_padded
	.type	int3_padded, @function
int3_padded:
	movl	$1, %eax
	.size	int3_padded, .-int3_padded
	.p2align 4, 0xcc
	.globl	after_int3
	.type	after_int3, @function
after_int3:
	ret
	.size	after_int3, .-after_int3
	.section	.note.GNU-stack,"",@progbits
