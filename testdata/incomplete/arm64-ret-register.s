// Returns through another register than x30, reduced from the kernel:
// Linux 6.1's head.S create_idmap (boot code without a stack that keeps lr
// in x28 across its calls, `ret x28`) and the arm64 BPF JIT's dummy_tramp
// (6.12, `ret x10` back to the BPF program), and pKVM's
// __pkvm_init_switch_pgd (6.12 nvhe/hyp-init.S: switches page tables and
// stack, then `ret x2` to its continuation). The stack model follows no
// copies of the return address, so each return is an analysis-incomplete
// place (return-register), not a finding. objlint once reported "return
// with modified stack frame" at each and then exempted them by name in
// rules/stack.toml, which also took out mm/mmu.c's C create_idmap in a clang
// build of 6.1.
	.section .init.text,"ax"
	.type	create_idmap, %function
	.p2align 2
create_idmap:
	bti	c
	mov	x28, x30
	adrp	x0, init_idmap_pg_dir
	adrp	x3, _text
	bl	remap_region
	dmb	sy
	adrp	x0, init_idmap_pg_dir
	adrp	x1, init_idmap_pg_end
	bl	dcache_inval_poc
	ret	x28
	.size	create_idmap, . - create_idmap

	.text
	.globl	dummy_tramp
	.type	dummy_tramp, %function
	.p2align 2
dummy_tramp:
	bti	j
	mov	x10, x30
	mov	x30, x9
	ret	x10
	.size	dummy_tramp, . - dummy_tramp

	.section .hyp.idmap.text,"ax"
	.globl	__kvm_nvhe___pkvm_init_switch_pgd
	.type	__kvm_nvhe___pkvm_init_switch_pgd, %function
	.p2align 2
__kvm_nvhe___pkvm_init_switch_pgd:
	msr	ttbr0_el2, x0
	isb
	mov	sp, x1
	ret	x2
	.size	__kvm_nvhe___pkvm_init_switch_pgd, . - __kvm_nvhe___pkvm_init_switch_pgd
