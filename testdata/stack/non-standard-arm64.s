// The arm64 functions of rules/stack.toml non_standard, each in the section
// Linux 6.12 defines it in, reduced to how it switches or restores its stack
// (entry.S, head.S, sleep.S, efi-rt-wrapper.S, proton-pack.c). With the
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
