// Shapes of arm64 kernel assembly (6.12 arch/arm64/kernel/entry.S) that take
// code addresses without an indirect branch to them, and the cases next to
// them that must still be reported. Built with BTI claimed in the note.
	.section .note.gnu.property,"a"
	.p2align 3
	.word 4, 16, 5
	.asciz "GNU"
	.word 0xc0000000, 4, 3		// AARCH64_FEATURE_1_AND: BTI | PAC
	.p2align 3

	.text
// SYM_CODE_START(vectors): an exception vector table (STT_NOTYPE, no BTI).
// Its address goes to VBAR_EL1; exceptions enter it with BTYPE 0.
	.globl vectors
	.p2align 11
vectors:
	.rept 16
	b	.
	.p2align 7
	.endr
	.size vectors, . - vectors

// The KPTI/BHB trampoline shape: adr_l x30, vectors; msr vbar_el1; ret.
	.globl install_vectors
	.type install_vectors,%function
install_vectors:
	bti	c
	adrp	x30, vectors
	add	x30, x30, :lo12:vectors
	msr	vbar_el1, x30
	ret
	.size install_vectors, . - install_vectors

// SYM_CODE_START(__sdei_handler_abort) shape: a NOTYPE routine hands the
// firmware its own label to resume at (reached by ERET, not a branch).
	.globl sdei_abort
sdei_abort:
	adr	x1, 1f
	hvc	#0
1:	ret
	.size sdei_abort, . - sdei_abort

// Still reported: a label inside another NOTYPE routine, taken from outside it.
	.globl other_code
other_code:
	nop
2:	ret
	.size other_code, . - other_code

	.globl taker
	.type taker,%function
taker:
	bti	c
	adr	x0, 2b
	ret
	.size taker, . - taker

// A switch whose index comes from a spill: no bounds check, so the table's
// size is unknown and it is not read (its missing `bti j` goes unreported,
// and `objlint stats` counts the dispatch as unread).
	.globl spilled_switch
	.type spilled_switch,%function
spilled_switch:
	bti	c
	ldr	w8, [sp, #8]
	adrp	x9, .Ltbl
	add	x9, x9, :lo12:.Ltbl
	adr	x10, .Lc0
	ldrb	w11, [x9, x8]
	add	x10, x10, x11, lsl #2
	br	x10
.Lc0:	nop
	ret
.Lc1:	bti	j
	ret
	.size spilled_switch, . - spilled_switch

	.section .rodata
.Ltbl:	.byte (.Lc0 - .Lc0) >> 2, (.Lc1 - .Lc0) >> 2

	.section .data
	.quad	vectors		// exempt: a vector table (entry.S's __entry_tramp_data_vectors)
	.quad	other_code	// reported: a NOTYPE routine's start is branchable
