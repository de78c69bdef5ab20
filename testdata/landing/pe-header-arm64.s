// arm64's EFI PE/COFF header (arch/arm64/kernel/efi-header.S): fields hold
// offsets from the image's start, `.long sym - .L_head`, which the assembler
// writes as R_AARCH64_PREL32 against sym with the field's own offset as
// addend. The place meant is sym, not sym plus the field's offset: the entry
// the firmware branches to must start with a landing pad (with BTI the kernel
// tells the firmware it may enforce it), and only efi_nopad does not.
	.section .head.text,"ax"
.L_head:
	b	efi_entry
	.long	0
	.long	0x5a4d
	.long	0x4550
	.long	efi_entry - .L_head	// AddressOfEntryPoint: fine
	.long	efi_nopad - .L_head	// finding at efi_nopad+0x0
	.long	.Lhdr_end - .L_head	// within the header: not code
.Lhdr_end:

	.text
	.globl	efi_entry
	.type	efi_entry, %function
efi_entry:
	paciasp				// an implicit `bti c`
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	autiasp
	ret
	.size	efi_entry, .-efi_entry

	.globl	efi_nopad
	.type	efi_nopad, %function
efi_nopad:
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	ret
	.size	efi_nopad, .-efi_nopad

	.section .note.gnu.property,"a"
	.p2align 3
	.word	4, 16, 5
	.asciz	"GNU"
	.word	0xc0000000, 4, 3, 0	// GNU_PROPERTY_AARCH64_FEATURE_1_AND: BTI, PAC
