// noinstr code built without objtool (arm64 6.12): instrumentation_begin()
// leaves nothing in the object, so a call out of .noinstr.text may be inside
// such a region. noinstr-call reports it as a warning, with a note (the same
// on x86, whose builds record regions, is an error: noinstr-noregions-x86_64.s).
	.text
	.type traced, %function
traced:
	ret
	.size traced, .-traced

	.section .noinstr.text, "ax"
	.globl enter_unannotated
	.type enter_unannotated, %function
enter_unannotated:
	stp x29, x30, [sp, #-16]!
	bl traced
	ldp x29, x30, [sp], #16
	ret
	.size enter_unannotated, .-enter_unannotated
