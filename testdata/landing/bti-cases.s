// Hand-written BTI cases: address-taking relocations of every kind, to
// places with and without landing pads, from exempt and non-exempt sections.
	.section .note.gnu.property,"a"
	.p2align 3
	.word 4, 16, 5
	.asciz "GNU"
	.word 0xc0000000, 4, 3		// AARCH64_FEATURE_1_AND: BTI | PAC
	.p2align 3

	.text
	.globl with_bti_c
	.type with_bti_c,%function
with_bti_c:
	bti c
	ret
	.size with_bti_c,.-with_bti_c

	.type with_paciasp,%function	// implicit BTI c
with_paciasp:
	paciasp
	autiasp
	ret
	.size with_paciasp,.-with_paciasp

	.type with_bti_j,%function	// BTI j does not accept calls: finding
with_bti_j:
	bti j
	ret
	.size with_bti_j,.-with_bti_j

	.type jumped_tramp,%function	// BTI j, its address computed in code for a br: fine
jumped_tramp:
	bti j
	ret
	.size jumped_tramp,.-jumped_tramp

	.type no_pad_abs,%function	// ABS64 from .data: finding
no_pad_abs:
	ret
	.size no_pad_abs,.-no_pad_abs

	.type no_pad_adrp,%function	// adrp + add :lo12: finding at the add
no_pad_adrp:
	ret
	.size no_pad_adrp,.-no_pad_adrp

	.type no_pad_prel,%function	// PREL32 from .rodata: finding
no_pad_prel:
	ret
	.size no_pad_prel,.-no_pad_prel

	.type loaded_only,%function	// adrp + ldr :lo12: is a load, not a pointer
loaded_only:
	ret
	.size loaded_only,.-loaded_only

	.type only_exempt,%function	// referenced from __ex_table only
only_exempt:
	nop
1:	ret
	.size only_exempt,.-only_exempt

	.type has_label,%function
has_label:
	bti c
	nop
label_j:				// BTI j inside a function: fine as a jump target
	bti j
	nop
label_none:				// no pad: finding
	ret
	.size has_label,.-has_label

	.globl user
	.type user,%function
user:
	bti c
	adrp x0, no_pad_adrp
	add x0, x0, :lo12:no_pad_adrp	// finding
	adrp x1, loaded_only
	ldr x1, [x1, :lo12:loaded_only]	// load: fine
	adr x2, label_j			// fine
	adr x3, label_none		// resolved by the assembler: finding
	adr x4, 2f			// label in itself: exempt
	bl no_pad_abs			// direct call: no pad needed
	b.eq with_bti_j			// direct branch: no pad needed
	adrp x5, jumped_tramp
	add x5, x5, :lo12:jumped_tramp	// for a br (bpf_jit_comp.c's dummy_tramp): fine
	adrp x6, with_bti_j
	add x6, x6, :lo12:with_bti_j	// the same: fine (the .xword below is not)
2:	ret
	.size user,.-user

	.data
	.p2align 3
	.xword with_bti_c		// fine
	.xword with_paciasp		// fine
	.xword with_bti_j		// finding
	.xword no_pad_abs		// finding
	.xword external_fn		// undefined: outside this object

	.section .rodata,"a"
	.p2align 2
	.word no_pad_prel - .		// finding

	.section __ex_table,"a"
	.p2align 2
	.word only_exempt - .
	.word 1b - .
