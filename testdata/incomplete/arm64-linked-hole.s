// analysis-incomplete, cause unwalked-code, in a linked object (a module:
// .gnu.linkonce.this_module). Code no symbol covers is what the link left of
// a weak definition another replaced, dead and left alone, unless something
// points into it: arch/arm64/crypto/aes-modes.S computes a branch into the
// out-of-line part of aes_ctr_encrypt (a `.subsection` past the symbol's
// size), `adr x16, 1f; sub x16, x16, x12, lsl #3; br x16`, which no walk
// follows (aes-neon-blk.ko, aes-ce-blk.ko of Debian 6.1 and 6.12).
	.text
	.p2align 2
	.globl	ctr_encrypt
	.type	ctr_encrypt, %function
ctr_encrypt:
	bti	c
	adds	x8, x8, #1
	b.cs	.Lcarry
.Ldone:
	mov	x0, #0
	ret
	.size	ctr_encrypt, .-ctr_encrypt

	.p2align 2
	.globl	mac_update
	.type	mac_update, %function
mac_update:
	bti	c
	ret
	.size	mac_update, .-mac_update

	// Out of line, as `.subsection 1` places it (after the file's last
	// function): no symbol covers it.
.Lcarry:
	cbz	x12, .Ldone
	adr	x16, 1f
	sub	x16, x16, x12, lsl #3
	br	x16
	bti	c
	mov	v0.d[0], v4.d[0]
	bti	c
	mov	v1.d[0], v4.d[0]
1:	b	.Ldone

	.p2align 4
	.globl	after
	.type	after, %function
after:
	bti	c
	ret
	.size	after, .-after

	// A weak definition the link replaced: nothing points here.
	.p2align 4
	bti	c
	mov	x0, #1
	ret

	.section .gnu.linkonce.this_module, "aw"
	.zero	16
