// User space that happens to use a name rules/landing_pads.toml lists as a
// kernel no-pad target (arm64 `ret_from_fork` in .text: the kernel reaches
// it by `ret`, so it needs no BTI there). Here its address is taken for an
// indirect call: `objlint seal` must keep its `bti c` (a kernel policy does
// not hold in user space). `api` is global: kept without --link, and with
// --link too in user space (the dynamic linker may export it).
	.text
	.type	ret_from_fork, %function
ret_from_fork:
	bti	c
	mov	x0, #0
	ret
	.size	ret_from_fork, .-ret_from_fork

	.globl	api
	.type	api, %function
api:
	bti	c
	adr	x0, ret_from_fork
	br	x0
	.size	api, .-api

	.section	.note.GNU-stack,"",%progbits
