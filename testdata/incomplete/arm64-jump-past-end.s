# Clean: clang's bound of a switch whose default case it proved unreachable
# is a branch to the first byte past the function (an empty block at its
# end). In a kCFI build the next function's type hash ($d) sits there, so
# the target is no instruction: a dead edge, not a gap (arm64 vmlinux.o's
# __vgic_v3_save_state and five more in arch/arm64/kvm/hyp/vgic-v3-sr.c).
	.text
	.globl	bounded_switch
	.type	bounded_switch, @function
bounded_switch:
	bti	c
	and	w8, w0, #0xf
	cmp	w8, #0x3
	b.hi	.Lend
	mov	w0, #1
	ret
.Lend:
	.size	bounded_switch, .-bounded_switch
	.word	0x12345678	// the next function's kCFI type hash
	.globl	next_fn
	.type	next_fn, @function
next_fn:
	bti	c
	cbz	w0, .Ldata	// data, not code: a gap
	mov	w0, #2
	ret
.Ldata:	.word	0xd503201f	// a NOP's bytes, marked data ($d)
	.size	next_fn, .-next_fn
