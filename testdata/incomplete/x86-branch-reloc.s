# analysis-incomplete, cause branch-target: branches whose relocation is of
# a type no branch takes (R_X86_64_32 on a rel32), so where they go is not
# known. Until 2026-12-04 objlint took the unrelocated bytes' own target
# (the next instruction) without a word.
	.text
	.globl	odd_jump
	.type	odd_jump, @function
odd_jump:
	test	%edi, %edi
	.reloc	1f, R_X86_64_32, elsewhere
	.byte	0x0f, 0x84	# je rel32
1:	.long	0
	ret
	.size	odd_jump, .-odd_jump

	.globl	odd_call
	.type	odd_call, @function
odd_call:
	.reloc	2f, R_X86_64_32, elsewhere
	.byte	0xe8		# call rel32
2:	.long	0
	ret
	.size	odd_call, .-odd_call

# Clean: the same branches with the relocations they take.
	.globl	plain_branches
	.type	plain_branches, @function
plain_branches:
	test	%edi, %edi
	je	elsewhere
	call	elsewhere
	ret
	.size	plain_branches, .-plain_branches
