# Shapes of x86 kernel objects (6.12, clang-19 kCFI + IBT) that reference code
# without an indirect branch to it, and the cases next to them still reported.
	.section .note.gnu.property,"a"
	.p2align 3
	.long 4, 16, 5
	.asciz "GNU"
	.long 0xc0000002, 4, 3		# X86_FEATURE_1_AND: IBT | SHSTK
	.p2align 3

	.text
# A kCFI preamble (`__cfi_f`: mov $hash, %eax; NOPs) and its function.
	.globl __cfi_handler
	.type __cfi_handler, @function
__cfi_handler:
	movl $0x12345678, %eax
	.fill 11, 1, 0x90
	.size __cfi_handler, . - __cfi_handler
	.globl handler
	.type handler, @function
handler:
	endbr64
	ret
	.size handler, . - handler

# entry_64_compat.S: a SYM_CODE routine starting with ENDBR64 and a zero-size
# `__end_*` label after it; is_sysenter_singlestep() compares against both.
	.globl entry_compat
entry_compat:
	endbr64
	ud2
	.globl __end_entry_compat
__end_entry_compat:
	.size entry_compat, __end_entry_compat - entry_compat
	int3

# relocate_kernel_64.S: relocate_range (0x10 bytes, no ENDBR) followed by a
# kCFI preamble; callthunks.c tests `dest < relocate_kernel + size`.
	.globl relocate_range
relocate_range:
	.globl relocate_kernel
	.type relocate_kernel, @function
relocate_kernel:
	nop
	ret
	.size relocate_kernel, . - relocate_kernel
	.fill 14, 1, 0xcc
	.size relocate_range, . - relocate_range
	.globl __cfi_copy_page
	.type __cfi_copy_page, @function
__cfi_copy_page:
	movl $0x9abcdef0, %eax
	.fill 11, 1, 0x90
	.size __cfi_copy_page, . - __cfi_copy_page
	.globl copy_page
	.type copy_page, @function
copy_page:
	endbr64
	ret
	.size copy_page, . - copy_page

# Still reported: a routine without ENDBR64 that starts where a function ends,
# named directly.
	.type before, @function
before:
	endbr64
	ret
	.size before, . - before
	.globl after_routine
after_routine:
	ret
	.size after_routine, . - after_routine

	.globl user
	.type user, @function
user:
	endbr64
	leaq __end_entry_compat(%rip), %rax	# range end (zero-size label)
	cmpq $relocate_kernel + 0x10, %rdi	# range end (sym + size of its alias)
	movq $after_routine, %rax		# reported
	ret
	.size user, . - user

# objtool's FineIBT list (`--cfi`): 4-byte PC-relative entries to preambles.
	.section .cfi_sites, "a"
	.long __cfi_handler - .
	.long __cfi_copy_page - .
