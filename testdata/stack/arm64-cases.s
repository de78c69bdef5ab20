// Stack and return-address faults, one per function, with the clean forms.
	.text
	.p2align 2

// Signs, never authenticates.
	.globl	pac_no_auth
	.type	pac_no_auth, %function
pac_no_auth:
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	ret
	.size	pac_no_auth, .-pac_no_auth

// Signs with key A, authenticates with key B.
	.globl	pac_wrong_key
	.type	pac_wrong_key, %function
pac_wrong_key:
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	autibsp
	ret
	.size	pac_wrong_key, .-pac_wrong_key

// Authenticates with the stack pointer 32 bytes below where it signed.
	.globl	pac_wrong_sp
	.type	pac_wrong_sp, %function
pac_wrong_sp:
	paciasp
	sub	sp, sp, #32
	stp	x29, x30, [sp, #16]
	add	x29, sp, #16
	bl	other
	ldp	x29, x30, [sp, #16]
	autiasp
	add	sp, sp, #32
	ret
	.size	pac_wrong_sp, .-pac_wrong_sp

// Authenticates, then reloads the signed copy from its stack slot.
	.globl	pac_reload
	.type	pac_reload, %function
pac_reload:
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	autiasp
	ldr	x30, [sp, #-8]
	ret
	.size	pac_reload, .-pac_reload

// The frame record is never reloaded: x29 and x30 are lost.
	.globl	no_reload
	.type	no_reload, %function
no_reload:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	bl	other
	add	sp, sp, #32
	ret
	.size	no_reload, .-no_reload

// The frame still set up at a tail call.
	.globl	sibling_modified
	.type	sibling_modified, %function
sibling_modified:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	b	other
	.size	sibling_modified, .-sibling_modified

// Two paths reach the return with different stack pointers.
	.globl	mismatch
	.type	mismatch, %function
mismatch:
	cbz	x0, 1f
	sub	sp, sp, #16
1:	ret
	.size	mismatch, .-mismatch

// x19 saved on one path only: the paths meet with different saved registers.
	.globl	saved_mismatch
	.type	saved_mismatch, %function
saved_mismatch:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	cbz	x0, 1f
	str	x19, [sp, #16]
1:	ldp	x29, x30, [sp], #32
	ret
	.size	saved_mismatch, .-saved_mismatch

// sp moved by a register: the model cannot follow.
	.globl	undefined_state
	.type	undefined_state, %function
undefined_state:
	sub	sp, sp, x9
	stp	x29, x30, [sp, #-16]!
	ldp	x29, x30, [sp], #16
	ret
	.size	undefined_state, .-undefined_state

// A call before the frame record exists (frame-pointer builds).
	.globl	call_before_frame
	.type	call_before_frame, %function
call_before_frame:
	str	x30, [sp, #-16]!
	bl	other
	ldr	x30, [sp], #16
	ret
	.size	call_before_frame, .-call_before_frame

// The clean forms.
	.globl	pac_ok
	.type	pac_ok, %function
pac_ok:
	paciasp
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x19, [sp, #16]
	mov	x19, x0
	bl	other
	mov	x0, x19
	ldr	x19, [sp, #16]
	ldp	x29, x30, [sp], #32
	autiasp
	ret
	.size	pac_ok, .-pac_ok

	.globl	retaa_ok
	.type	retaa_ok, %function
retaa_ok:
	pacibsp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	retab
	.size	retaa_ok, .-retaa_ok

	.globl	tail_ok
	.type	tail_ok, %function
tail_ok:
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	autiasp
	b	other
	.size	tail_ok, .-tail_ok

	.globl	other
	.type	other, %function
other:
	ret
	.size	other, .-other

// Switch tables in the shapes compilers emit (regressions from kbuild
// objects, gcc 12 and clang-19). A case that returns with the frame still
// pushed is found only when the table is read.

// The table's address is set on two paths before a loop (clang's
// rematerialisation, lib/asn1_decoder.o), the bounds check is inside the
// dispatch block.
	.globl	table_two_defs
	.type	table_two_defs, %function
table_two_defs:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x25, [sp, #16]
	cbz	w0, 1f
	adrp	x25, .Ltab_two
	add	x25, x25, :lo12:.Ltab_two
	b	2f
1:	adrp	x25, .Ltab_two
	add	x25, x25, :lo12:.Ltab_two
2:	bl	other
	sub	w1, w1, #1
	cbnz	w2, 2b
	cmp	w1, #2
	b.hi	.Ltwo_out
	adr	x8, .Ltwo_base
	ldrb	w9, [x25, x1]
	add	x8, x8, x9, lsl #2
	br	x8
.Ltwo_base:
	b	.Ltwo_out
.Ltwo_c1:
	b	.Ltwo_out
.Ltwo_c2:
	ret
.Ltwo_out:
	ldr	x25, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	table_two_defs, .-table_two_defs

// clang rematerialises a table's address wherever it reused the register
// (audit_filter_rules: nine `adrp/add x24`): every definition is the same,
// so the table is read; its case 2 returns with the frame still set up.
	.globl	table_many_defs
	.type	table_many_defs, %function
table_many_defs:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x25, [sp, #16]
	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
.Lmany_loop:
	cmp	w1, #3
	b.hi	.Lmany_out
	adr	x8, .Lmany_base
	ldrb	w9, [x25, x1]
	add	x8, x8, x9, lsl #2
	br	x8
.Lmany_base:
	sub	w1, w1, #1
	mov	x25, x2
	ldr	x25, [x25]
	cbz	x25, .Lmany_out
	cbnz	w3, 1f
	cbnz	w4, 2f
	cbnz	w5, 3f
	cbnz	w6, 4f
	cbnz	w7, 5f
	cbnz	w10, 6f
	cbnz	w11, 7f
	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
	b	.Lmany_loop
1:	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
	b	.Lmany_loop
2:	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
	b	.Lmany_loop
3:	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
	b	.Lmany_loop
4:	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
	b	.Lmany_loop
5:	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
	b	.Lmany_loop
6:	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
	b	.Lmany_loop
7:	adrp	x25, .Ltab_many
	add	x25, x25, :lo12:.Ltab_many
	b	.Lmany_loop
.Lmany_c1:
	b	.Lmany_out
.Lmany_c2:
	ret
.Lmany_c3:
	b	.Lmany_loop
.Lmany_out:
	ldr	x25, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	table_many_defs, .-table_many_defs

// gcc spills a table's address and reloads it before the dispatch
// (audit_data_to_entry, bpf_jit_blind_constants): read through the one
// store to that slot; its case 2 returns with the frame still set up.
	.globl	table_spilled_addr
	.type	table_spilled_addr, %function
table_spilled_addr:
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	adrp	x3, .Ltab_sa
	add	x0, x3, :lo12:.Ltab_sa
	str	x0, [sp, #24]
	bl	other
	cmp	w1, #2
	b.hi	.Lsa_out
	ldr	x0, [sp, #24]
	ldrb	w1, [x0, w1, uxtw]
	adr	x2, .Lsa_base
	add	x1, x2, w1, sxtb #2
	br	x1
.Lsa_base:
	b	.Lsa_out
.Lsa_c1:
	b	.Lsa_out
.Lsa_c2:
	ret
.Lsa_out:
	ldp	x29, x30, [sp], #48
	ret
	.size	table_spilled_addr, .-table_spilled_addr

// gcc completes a table's address from a page register it shares with
// other addresses (tveeprom_hauppauge_analog: `add x0, x24, :lo12:`);
// its case 2 returns with the frame still set up.
	.globl	table_page_reg
	.type	table_page_reg, %function
table_page_reg:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x24, .Ltab_pr
	cmp	w2, #2
	b.hi	.Lpr_out
	add	x0, x24, :lo12:.Ltab_pr
	ldrb	w0, [x0, w2, uxtw]
	adr	x1, .Lpr_base
	add	x0, x1, w0, sxtb #2
	br	x0
.Lpr_base:
	b	.Lpr_out
.Lpr_c1:
	b	.Lpr_out
.Lpr_c2:
	ret
.Lpr_out:
	ldp	x29, x30, [sp], #16
	ret
	.size	table_page_reg, .-table_page_reg

// The table's address rematerialised from another page register after a
// call (inet_diag_bc_sk: `add x4, x4, :lo12:` before the loop, `add x4,
// x1, :lo12:` after bitstring_match); case 2 returns with the frame set up.
	.globl	table_other_page
	.type	table_other_page, %function
table_other_page:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x4, .Ltab_op
	add	x4, x4, :lo12:.Ltab_op
.Lop_loop:
	cmp	w2, #2
	b.hi	.Lop_out
	ldrb	w0, [x4, w2, uxtw]
	adr	x1, .Lop_base
	add	x0, x1, w0, sxtb #2
	br	x0
.Lop_base:
	bl	other
	adrp	x1, .Ltab_op
	add	x4, x1, :lo12:.Ltab_op
	b	.Lop_loop
.Lop_c1:
	b	.Lop_out
.Lop_c2:
	ret
.Lop_out:
	ldp	x29, x30, [sp], #16
	ret
	.size	table_other_page, .-table_other_page

// The index is copied before the bounds check on its source
// (amdgpu dce_v8_0_set_crtc_interrupt_state); the default case is the
// base label, reached before the frame is set up. Clean.
	.globl	table_copied_index
	.type	table_copied_index, %function
table_copied_index:
	mov	w1, w2
	cmp	w2, #2
	b.hi	.Lcopy_base
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x3, .Ltab_copy
	add	x3, x3, :lo12:.Ltab_copy
	ldrb	w3, [x3, w1, uxtw]
	adr	x1, .Lcopy_base
	add	x3, x1, w3, sxtb #2
	br	x3
.Lcopy_base:
	mov	w0, #0
	ret
.Lcopy_c:
	bl	other
	ldp	x29, x30, [sp], #16
	ret
	.size	table_copied_index, .-table_copied_index

// The index was spilled and reloaded: no bounds check ties to it, the
// table is read up to the next referenced address, its zero padding left
// out (taken as a case, it would run the base with the frame pushed).
	.globl	table_spilled_index
	.type	table_spilled_index, %function
table_spilled_index:
	cmp	w2, #2
	b.hi	.Lspill_base
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	w2, [sp, #24]
	bl	other
	ldr	w4, [sp, #24]
	adrp	x3, .Ltab_spill
	add	x3, x3, :lo12:.Ltab_spill
	ldrb	w3, [x3, w4, uxtw]
	adr	x1, .Lspill_base
	add	x3, x1, w3, sxtb #2
	br	x3
.Lspill_base:
	mov	w0, #0
	ret
.Lspill_c1:
	ldp	x29, x30, [sp], #32
	ret
.Lspill_c2:
	ret
	.size	table_spilled_index, .-table_spilled_index

	.section .rodata
	.p2align 3
.Ltab_op:
	.byte	(.Lop_base - .Lop_base) >> 2
	.byte	(.Lop_c1 - .Lop_base) >> 2
	.byte	(.Lop_c2 - .Lop_base) >> 2
.Ltab_pr:
	.byte	(.Lpr_base - .Lpr_base) >> 2
	.byte	(.Lpr_c1 - .Lpr_base) >> 2
	.byte	(.Lpr_c2 - .Lpr_base) >> 2
.Ltab_sa:
	.byte	(.Lsa_base - .Lsa_base) >> 2
	.byte	(.Lsa_c1 - .Lsa_base) >> 2
	.byte	(.Lsa_c2 - .Lsa_base) >> 2
.Ltab_many:
	.byte	(.Lmany_base - .Lmany_base) >> 2
	.byte	(.Lmany_c1 - .Lmany_base) >> 2
	.byte	(.Lmany_c2 - .Lmany_base) >> 2
	.byte	(.Lmany_c3 - .Lmany_base) >> 2
.Ltab_two:
	.byte	(.Ltwo_base - .Ltwo_base) >> 2
	.byte	(.Ltwo_c1 - .Ltwo_base) >> 2
	.byte	(.Ltwo_c2 - .Ltwo_base) >> 2
	.p2align 3
.Ltab_copy:
	.byte	(.Lcopy_c - .Lcopy_base) >> 2
	.byte	(.Lcopy_c - .Lcopy_base) >> 2
	.byte	(.Lcopy_c - .Lcopy_base) >> 2
	.p2align 3
.Ltab_spill:
	.byte	(.Lspill_c1 - .Lspill_base) >> 2
	.byte	(.Lspill_c2 - .Lspill_base) >> 2
	.byte	(.Lspill_c1 - .Lspill_base) >> 2
	.p2align 3
.Lafter:
	.quad	0
	.text
	.p2align 2
	.globl	refers_after
	.type	refers_after, %function
refers_after:
	adrp	x0, .Lafter
	add	x0, x0, :lo12:.Lafter
	ret
	.size	refers_after, .-refers_after

// alternative_has_cap_likely(): `b l_no` that the callback alt_cb_patch_nops
// turns into a NOP at boot (ALTERNATIVE_CB, rules/alternatives.toml). The
// code after it runs only then; it returns with the frame pushed.
	.text
	.p2align 2
	.globl	cb_patch_nops
	.type	cb_patch_nops, %function
cb_patch_nops:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
661:	b	.Lcb_no
662:	ret
.Lcb_no:
	ldp	x29, x30, [sp], #16
	ret
	.size	cb_patch_nops, .-cb_patch_nops

// Another callback (kvm_update_va_mask) rewrites its site in place with
// like code: only the original is followed, and it is clean; the `ret`
// after the site is not called unreachable (what is written may fall through).
	.globl	cb_in_place
	.type	cb_in_place, %function
cb_in_place:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
663:	b	.Lcb2_no
664:	ret
.Lcb2_no:
	ldp	x29, x30, [sp], #16
	ret
	.size	cb_in_place, .-cb_in_place

// The same in the nVHE hypervisor, whose entries in vmlinux.o name the
// callback by objcopy's alias __kvm_nvhe_alt_cb_patch_nops.
	.globl	cb_patch_nops_nvhe
	.type	cb_patch_nops_nvhe, %function
cb_patch_nops_nvhe:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
665:	b	.Lcb3_no
666:	ret
.Lcb3_no:
	ldp	x29, x30, [sp], #16
	ret
	.size	cb_patch_nops_nvhe, .-cb_patch_nops_nvhe

	.pushsection .altinstructions, "a"
	// struct alt_instr: orig, alt (the callback), cpucap | ARM64_CB_BIT,
	// orig_len, alt_len
	.word	661b - .
	.word	alt_cb_patch_nops - .
	.hword	0x8000 | 70
	.byte	662b - 661b
	.byte	0
	.word	663b - .
	.word	kvm_update_va_mask - .
	.hword	0x8000 | 71
	.byte	664b - 663b
	.byte	0
	.word	665b - .
	.word	__kvm_nvhe_alt_cb_patch_nops - .
	.hword	0x8000 | 70
	.byte	666b - 665b
	.byte	0
	.popsection

// Clean kernel shapes (Linux 6.12 arm64, regressions from kbuild objects).

// smccc-call.S: `ldp xzr, x19, [sp], #16` loads into xzr, not sp.
	.text
	.p2align 2
	.globl	load_into_xzr
	.type	load_into_xzr, %function
load_into_xzr:
	stp	x1, x19, [sp, #-16]!
	mov	x19, x0
	hvc	#0
	ldr	x19, [sp]
	str	x0, [x19]
	ldp	xzr, x19, [sp], #16
	ret
	.size	load_into_xzr, .-load_into_xzr

// call_on_irq_stack / efi-rt-wrapper.S: run on another stack under a frame
// record, store there, and come back through `mov sp, x29`.
	.globl	on_other_stack
	.type	on_other_stack, %function
on_other_stack:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	add	sp, x16, #4096
	stp	x18, x29, [sp, #-16]!
	mov	x19, x0
	blr	x1
	mov	sp, x29
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	on_other_stack, .-on_other_stack

// The context switch returns on the next task's stack: listed in
// rules/stack.toml (non_standard), not reported.
	.globl	cpu_switch_to
	.type	cpu_switch_to, %function
cpu_switch_to:
	mov	x10, #16
	add	x8, x0, x10
	mov	x9, sp
	stp	x19, x20, [x8], #16
	stp	x29, x9, [x8], #16
	str	x30, [x8]
	add	x8, x1, x10
	ldp	x19, x20, [x8], #16
	ldp	x29, x9, [x8], #16
	ldr	x30, [x8]
	mov	sp, x9
	ret
	.size	cpu_switch_to, .-cpu_switch_to
