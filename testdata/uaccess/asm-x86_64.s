# Hand-written x86-64 cases the compiler does not produce on its own.
	.text

# uaccess-return: a bare STAC (not an alternative) left open at the return.
	.globl raw_open_return
	.type raw_open_return, @function
raw_open_return:
	stac
	movl (%rdi), %eax
	ret
	.size raw_open_return, .-raw_open_return

# uaccess-redundant: STAC while already open (objtool: recursive UACCESS enable).
	.globl open_twice
	.type open_twice, @function
open_twice:
	stac
	stac
	clac
	ret
	.size open_twice, .-open_twice

# Clean: pushf saves the open state, clac closes it around the call, popf
# restores it and clac closes it for good.
	.globl pushf_ok
	.type pushf_ok, @function
pushf_ok:
	stac
	pushf
	clac
	call helper
	popf
	clac
	ret
	.size pushf_ok, .-pushf_ok

# uaccess-call: popf brings back the open state saved by pushf.
	.globl popf_reopens
	.type popf_reopens, @function
popf_reopens:
	stac
	pushf
	clac
	popf
	call helper
	clac
	ret
	.size popf_reopens, .-popf_reopens

# uaccess-call in the .cold part: the path follows the jump into it.
	.globl split
	.type split, @function
split:
	stac
	testl %esi, %esi
	jne split.cold
	clac
	ret
	.size split, .-split

	.section .text.unlikely,"ax",@progbits
	.type split.cold, @function
split.cold:
	call helper
	clac
	ret
	.size split.cold, .-split.cold

# A uaccess-safe function starts with access open: its call is reported,
# its return is not.
	.text
	.globl rep_movs_alternative
	.type rep_movs_alternative, @function
rep_movs_alternative:
	call helper
	ret
	.size rep_movs_alternative, .-rep_movs_alternative

# Alternatives with the 12-byte struct alt_instr of older kernels (u16 cpuid):
# STAC patched over three NOPs, then a call.
	.globl old_layout
	.type old_layout, @function
old_layout:
771:	nop
	nop
	nop
772:
	.pushsection .altinstructions,"a"
	.long 771b - .
	.long 774f - .
	.word 308
	.byte 772b-771b
	.byte 775f-774f
	.popsection
	.pushsection .altinstr_replacement,"ax"
774:	.byte 0x0f,0x01,0xcb
775:
	.popsection
	call helper
	ret
	.size old_layout, .-old_layout

# Clean, same layout: the call comes after CLAC.
	.globl old_layout_ok
	.type old_layout_ok, @function
old_layout_ok:
771:	nop
	nop
	nop
772:
	.pushsection .altinstructions,"a"
	.long 771b - .
	.long 774f - .
	.word 308
	.byte 772b-771b
	.byte 775f-774f
	.popsection
	.pushsection .altinstr_replacement,"ax"
774:	.byte 0x0f,0x01,0xcb
775:
	.popsection
	movl (%rdi), %eax
771:	nop
	nop
	nop
772:
	.pushsection .altinstructions,"a"
	.long 771b - .
	.long 774f - .
	.word 308
	.byte 772b-771b
	.byte 775f-774f
	.popsection
	.pushsection .altinstr_replacement,"ax"
774:	.byte 0x0f,0x01,0xca
775:
	.popsection
	jmp helper
	.size old_layout_ok, .-old_layout_ok
