// Hand-written arm64 object, layout 4,2 (CALL_OPS: 2 NOPs before each entry,
// 2 after, as the Debian arm64 modules are built), one defect per function.
// Fine: ok1, ok2, ok3.
	.text
	.p2align 3

	.macro func name
	.globl \name
	.type \name, %function
\name:
	.endm

	.p2align 3
.Lsite_ok1:
	nop
	nop
	func ok1
	nop
	nop
	ret
	.size ok1, .-ok1

	.p2align 3
.Lsite_ok2:
	nop
	nop
	func ok2
	nop
	nop
	ret
	.size ok2, .-ok2

	.p2align 3
.Lsite_ok3:
	nop
	nop
	func ok3
	nop
	nop
	ret
	.size ok3, .-ok3

// A non-NOP before the entry.
	.p2align 3
.Lsite_bad_nop:
	nop
	mov x0, x0
	func bad_nop
	nop
	nop
	ret
	.size bad_nop, .-bad_nop

// Only one NOP after the entry: the site is 3 NOPs, not 4.
	.p2align 3
.Lsite_short_tail:
	nop
	nop
	func short_tail
	nop
	add x0, x0, #1
	ret
	.size short_tail, .-short_tail

// The function starts at 4 mod 8: its ops slot at f-8 is misaligned.
	.p2align 3
	nop
.Lsite_misaligned:
	nop
	nop
	func misaligned
	nop
	nop
	ret
	.size misaligned, .-misaligned

// Entry into the middle of a function.
	.p2align 3
	func mid
	add x0, x0, #1
	add x0, x0, #2
	ret
	.size mid, .-mid

// Two entries for one function.
	.p2align 3
.Lsite_dup:
	nop
	nop
	func dup
	nop
	nop
	ret
	.size dup, .-dup

	.section __patchable_function_entries, "aw", %progbits
	.p2align 3
	.xword .Lsite_ok1
	.xword .Lsite_ok2
	.xword .Lsite_ok3
	.xword .Lsite_bad_nop
	.xword .Lsite_short_tail
	.xword .Lsite_misaligned
	.xword mid + 4
	.xword .Lsite_dup
	.xword .Lsite_dup
