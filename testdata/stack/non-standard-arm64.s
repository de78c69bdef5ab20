// The arm64 functions of rules/stack.toml non_standard, each in the section
// Linux 6.12 defines it in, reduced to how it switches or restores its stack
// (entry.S, head.S, sleep.S, efi-rt-wrapper.S, proton-pack.c, the KVM
// hypervisor's entry.S and host.S). With the
// built-in list none is reported; tests/exemptions.rs removes each entry in
// turn and expects a stack finding in that function. cpu_switch_to is in
// ../landing/real/kbuild-arm64/entry.o.
	.section .init.text,"ax"
	.globl __primary_switched
	.type __primary_switched, %function
	.p2align 2
__primary_switched:
	adrp x4, init_thread_union
	add sp, x4, #4096
	stp x29, x30, [sp, #-16]!
	mov x29, sp
	bl start_kernel
	.size __primary_switched, . - __primary_switched

	.text
	.globl __secondary_switched
	.type __secondary_switched, %function
	.p2align 2
__secondary_switched:
	ldr x2, [x0]
	mov sp, x2
	stp x29, x30, [sp, #-16]!
	mov x29, sp
	bl secondary_start_kernel
	.size __secondary_switched, . - __secondary_switched

	.globl _cpu_resume
	.type _cpu_resume, %function
	.p2align 2
_cpu_resume:
	ldp x2, x3, [x0]
	mov sp, x2
	ldp x19, x20, [x0, #16]
	ldp x29, x30, [x0, #32]
	ret
	.size _cpu_resume, . - _cpu_resume

	.globl __efi_rt_asm_wrapper
	.type __efi_rt_asm_wrapper, %function
	.p2align 2
__efi_rt_asm_wrapper:
	stp x29, x30, [sp, #-112]!
	mov x29, sp
	stp x19, x20, [sp, #32]
	mov x9, sp
	ldr x2, [x1]
	mov sp, x2
	blr x8
	mov sp, x29
	ldp x29, x30, [sp], #112
	ret
	.size __efi_rt_asm_wrapper, . - __efi_rt_asm_wrapper

	.section .noinstr.text,"ax"
	.globl qcom_link_stack_sanitisation
	.type qcom_link_stack_sanitisation, %function
	.p2align 2
qcom_link_stack_sanitisation:
	mov x0, x30
	bl 1f
1:	bl 2f
2:	mov x30, x0
	ret
	.size qcom_link_stack_sanitisation, . - qcom_link_stack_sanitisation

// Boot code of head.S in .idmap.text: no stack yet; the return address is
// kept in ELR_EL2 across calls and left by ERET, or the CPU goes on to the
// next stage by a branch.
	.section .idmap.text,"ax"
	.globl init_kernel_el
	.type init_kernel_el, %function
	.p2align 2
init_kernel_el:
	msr elr_el2, x30
	bl dcache_clean_poc
	eret
	.size init_kernel_el, . - init_kernel_el

	.globl secondary_holding_pen
	.type secondary_holding_pen, %function
	.p2align 2
secondary_holding_pen:
	bl init_kernel_el
	mrs x0, mpidr_el1
	cmp x0, x1
	b.eq secondary_startup
	wfe
	b secondary_holding_pen
	.size secondary_holding_pen, . - secondary_holding_pen

	.globl secondary_entry
	.type secondary_entry, %function
	.p2align 2
secondary_entry:
	bl init_kernel_el
	b secondary_startup
	.size secondary_entry, . - secondary_entry

	.globl secondary_startup
	.type secondary_startup, %function
	.p2align 2
secondary_startup:
	bl __cpu_setup
	bl __enable_mmu
	ldr x8, =__secondary_switched
	br x8
	.size secondary_startup, . - secondary_startup

	.globl __primary_switch
	.type __primary_switch, %function
	.p2align 2
__primary_switch:
	bl __enable_mmu
	adrp x1, early_init_stack
	mov sp, x1
	mov x29, xzr
	bl __pi_early_map_kernel
	ldr x8, =__primary_switched
	br x8
	.size __primary_switch, . - __primary_switch

// KVM world switch and host entry (hyp/entry.S, nvhe/host.S, hyp-init.S),
// the nVHE copies under the names objcopy gives them in vmlinux.o: each
// leaves by ERET with the guest's or host's registers, pops what its vector
// pushed, or switches to another stack.
	.text
	.globl __guest_enter
	.type __guest_enter, %function
	.p2align 2
__guest_enter:
	stp x29, x30, [sp, #-16]!
	mov x29, sp
	ldp x29, x30, [x1, #232]
	eret
	.size __guest_enter, . - __guest_enter


	.section .hyp.text,"ax"
	.globl __kvm_nvhe___guest_enter
	.type __kvm_nvhe___guest_enter, %function
	.p2align 2
__kvm_nvhe___guest_enter:
	stp x29, x30, [sp, #-16]!
	mov x29, sp
	ldp x29, x30, [x1, #232]
	eret
	.size __kvm_nvhe___guest_enter, . - __kvm_nvhe___guest_enter

	.globl __kvm_nvhe___host_exit
	.type __kvm_nvhe___host_exit, %function
	.p2align 2
__kvm_nvhe___host_exit:
	ldp x2, x3, [sp], #16
	mov x29, x0
	bl __kvm_nvhe_handle_trap
	mov x0, x29
	eret
	.size __kvm_nvhe___host_exit, . - __kvm_nvhe___host_exit

	.globl __kvm_nvhe___host_enter
	.type __kvm_nvhe___host_enter, %function
	.p2align 2
__kvm_nvhe___host_enter:
	mov x29, x0
	b __kvm_nvhe___host_exit
	.size __kvm_nvhe___host_enter, . - __kvm_nvhe___host_enter

	.globl __kvm_nvhe___hyp_do_panic
	.type __kvm_nvhe___hyp_do_panic, %function
	.p2align 2
__kvm_nvhe___hyp_do_panic:
	adr x30, __kvm_nvhe___host_exit
	mov x29, x0
	b __kvm_nvhe___host_exit
	.size __kvm_nvhe___hyp_do_panic, . - __kvm_nvhe___hyp_do_panic

	.globl __kvm_nvhe___host_hvc
	.type __kvm_nvhe___host_hvc, %function
	.p2align 2
__kvm_nvhe___host_hvc:
	ldp x0, x1, [sp]
	add sp, sp, #16
	ldr x5, =__kvm_nvhe___host_exit
	br x5
	.size __kvm_nvhe___host_hvc, . - __kvm_nvhe___host_hvc

