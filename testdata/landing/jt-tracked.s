# A jump table reached by a tracked `jmp *%rax` (no notrack): every case needs
# ENDBR64 and has none, so each entry is a finding. With `notrack` (as gcc
# emits for -fcf-protection=branch -fjump-tables, switch-jt.o) none is.
	.section .note.gnu.property,"a"
	.p2align 3
	.long 4, 16, 5
	.asciz "GNU"
	.long 0xc0000002, 4, 3
	.p2align 3
	.text
	.globl sw
	.type sw,@function
sw:	endbr64
	movl %edi,%edi
	movq .Ltab(,%rdi,8),%rax
	jmp *%rax
.Lc0:	movl $1,%eax
	ret
.Lc1:	movl $2,%eax
	ret
	.size sw,.-sw
	.section .rodata,"a"
	.p2align 3
.Ltab:	.quad .Lc0
	.quad .Lc1
