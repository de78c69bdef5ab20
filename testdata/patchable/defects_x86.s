# Hand-written x86-64 object, layout 16,16 (16 NOP bytes before each entry,
# ENDBR64 at the entry, as gcc -fpatchable-function-entry=16,16 builds it),
# with one patchable-entry defect per function. Fine: ok1, ok2, ok3, notrace.
	.text
	.p2align 4

	.macro site name
	.p2align 4
.Lsite_\name:
	.rept 16
	nop
	.endr
	.globl \name
	.type \name, @function
\name:
	.endm

	site ok1
	endbr64
	ret
	.size ok1, .-ok1

	site ok2
	endbr64
	ret
	.size ok2, .-ok2

	site ok3
	endbr64
	ret
	.size ok3, .-ok3

# A non-NOP inside the 16 bytes (int3 at bad_nop-1).
	.p2align 4
.Lsite_bad_nop:
	.rept 15
	nop
	.endr
	int3
	.globl bad_nop
	.type bad_nop, @function
bad_nop:
	endbr64
	ret
	.size bad_nop, .-bad_nop

# The entry points at mid+6 (the ret), inside the function.
	site mid
	endbr64
	mov %edi, %eax
	ret
	.size mid, .-mid

# Two entries for one function.
	site dup
	endbr64
	ret
	.size dup, .-dup

# Listed in __mcount_loc as well (seed 003).
	site both
	endbr64
	ret
	.size both, .-both

# No patch site at all: fine (notrace).
	.p2align 4
	.globl notrace
	.type notrace, @function
notrace:
	endbr64
	ret
	.size notrace, .-notrace

	.section .rodata
.Lnot_code:
	.quad 0

	.section __patchable_function_entries, "aw", @progbits
	.p2align 3
	.quad .Lsite_ok1
	.quad .Lsite_ok2
	.quad .Lsite_ok3
	.quad .Lsite_bad_nop
	.quad mid + 6
	.quad .Lsite_dup
	.quad .Lsite_dup
	.quad .Lsite_both
	.quad .Lnot_code
	.quad 0
	.quad undefined_function

	.section __mcount_loc, "a", @progbits
	.p2align 3
	.quad .Lsite_both
