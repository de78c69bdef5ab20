# Landing pads and special symbol indexes for `seal`, `symdiff` and
# `symtab-shndx` (x86-64, IBT). Assembled with GNU as.

	.set	abs_local, 0x1234		# SHN_ABS, local
	.globl	abs_global
	.set	abs_global, 0xfeed		# SHN_ABS, global
	.comm	common_buf, 64, 16		# SHN_COMMON
	.lcomm	local_buf, 32			# .bss, local

	.text
	.type	called, @function		# local, only called directly: sealable
called:
	endbr64
	movl	$1, %eax
	ret
	.size	called, .-called

	.type	stored, @function		# local, address stored in .data: needed
stored:
	endbr64
	movl	$2, %eax
	ret
	.size	stored, .-stored

	.type	loaded, @function		# local, address loaded with lea: needed
loaded:
	endbr64
	movl	$3, %eax
	ret
	.size	loaded, .-loaded

	.globl	api
	.type	api, @function			# global: needed per object, sealable with --link
api:
	endbr64
	call	called
	leaq	loaded(%rip), %rax
	call	*%rax
	jmp	tail
	.size	api, .-api

	.type	tail, @function			# local, reached by a tail jump: sealable
tail:
	endbr64
	ret
	.size	tail, .-tail

	.type	noseal, @function		# local, unreferenced, but IBT_NOSEAL: needed
noseal:
	endbr64
	ret
	.size	noseal, .-noseal
	.pushsection .discard.ibt_endbr_noseal,"",@progbits
	.quad	noseal
	.popsection
	.pushsection .discard.retpoline_safe,"",@progbits # annotations name code
	.long	called - .				# without taking its address
	.popsection

	.section .text.unref,"ax",@progbits
	.type	lonely, @function		# local, never referenced; its section has
lonely:						# no section symbol, so `--mode section`
	endbr64					# must add one and renumber the globals
	ret
	.size	lonely, .-lonely

	.data
	.type	table, @object
table:
	.quad	stored
	.quad	abs_local
	.size	table, .-table
	.section .note.GNU-stack,"",@progbits
