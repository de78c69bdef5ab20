// Linux 6.1's forms of two rules/stack.toml non_standard functions, in the
// sections 6.1 defines them in (arch/arm64/kernel/head.S), reduced to how
// they keep their return address: create_idmap (gone by 6.12) saves lr in
// x28 across its calls and returns with `ret x28`; __secondary_switched
// (.idmap.text in 6.1, .text in 6.12) branches to the wfe loop of
// __secondary_too_slow with lr clobbered by its calls, a path that never
// returns. With the built-in list neither is reported; tests/exemptions.rs
// removes each entry in turn and expects a stack finding in that function.
	.section .init.text,"ax"
	.type create_idmap, %function
	.p2align 2
create_idmap:
	bti c
	mov x28, x30
	adrp x0, init_idmap_pg_dir
	adrp x3, _text
	bl remap_region
	dmb sy
	adrp x0, init_idmap_pg_dir
	adrp x1, init_idmap_pg_end
	bl dcache_inval_poc
	ret x28
	.size create_idmap, . - create_idmap

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
