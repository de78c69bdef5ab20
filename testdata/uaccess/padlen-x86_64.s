# The 13-byte struct alt_instr (u16 cpuid, u8 instrlen, u8 replacementlen,
# u8 padlen) of older kernels: STAC, an indirect call, CLAC.
	.text
	.globl padlen_layout
	.type padlen_layout, @function
padlen_layout:
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
	.byte 0
	.popsection
	.pushsection .altinstr_replacement,"ax"
774:	.byte 0x0f,0x01,0xcb
775:
	.popsection
	call *%rax
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
	.byte 0
	.popsection
	.pushsection .altinstr_replacement,"ax"
774:	.byte 0x0f,0x01,0xca
775:
	.popsection
	ret
	.size padlen_layout, .-padlen_layout
