# analysis-incomplete, cause table-entry: table entries that name places
# which are no instruction. The edge or mark each describes cannot be
# applied; before this cause existed they were dropped without a word.
# Assembled with `--defsym CLEAN=1` every entry names an instruction and
# nothing is reported.
	.text
	.globl	get_user_like
	.type	get_user_like, @function
get_user_like:
	stac
1:	movl	(%rdi), %eax
	clac
	ret
2:	clac
3:	movl	$-14, %eax
	ret
	.size	get_user_like, .-get_user_like

	.globl	keyed
	.type	keyed, @function
keyed:
4:	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00	# jump label site: nopl 0(%rax,%rax)
	movl	$1, %eax
	ret
5:	movl	$2, %eax
	ret
	.size	keyed, .-keyed

	.globl	alt_user
	.type	alt_user, @function
alt_user:
6:	.byte	0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00	# original: a 6-byte NOP
	movl	$3, %eax
	ret
	.size	alt_user, .-alt_user

	.globl	warns
	.type	warns, @function
warns:
	testl	%edi, %edi
	je	8f
	ud2				# WARN()
8:	ret
	.size	warns, .-warns

	.section .altinstr_replacement, "ax"
9:	stac
	clac
10:

	.section .altinstructions, "a"		# struct alt_instr, 14 bytes
	.long	6b - .
	.long	9b - .
	.long	9			# X86_FEATURE_SMAP, no flags
.ifdef CLEAN
	.byte	6			# the original's length
.else
	.byte	7			# ends inside `movl $3, %eax`
.endif
	.byte	10b - 9b
.ifndef CLEAN
	.long	elsewhere - .		# an original in another object
	.long	9b - .
	.long	9
	.byte	6
	.byte	10b - 9b
.endif

	.section __ex_table, "a"
	.balign 4
	.long	1b - .
.ifdef CLEAN
	.long	2b - .
.else
	.long	3b + 1 - .		# the fixup: inside `movl $-14, %eax`
.endif
	.long	0

	.section __jump_table, "aw"
	.balign 8
	.long	4b - .
.ifdef CLEAN
	.long	5b - .
.else
	.long	5b + 2 - .		# the target: inside `movl $2, %eax`
.endif
	.quad	the_key - .

	.data
the_key:
	.quad	0

	.section .discard.reachable, "", @progbits	# the instruction after a trap
.ifdef CLEAN
	.long	8b - .
.else
	.long	get_user_like - .	# none precedes the section's first
.endif
