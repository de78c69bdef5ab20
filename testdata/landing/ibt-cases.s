# Hand-written IBT cases: every place a reference can point at, with or
# without ENDBR64, from exempt and non-exempt sections.
	.section .note.gnu.property,"a"
	.p2align 3
	.long 4, 16, 5
	.asciz "GNU"
	.long 0xc0000002, 4, 1		# X86_FEATURE_1_AND: IBT
	.p2align 3

	.text
	.globl good
	.type good,@function
good:	endbr64
	ret
	.size good,.-good

	.type no_pad_data,@function	# taken by .data below: finding
no_pad_data:
	xorl %eax,%eax
	ret
	.size no_pad_data,.-no_pad_data

	.type no_pad_lea,@function	# taken by lea in user(): finding
no_pad_lea:
	ret
	.size no_pad_lea,.-no_pad_lea

	.type only_exempt,@function	# referenced from exempt sections only
only_exempt:
	movl $1,%eax
1:	ret
	.size only_exempt,.-only_exempt

	.type annotated,@function	# .discard.noendbr: no pad needed
annotated:
	ret
	.size annotated,.-annotated

	.type typed_noendbr,@function	# .discard.annotate_insn type 1
typed_noendbr:
	ret
	.size typed_noendbr,.-typed_noendbr

	.type typed_other,@function	# .discard.annotate_insn type 2: finding
typed_other:
	ret
	.size typed_other,.-typed_other

	.type noseal,@function		# .discard.ibt_endbr_noseal is not exempt: finding
noseal:
	ret
	.size noseal,.-noseal

	.pushsection .static_call.text,"ax"
	.type __SCT__my_call,@function	# static_call trampoline (where the kernel puts them)
__SCT__my_call:
	jmp good
	.size __SCT__my_call,.-__SCT__my_call
	.popsection

	.globl user
	.type user,@function
user:	endbr64
	leaq no_pad_lea(%rip),%rax	# resolved by the assembler, no relocation: finding
	leaq 2f(%rip),%rcx		# _THIS_IP_: same function, exempt
	leaq user(%rip),%rdx		# own entry: needs (and has) ENDBR
	movq $self_ref,%rsi		# own entry without ENDBR: finding
	call no_pad_data		# direct call: no pad needed
	jmp  typed_other		# direct jump: no pad needed
2:	ret
	.size user,.-user

	.type self_ref,@function
self_ref:
	movq $self_ref,%rax		# takes its own address: finding
	leaq 3f(%rip),%rdx		# label inside itself: exempt
3:	ret
	.size self_ref,.-self_ref
range_end:				# end marker: not a branch target

	.section .data,"aw"
	.quad good			# ENDBR64: fine
	.quad no_pad_data		# finding
	.quad __SCT__my_call		# static_call trampoline: exempt
	.quad range_end			# end of a function: exempt
	.quad external_fn		# undefined: outside this object
	.quad only_exempt+5		# middle of a function from data: finding
	.quad annotated			# annotated NOENDBR: exempt
	.quad typed_noendbr		# annotated NOENDBR (typed): exempt
	.quad typed_other+0		# typed annotation of another type: finding

	.section __ex_table,"a"
	.long only_exempt+5 - .
	.long 1b - .
	.section __jump_table,"aw"
	.quad only_exempt
	.section .discard.noendbr,""
	.long annotated - .
	.section .discard.annotate_insn,"M",@progbits,8
	.long typed_noendbr - .
	.long 1
	.long typed_other - .
	.long 2
	.section .discard.ibt_endbr_noseal,""
	.long noseal - .
	.section .rodata,"a"
	.long typed_other - .		# finding
