// fallthrough from code outside every function, arm64. A path that jumps
// past its function's end to code no symbol covers and runs on from there
// into the next function is reported, as on x86 (x86/unowned-run.s, with
// objtool's verdict). Not reported: clang's bound of a switch that it
// proved never met (`b.hi` to the first byte past the function), where code
// outside every function follows the function and the next function's kCFI
// hash (`$d`) follows that: the arm64 clang vmlinux.o's nVHE copy of
// __vgic_v3_clear_active_lr has this shape. Nor its inverted form (at the
// end of this file).
	.text
	.globl	dead_bound
	.type	dead_bound, %function
dead_bound:
	bti	c
	and	w8, w0, #0xf
	cmp	w8, #0xf
	b.hi	.Lafter_dead_bound
	ret
	.size	dead_bound, .-dead_bound
.Lafter_dead_bound:
	mrs	x8, elr_el1
	msr	elr_el1, x8
	.word	0x12345678
	.globl	next_hashed
	.type	next_hashed, %function
next_hashed:
	bti	c
	ret
	.size	next_hashed, .-next_hashed

// Reported: an unconditional branch to the same place is a path.
	.globl	leaves
	.type	leaves, %function
leaves:
	bti	c
	cbz	w0, 1f
	ret
1:	b	.Lafter_leaves
	.size	leaves, .-leaves
.Lafter_leaves:
	mov	w0, #0
	.globl	next
	.type	next, %function
next:
	bti	c
	ret
	.size	next, .-next

// Reported: the same, running into data.
	.globl	leaves_into_data
	.type	leaves_into_data, %function
leaves_into_data:
	bti	c
	cbz	w0, 1f
	ret
1:	b	.Lafter_into_data
	.size	leaves_into_data, .-leaves_into_data
.Lafter_into_data:
	mov	w0, #0
	.word	0x12345678
	.globl	last
	.type	last, %function
last:
	bti	c
	ret
	.size	last, .-last

// Not reported: the same bound inverted, as Linux 7.3's clang lays out
// vgic-v3-sr.c's `switch (lr & 0xf)` before `unreachable()`: `b.ls` to the
// cases, then an unconditional branch to the function's end, where only the
// padding NOPs before the next function lie.
	.globl	inverted_bound
	.type	inverted_bound, %function
inverted_bound:
	bti	c
	and	w8, w0, #0xf
	cmp	w8, #0xf
	b.ls	1f
	b	.Lafter_inverted_bound
1:	ret
	.size	inverted_bound, .-inverted_bound
.Lafter_inverted_bound:
	nop
	nop
	.globl	after_padding
	.type	after_padding, %function
after_padding:
	bti	c
	ret
	.size	after_padding, .-after_padding
