# Hand-written x86-64 kCFI object in the kernel's 11,11 layout (`__cfi_f`:
# `mov $hash,%eax` then 11 NOPs; checks read the hash at target-0xf).
# b's preamble has only 5 NOPs, so its hash is at b-0x9; one check in `a`
# reads target-0x14 where the others read target-0xf.
	.text

	.macro cfi name, hash, nops
	.p2align 4
	.globl __cfi_\name
	.type __cfi_\name, @function
__cfi_\name:
	movl $\hash, %eax
	.rept \nops
	nop
	.endr
	.size __cfi_\name, .-__cfi_\name
	.globl \name
	.type \name, @function
\name:
	.endm

	.macro check disp
	movl $-0x11223344, %r10d
	addl -\disp(%rdi), %r10d
	je 1f
	ud2
1:	call *%rdi
	.endm

	cfi a, 0x11223344, 11
	endbr64
	check 0xf
	check 0xf
	check 0x14
	ret
	.size a, .-a

	cfi b, 0x11223344, 5
	endbr64
	ret
	.size b, .-b

	cfi c, 0x11223344, 11
	endbr64
	ret
	.size c, .-c
