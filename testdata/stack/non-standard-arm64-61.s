// Linux 6.1's form of a rules/stack.toml non_standard function, in the
// section 6.1 defines it in (arch/arm64/kernel/head.S), reduced to how it
// treats its return address: __secondary_switched (.idmap.text in 6.1, .text
// in 6.12) branches to the wfe loop of __secondary_too_slow with lr clobbered
// by its calls, a path that never returns. With the built-in list it is not
// reported; tests/exemptions.rs removes the entry and expects a stack
// finding. (6.1's create_idmap, which returns with `ret x28`, is
// ../incomplete/arm64-ret-register.s.)
	.section .idmap.text,"awx"
	.type __secondary_switched, %function
	.p2align 2
__secondary_switched:
	bti c
	mov x0, x20
	bl set_cpu_boot_mode_flag
	adrp x0, secondary_data
	add x0, x0, :lo12:secondary_data
	ldr x2, [x0]
	cbz x2, __secondary_too_slow
	ldr x1, [x2, #16]
	add sp, x1, #4096
	stp x29, x30, [sp, #-16]!
	mov x29, sp
	bl secondary_start_kernel
	brk #0x800
	.size __secondary_switched, . - __secondary_switched

	.type __secondary_too_slow, %function
	.p2align 2
__secondary_too_slow:
	bti c
	wfe
	wfi
	b __secondary_too_slow
	.size __secondary_too_slow, . - __secondary_too_slow
