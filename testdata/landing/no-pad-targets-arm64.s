// Every arm64 no_pad_target of rules/landing_pads.toml, defined where Linux
// 6.12 defines it (section read off kbuild objects) and referenced from data,
// in a BTI object: none is reported. tests/landing.rs removes each entry in
// turn and expects its finding; the same names in another section are
// reported (the last block).
	.section .note.gnu.property,"a"
	.p2align 3
	.word 4, 16, 5
	.asciz "GNU"
	.word 0xc0000000, 4, 3		// AARCH64_FEATURE_1_AND: BTI | PAC
	.p2align 3
	.section .entry.text,"ax"
	.globl vectors
	.p2align 2
vectors:
	nop
	ret
	.size vectors, . - vectors
	.section .entry.tramp.text,"ax"
	.globl tramp_vectors
	.p2align 2
tramp_vectors:
	nop
	ret
	.size tramp_vectors, . - tramp_vectors
	.section .entry.text,"ax"
	.globl __bp_harden_el1_vectors
	.p2align 2
__bp_harden_el1_vectors:
	nop
	ret
	.size __bp_harden_el1_vectors, . - __bp_harden_el1_vectors
	.section .hyp.text,"ax"
	.globl __hyp_stub_vectors
	.p2align 2
__hyp_stub_vectors:
	nop
	ret
	.size __hyp_stub_vectors, . - __hyp_stub_vectors
	.section .hyp.text,"ax"
	.globl __kvm_hyp_vector
	.p2align 2
__kvm_hyp_vector:
	nop
	ret
	.size __kvm_hyp_vector, . - __kvm_hyp_vector
	.section .hyp.text,"ax"
	.globl __kvm_hyp_host_vector
	.p2align 2
__kvm_hyp_host_vector:
	nop
	ret
	.size __kvm_hyp_host_vector, . - __kvm_hyp_host_vector
	.section .text,"ax"
	.globl __bp_harden_hyp_vecs
	.p2align 2
__bp_harden_hyp_vecs:
	nop
	ret
	.size __bp_harden_hyp_vecs, . - __bp_harden_hyp_vecs
	.section .text,"ax"
	.globl trans_pgd_stub_vectors
	.p2align 2
trans_pgd_stub_vectors:
	nop
	ret
	.size trans_pgd_stub_vectors, . - trans_pgd_stub_vectors
	.section .text,"ax"
	.globl ftrace_call
	.p2align 2
ftrace_call:
	nop
	ret
	.size ftrace_call, . - ftrace_call
	.section .text,"ax"
	.globl ftrace_graph_call
	.p2align 2
ftrace_graph_call:
	nop
	ret
	.size ftrace_graph_call, . - ftrace_graph_call
	.section .entry.tramp.text,"ax"
	.globl __sdei_asm_entry_trampoline
	.p2align 2
__sdei_asm_entry_trampoline:
	nop
	ret
	.size __sdei_asm_entry_trampoline, . - __sdei_asm_entry_trampoline
	.section .entry.tramp.text,"ax"
	.globl tramp_exit_native
	.p2align 2
tramp_exit_native:
	nop
	ret
	.size tramp_exit_native, . - tramp_exit_native
	.section .entry.tramp.text,"ax"
	.globl tramp_exit_compat
	.p2align 2
tramp_exit_compat:
	nop
	ret
	.size tramp_exit_compat, . - tramp_exit_compat
	.section .entry.tramp.text,"ax"
	.globl __sdei_asm_exit_trampoline
	.p2align 2
__sdei_asm_exit_trampoline:
	nop
	ret
	.size __sdei_asm_exit_trampoline, . - __sdei_asm_exit_trampoline
	.section .text,"ax"
	.globl __sdei_asm_handler
	.p2align 2
__sdei_asm_handler:
	nop
	ret
	.size __sdei_asm_handler, . - __sdei_asm_handler
	.section .text,"ax"
	.globl ret_from_fork
	.p2align 2
ret_from_fork:
	nop
	ret
	.size ret_from_fork, . - ret_from_fork
	.section .text,"ax"
	.globl return_to_handler
	.p2align 2
return_to_handler:
	nop
	ret
	.size return_to_handler, . - return_to_handler
	.section .text,"ax"
	.globl __efi_rt_asm_recover
	.p2align 2
__efi_rt_asm_recover:
	nop
	ret
	.size __efi_rt_asm_recover, . - __efi_rt_asm_recover
	.section .init.text,"ax"
	.globl __pi_map_range
	.p2align 2
__pi_map_range:
	nop
	ret
	.size __pi_map_range, . - __pi_map_range
	.section .hyp.text,"ax"
	.globl __kvm_nvhe___kvm_hyp_vector
	.p2align 2
__kvm_nvhe___kvm_hyp_vector:
	nop
	ret
	.size __kvm_nvhe___kvm_hyp_vector, . - __kvm_nvhe___kvm_hyp_vector
	.section .hyp.text,"ax"
	.globl __kvm_nvhe___kvm_hyp_host_vector
	.p2align 2
__kvm_nvhe___kvm_hyp_host_vector:
	nop
	ret
	.size __kvm_nvhe___kvm_hyp_host_vector, . - __kvm_nvhe___kvm_hyp_host_vector
	.section .hyp.text,"ax"
	.globl __kvm_nvhe___bp_harden_hyp_vecs
	.p2align 2
__kvm_nvhe___bp_harden_hyp_vecs:
	nop
	ret
	.size __kvm_nvhe___bp_harden_hyp_vecs, . - __kvm_nvhe___bp_harden_hyp_vecs
	.section .hyp.idmap.text,"ax"
	.globl __kvm_nvhe___kvm_hyp_init
	.p2align 2
__kvm_nvhe___kvm_hyp_init:
	nop
	ret
	.size __kvm_nvhe___kvm_hyp_init, . - __kvm_nvhe___kvm_hyp_init
	.section .hyp.idmap.text,"ax"
	.globl __kvm_nvhe_kvm_hyp_cpu_entry
	.p2align 2
__kvm_nvhe_kvm_hyp_cpu_entry:
	nop
	ret
	.size __kvm_nvhe_kvm_hyp_cpu_entry, . - __kvm_nvhe_kvm_hyp_cpu_entry
	.section .hyp.idmap.text,"ax"
	.globl __kvm_nvhe_kvm_hyp_cpu_resume
	.p2align 2
__kvm_nvhe_kvm_hyp_cpu_resume:
	nop
	ret
	.size __kvm_nvhe_kvm_hyp_cpu_resume, . - __kvm_nvhe_kvm_hyp_cpu_resume
	.section .idmap.text,"ax"
	.globl cpu_resume
	.p2align 2
cpu_resume:
	nop
	ret
	.size cpu_resume, . - cpu_resume
	.section .text,"ax"
	.globl __guest_exit_restore_elr_and_panic
	.p2align 2
__guest_exit_restore_elr_and_panic:
	nop
	ret
	.size __guest_exit_restore_elr_and_panic, . - __guest_exit_restore_elr_and_panic
	.section .hyp.text,"ax"
	.globl __kvm_nvhe___guest_exit_restore_elr_and_panic
	.p2align 2
__kvm_nvhe___guest_exit_restore_elr_and_panic:
	nop
	ret
	.size __kvm_nvhe___guest_exit_restore_elr_and_panic, . - __kvm_nvhe___guest_exit_restore_elr_and_panic
// Not exempt: an early-boot (__pi_) name outside the sections it is built in.
	.section .noinstr.text,"ax"
	.globl __pi_misplaced
	.type __pi_misplaced,%function
__pi_misplaced:
	nop
	ret
	.size __pi_misplaced, . - __pi_misplaced

	.section .data
	.quad	vectors
	.quad	tramp_vectors
	.quad	__bp_harden_el1_vectors
	.quad	__hyp_stub_vectors
	.quad	__kvm_hyp_vector
	.quad	__kvm_hyp_host_vector
	.quad	__bp_harden_hyp_vecs
	.quad	trans_pgd_stub_vectors
	.quad	ftrace_call
	.quad	ftrace_graph_call
	.quad	__sdei_asm_entry_trampoline
	.quad	tramp_exit_native
	.quad	tramp_exit_compat
	.quad	__sdei_asm_exit_trampoline
	.quad	__sdei_asm_handler
	.quad	ret_from_fork
	.quad	return_to_handler
	.quad	__efi_rt_asm_recover
	.quad	__pi_map_range
	.quad	__pi_misplaced
	.quad	__kvm_nvhe___kvm_hyp_vector
	.quad	__kvm_nvhe___kvm_hyp_host_vector
	.quad	__kvm_nvhe___bp_harden_hyp_vecs
	.quad	__kvm_nvhe___kvm_hyp_init
	.quad	__kvm_nvhe_kvm_hyp_cpu_entry
	.quad	__kvm_nvhe_kvm_hyp_cpu_resume
	.quad	cpu_resume
	.quad	__guest_exit_restore_elr_and_panic
	.quad	__kvm_nvhe___guest_exit_restore_elr_and_panic
