// clang-19 --target=aarch64-linux-gnu -O2 -mbranch-protection=bti -S switch-table.c,
// then edited by hand (build.sh does it with awk): the 3rd case's `hint #36` (bti j)
// became `nop` and the 5th case's became `hint #34` (bti c, a call pad: wrong
// kind for the table's `br x10`). bti-missing-landing-pad must report both.
	.text
	.section	.note.gnu.property,"a",@note
	.p2align	3, 0x0
	.word	4
	.word	16
	.word	5
	.asciz	"GNU"
	.word	3221225472
	.word	4
	.word	1
	.word	0
.Lsec_end0:
	.text
	.file	"switch-table.c"
	.globl	table_dispatch                  // -- Begin function table_dispatch
	.p2align	2
	.type	table_dispatch,@function
table_dispatch:                         // @table_dispatch
	.cfi_startproc
// %bb.0:
	hint	#34
	stp	x29, x30, [sp, #-32]!           // 16-byte Folded Spill
	.cfi_def_cfa_offset 32
	str	x19, [sp, #16]                  // 8-byte Folded Spill
	mov	x29, sp
	.cfi_def_cfa w29, 32
	.cfi_offset w19, -16
	.cfi_offset w30, -24
	.cfi_offset w29, -32
	.cfi_remember_state
	cmp	w0, #15
	b.hi	.LBB0_18
// %bb.1:
	mov	w8, w0
	adrp	x9, .LJTI0_0
	add	x9, x9, :lo12:.LJTI0_0
	adr	x10, .LBB0_2
	ldrb	w11, [x9, x8]
	add	x10, x10, x11, lsl #2
	br	x10
.LBB0_2:
	hint	#36
	mov	w0, w1
	bl	f0
	add	w0, w0, #7
	b	.LBB0_19
.LBB0_3:
	hint	#36
	add	w0, w1, #3
	bl	f2
	lsl	w8, w0, #3
	sub	w0, w8, w0
	b	.LBB0_19
.LBB0_4:
	nop					// was: hint #36 (bti j)
	add	w0, w1, w1, lsl #5
	b	.LBB0_19
.LBB0_5:
	hint	#36
	mov	w0, w1
	bl	f4
	mov	w8, #13                         // =0xd
	orr	w0, w0, w8
	b	.LBB0_19
.LBB0_6:
	hint	#34				// was: hint #36 (bti j)
	add	w0, w1, #1
	.cfi_def_cfa wsp, 32
	ldr	x19, [sp, #16]                  // 8-byte Folded Reload
	ldp	x29, x30, [sp], #32             // 16-byte Folded Reload
	.cfi_def_cfa_offset 0
	.cfi_restore w19
	.cfi_restore w30
	.cfi_restore w29
	b	f0
.LBB0_7:
	.cfi_restore_state
	hint	#36
	mov	w0, w1
	mov	w19, w1
	bl	f9
	mul	w0, w0, w19
	b	.LBB0_19
.LBB0_8:
	hint	#36
	mov	w0, w1
	bl	f2
	sub	w0, w0, #9
	b	.LBB0_19
.LBB0_9:
	hint	#36
	add	w0, w1, #4
	bl	f3
	sub	w0, w0, #1
	b	.LBB0_19
.LBB0_10:
	hint	#36
	mov	w0, w1
	bl	f3
	mov	w8, #11                         // =0xb
	eor	w0, w0, w8
	b	.LBB0_19
.LBB0_11:
	hint	#36
	mov	w0, w1
	mov	w19, w1
	bl	f7
	add	w0, w0, w19
	b	.LBB0_19
.LBB0_12:
	hint	#36
	mov	w0, w1
	bl	f1
	add	w0, w0, w0, lsl #1
	b	.LBB0_19
.LBB0_13:
	hint	#36
	mov	w0, w1
	bl	f5
	lsl	w0, w0, #2
	b	.LBB0_19
.LBB0_14:
	hint	#36
	add	w0, w1, #2
	bl	f1
	add	w0, w0, #5
	b	.LBB0_19
.LBB0_15:
	hint	#36
	mov	w0, w1
	bl	f6
	asr	w0, w0, #1
	b	.LBB0_19
.LBB0_16:
	hint	#36
	add	w0, w1, #100
	b	.LBB0_19
.LBB0_17:
	hint	#36
	mov	w0, w1
	mov	w19, w1
	bl	f8
	sub	w0, w0, w19
	b	.LBB0_19
.LBB0_18:
	mov	w0, #-1                         // =0xffffffff
.LBB0_19:
	.cfi_def_cfa wsp, 32
	ldr	x19, [sp, #16]                  // 8-byte Folded Reload
	ldp	x29, x30, [sp], #32             // 16-byte Folded Reload
	.cfi_def_cfa_offset 0
	.cfi_restore w19
	.cfi_restore w30
	.cfi_restore w29
	ret
.Lfunc_end0:
	.size	table_dispatch, .Lfunc_end0-table_dispatch
	.cfi_endproc
	.section	.rodata,"a",@progbits
.LJTI0_0:
	.byte	(.LBB0_2-.LBB0_2)>>2
	.byte	(.LBB0_12-.LBB0_2)>>2
	.byte	(.LBB0_8-.LBB0_2)>>2
	.byte	(.LBB0_10-.LBB0_2)>>2
	.byte	(.LBB0_5-.LBB0_2)>>2
	.byte	(.LBB0_13-.LBB0_2)>>2
	.byte	(.LBB0_15-.LBB0_2)>>2
	.byte	(.LBB0_11-.LBB0_2)>>2
	.byte	(.LBB0_17-.LBB0_2)>>2
	.byte	(.LBB0_7-.LBB0_2)>>2
	.byte	(.LBB0_16-.LBB0_2)>>2
	.byte	(.LBB0_4-.LBB0_2)>>2
	.byte	(.LBB0_6-.LBB0_2)>>2
	.byte	(.LBB0_14-.LBB0_2)>>2
	.byte	(.LBB0_3-.LBB0_2)>>2
	.byte	(.LBB0_9-.LBB0_2)>>2
                                        // -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
