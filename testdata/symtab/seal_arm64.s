// Landing pads and special symbol indexes for `seal`, `symdiff` and
// `symtab-shndx` (arm64, BTI). Assembled with aarch64-linux-gnu-as.

	.set	abs_local, 0x1234		// SHN_ABS, local
	.globl	abs_global
	.set	abs_global, 0xfeed		// SHN_ABS, global
	.comm	common_buf, 64, 16		// SHN_COMMON

	.text
	.type	called, %function		// local, only called directly: sealable
called:
	bti	c
	mov	w0, #1
	ret
	.size	called, .-called

	.type	stored, %function		// local, address stored in .data: needed
stored:
	bti	c
	mov	w0, #2
	ret
	.size	stored, .-stored

	.type	loaded, %function		// local, address taken with adr: needed
loaded:
	bti	c
	mov	w0, #3
	ret
	.size	loaded, .-loaded

	.type	paged, %function		// local, address taken with adrp+add: needed
paged:
	bti	c
	mov	w0, #4
	ret
	.size	paged, .-paged

	.globl	api
	.type	api, %function			// global: needed per object, sealable with --link
api:
	bti	c
	paciasp
	stp	x29, x30, [sp, #-16]!
	bl	called
	adr	x0, loaded
	blr	x0
	adrp	x0, paged
	add	x0, x0, :lo12:paged
	blr	x0
	ldp	x29, x30, [sp], #16
	autiasp
	b	tail
	.size	api, .-api

	.type	tail, %function			// local, reached by a tail branch: sealable
tail:
	bti	c
	ret
	.size	tail, .-tail

	.section .text.unref,"ax",%progbits
	.type	lonely, %function		// local, never referenced: sealable, and its
lonely:						// section has no section symbol
	bti	c
	ret
	.size	lonely, .-lonely

	.data
	.type	table, %object
table:
	.quad	stored
	.quad	abs_local
	.size	table, .-table
	.section .note.GNU-stack,"",%progbits
