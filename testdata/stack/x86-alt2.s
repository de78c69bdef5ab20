# Two alternatives at one site, as Linux's FILL_RETURN_BUFFER makes with
# ALTERNATIVE_2 (__switch_to_asm, entry_ibpb, __svm_vcpu_run): a jump over
# the site in the original, the RSB-stuffing loop in the first replacement,
# one stuffed return in the second; the replacements' stack offsets differ
# at different bytes. objtool 6.12 writes the ORC of all three laid over
# each other; objtool before 6.3 ("objtool: Fix overlapping alternatives")
# kept a group per entry and wrote the last entry's states only. As Linux
# 6.1 has it, the second replacement ends (13 bytes) where the first makes
# its second call, one word deeper: objtool 6.12 says "stack layout
# conflict in alternatives" (6.1's did not look). With FIXED, as 6.12 has
# it (`nop; nop; __FILL_ONE_RETURN`): no conflict. Built with
# .altinstructions entries as each version lays them out (14 bytes; with
# V61, 12).
	.text
	.globl	stuff_rsb
	.type	stuff_rsb, @function
stuff_rsb:
	push	%rbp
	push	%rbx
	push	%r12
.Lsite:
	jmp	.Lskip
	.fill	29, 1, 0x90
.Lsite_end:
.Lskip:
	pop	%r12
	pop	%rbx
	pop	%rbp
	ret
	.size	stuff_rsb, .-stuff_rsb

	.section .altinstr_replacement, "ax", @progbits
.Lloop_stuff:
	mov	$16, %r12
1:
.Lcall1:
	call	2f
	int3
2:
.Lcall2:
	call	3f
	int3
3:
	add	$16, %rsp
	dec	%r12
	jnz	1b
	lfence
.Lloop_stuff_end:
.Lone_stuff:
.ifdef FIXED
	nop
	nop
.endif
.Lcall3:
	call	4f
	int3
4:
	add	$8, %rsp
	lfence
.Lone_stuff_end:

	.section .discard.intra_function_calls, "a"
	.long	.Lcall1
	.long	.Lcall2
	.long	.Lcall3

	.section .altinstructions, "a"
.macro entry repl, repl_end, feature
	.long	.Lsite - .
	.long	\repl - .
.ifdef V61
	.word	\feature
.else
	.long	\feature
.endif
	.byte	.Lsite_end - .Lsite
	.byte	\repl_end - \repl
.endm
	entry	.Lloop_stuff, .Lloop_stuff_end, 0x100
	entry	.Lone_stuff, .Lone_stuff_end, 0x8001
