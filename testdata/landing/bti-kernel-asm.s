// Shapes of arm64 kernel assembly (6.12 arch/arm64/kernel/entry.S) that take
// code addresses without an indirect branch to them, and the cases next to
// them that must still be reported. Built with BTI claimed in the note.
	.section .note.gnu.property,"a"
	.p2align 3
	.word 4, 16, 5
	.asciz "GNU"
	.word 0xc0000000, 4, 3		// AARCH64_FEATURE_1_AND: BTI | PAC
	.p2align 3

// SYM_CODE_START(vectors): an exception vector table (STT_NOTYPE, no BTI),
// in .entry.text as in entry.S. Its address goes to VBAR_EL1; exceptions
// enter it with BTYPE 0.
	.section .entry.text,"ax"
	.globl vectors
	.p2align 11
vectors:
	.rept 16
	b	.
	.p2align 7
	.endr
	.size vectors, . - vectors

	.text

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

// A switch whose index comes from a spill: no bounds check ties to it, so
// the table is read up to the next address of .rodata a relocation or a
// symbol names (`objlint stats` counts it in jump_tables_sized_by_next).
// Its first case has no `bti j`: reported.
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

// entry-ftrace.S: a patch site's address is taken to rewrite its `bl`.
	.globl ftrace_caller
ftrace_caller:
	nop
	.globl ftrace_call
ftrace_call:
	bl	ftrace_stub
	ret
	.size ftrace_caller, . - ftrace_caller

	.globl update_ftrace_func
	.type update_ftrace_func,%function
update_ftrace_func:
	bti	c
	adrp	x0, ftrace_call
	add	x0, x0, :lo12:ftrace_call
	ret
	.size update_ftrace_func, . - update_ftrace_func

// arch/arm64/kernel/pi/ (no BTI, run before BTI is enforced), called through
// a table of filters in its own data.
	.pushsection .init.text,"ax"
	.type __pi_filter,%function
__pi_filter:
	mov	x0, #0
	ret
	.size __pi_filter, . - __pi_filter
	.popsection

// SDEI entry point handed to firmware (entered by ERET).
	.pushsection .entry.tramp.text,"ax"
	.globl __sdei_asm_entry_trampoline
__sdei_asm_entry_trampoline:
	mrs	x4, ttbr1_el1
	ret
	.size __sdei_asm_entry_trampoline, . - __sdei_asm_entry_trampoline
	.popsection

// Reported: a routine that starts where a function ends is a target of its
// own, not the function's range end.
	.type before_code,%function
before_code:
	bti	c
	ret
	.size before_code, . - before_code
	.globl after_func_code
after_func_code:
	ret
	.size after_func_code, . - after_func_code

// entry.S: cpu_switch_to ... ret_from_fork, whose address copy_thread()
// stores as the new task's pc (reached by `ret`).
	.type cpu_switch_to,%function
cpu_switch_to:
	bti	c
	ret
	.size cpu_switch_to, . - cpu_switch_to
	.globl ret_from_fork
ret_from_fork:
	bl	schedule_tail
	b	ret_to_user
	.size ret_from_fork, . - ret_from_fork

	.globl copy_thread
	.type copy_thread,%function
copy_thread:
	bti	c
	adrp	x8, ret_from_fork
	add	x8, x8, :lo12:ret_from_fork
	str	x8, [x0]
	ret
	.size copy_thread, . - copy_thread

	.section .rodata
.Ltbl:	.byte (.Lc0 - .Lc0) >> 2, (.Lc1 - .Lc0) >> 2

	.section .data
	.quad	vectors		// exempt: a vector table (entry.S's __entry_tramp_data_vectors)
	.quad	other_code	// reported: a NOTYPE routine's start is branchable
	.quad	__pi_filter	// exempt: early boot code without BTI
	.quad	__sdei_asm_entry_trampoline	// exempt: firmware entry point
	.quad	after_func_code	// reported
