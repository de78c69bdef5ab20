// Stack and return-address faults, one per function, with the clean forms.
	.text
	.p2align 2

// Signs, never authenticates.
	.globl	pac_no_auth
	.type	pac_no_auth, %function
pac_no_auth:
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	ret
	.size	pac_no_auth, .-pac_no_auth

// Signs with key A, authenticates with key B.
	.globl	pac_wrong_key
	.type	pac_wrong_key, %function
pac_wrong_key:
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	autibsp
	ret
	.size	pac_wrong_key, .-pac_wrong_key

// Authenticates with the stack pointer 32 bytes below where it signed.
	.globl	pac_wrong_sp
	.type	pac_wrong_sp, %function
pac_wrong_sp:
	paciasp
	sub	sp, sp, #32
	stp	x29, x30, [sp, #16]
	add	x29, sp, #16
	bl	other
	ldp	x29, x30, [sp, #16]
	autiasp
	add	sp, sp, #32
	ret
	.size	pac_wrong_sp, .-pac_wrong_sp

// Authenticates, then reloads the signed copy from its stack slot.
	.globl	pac_reload
	.type	pac_reload, %function
pac_reload:
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	autiasp
	ldr	x30, [sp, #-8]
	ret
	.size	pac_reload, .-pac_reload

// The frame record is never reloaded: x29 and x30 are lost.
	.globl	no_reload
	.type	no_reload, %function
no_reload:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	bl	other
	add	sp, sp, #32
	ret
	.size	no_reload, .-no_reload

// The frame still set up at a tail call.
	.globl	sibling_modified
	.type	sibling_modified, %function
sibling_modified:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	b	other
	.size	sibling_modified, .-sibling_modified

// Two paths reach the return with different stack pointers.
	.globl	mismatch
	.type	mismatch, %function
mismatch:
	cbz	x0, 1f
	sub	sp, sp, #16
1:	ret
	.size	mismatch, .-mismatch

// sp moved by a register: the model cannot follow.
	.globl	undefined_state
	.type	undefined_state, %function
undefined_state:
	sub	sp, sp, x9
	stp	x29, x30, [sp, #-16]!
	ldp	x29, x30, [sp], #16
	ret
	.size	undefined_state, .-undefined_state

// A call before the frame record exists (frame-pointer builds).
	.globl	call_before_frame
	.type	call_before_frame, %function
call_before_frame:
	str	x30, [sp, #-16]!
	bl	other
	ldr	x30, [sp], #16
	ret
	.size	call_before_frame, .-call_before_frame

// The clean forms.
	.globl	pac_ok
	.type	pac_ok, %function
pac_ok:
	paciasp
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x19, [sp, #16]
	mov	x19, x0
	bl	other
	mov	x0, x19
	ldr	x19, [sp, #16]
	ldp	x29, x30, [sp], #32
	autiasp
	ret
	.size	pac_ok, .-pac_ok

	.globl	retaa_ok
	.type	retaa_ok, %function
retaa_ok:
	pacibsp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	retab
	.size	retaa_ok, .-retaa_ok

	.globl	tail_ok
	.type	tail_ok, %function
tail_ok:
	paciasp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	other
	ldp	x29, x30, [sp], #16
	autiasp
	b	other
	.size	tail_ok, .-tail_ok

	.globl	other
	.type	other, %function
other:
	ret
	.size	other, .-other
