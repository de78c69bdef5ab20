# x86 exempt_section entries of rules/landing_pads.toml that no other fixture
# holds, each as the kernel fills it (Linux 6.12 unless said), referencing a
# function without ENDBR64 in an IBT object: none is reported.
# tests/exemptions.rs removes each entry in turn and expects that function's
# ibt-missing-endbr.
	.section .note.gnu.property,"a"
	.p2align 3
	.long 4, 16, 5
	.asciz "GNU"
	.long 0xc0000002, 4, 3		# X86_FEATURE_1_AND: IBT | SHSTK
	.p2align 3

	.text
	.globl in_parainstructions
	.type in_parainstructions, @function
in_parainstructions:
	call *pv_ops+8(%rip)
	ret
	.size in_parainstructions, . - in_parainstructions
	.globl in_smp_locks
	.type in_smp_locks, @function
in_smp_locks:
	lock incl (%rdi)
	ret
	.size in_smp_locks, . - in_smp_locks
	.globl in_error_injection
	.type in_error_injection, @function
in_error_injection:
	xorl %eax, %eax
	ret
	.size in_error_injection, . - in_error_injection
	.globl in_kprobe_blacklist
	.type in_kprobe_blacklist, @function
in_kprobe_blacklist:
	ret
	.size in_kprobe_blacklist, . - in_kprobe_blacklist
	.globl in_klp_funcs
	.type in_klp_funcs, @function
in_klp_funcs:
	ret
	.size in_klp_funcs, . - in_klp_funcs
	.globl in_call_graph_profile
	.type in_call_graph_profile, @function
in_call_graph_profile:
	ret
	.size in_call_graph_profile, . - in_call_graph_profile
	.globl in_bb_addr_map
	.type in_bb_addr_map, @function
in_bb_addr_map:
	ret
	.size in_bb_addr_map, . - in_bb_addr_map

# struct paravirt_patch_site { s32 instr_offset; u8 type; u8 len; }
	.section .parainstructions,"a"
	.long in_parainstructions - .
	.byte 1, 6
	.p2align 2
# LOCK_PREFIX: the lock prefix's place, PC-relative.
	.section .smp_locks,"a"
	.long in_smp_locks - .
# ALLOW_ERROR_INJECTION(): struct error_injection_entry { addr; etype }.
	.section _error_injection_whitelist,"aw"
	.quad in_error_injection
	.long 1
	.p2align 3
# NOKPROBE_SYMBOL(): the function's address.
	.section _kprobe_blacklist,"aw"
	.quad in_kprobe_blacklist
# klp-build's patch module (newer kernels): struct klp_func's new_func.
	.section .init.klp_funcs,"aw"
	.quad 0
	.quad in_klp_funcs
# clang -fprofile-use: the call-graph edges as symbol pairs, and
# -fbasic-block-address-map: each function's address (stand-ins, as data).
	.section .llvm.call-graph-profile,"e"
	.quad in_call_graph_profile
	.quad in_call_graph_profile
	.quad 10
	.section .llvm_bb_addr_map,"o",@progbits,.text
	.byte 2, 0
	.quad in_bb_addr_map
