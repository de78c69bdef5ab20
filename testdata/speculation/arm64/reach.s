// unreachable on arm64.
	.text
	.globl	dead
	.type	dead, %function
dead:	ret
	mov	x0, #1
	ret
	.size	dead, .-dead
	.globl	barrier_after_ret
	.type	barrier_after_ret, %function
barrier_after_ret:
	ret
	dsb	sy
	isb
	.size	barrier_after_ret, .-barrier_after_ret
	.globl	entered
	.type	entered, %function
entered:
	ret
1:	mov	x0, #2
	ret
	.size	entered, .-entered
	.globl	caller
	.type	caller, %function
caller:	b	1b
	.size	caller, .-caller
// A fault at EL2 resumes at its fixup through the KVM hypervisor's own
// exception table (8-byte entries, __kvm_ex_table): the fixup is reached.
	.globl	kvm_at
	.type	kvm_at, %function
kvm_at:
.Lkvm_at_insn:
	at	s1e1r, x0
	ret
.Lkvm_at_fixup:
	mov	x0, #-1
	ret
	.size	kvm_at, .-kvm_at
	.pushsection __kvm_ex_table, "a"
	.p2align 3
	.word	.Lkvm_at_insn - ., .Lkvm_at_fixup - .
	.popsection
