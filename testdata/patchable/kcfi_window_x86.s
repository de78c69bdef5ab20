# kCFI checks at the edge of how far a trap may lie after its hash load:
# 8 instructions (a check), 9 (none); and two loads before one trap (the
# nearer one is the check's). Expected: two checks, both reading
# target-0xf.
	.text
	.globl f
	.type f, @function
f:
	endbr64
	movl $-0x11223344, %r10d
	addl -15(%rdi), %r10d
	.rept 6
	nop
	.endr
	je 1f
	ud2
1:	call *%rdi
	movl $-0x11223344, %r10d
	addl -15(%rdi), %r10d
	.rept 7
	nop
	.endr
	je 2f
	ud2
2:	call *%rdi
	movl $-0x11223344, %r10d
	addl -20(%rdi), %r10d
	addl -15(%rdi), %r10d
	je 3f
	ud2
3:	call *%rdi
	ret
	.size f, .-f
