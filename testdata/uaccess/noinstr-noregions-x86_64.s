# The x86 counterpart of noinstr-noregions-aarch64.s: x86 builds record
# instrumentation regions (objtool), so an object without them has none and
# the call out of .noinstr.text is an error.
	.text
	.type traced, @function
traced:
	ret
	.size traced, .-traced

	.section .noinstr.text, "ax"
	.globl enter_unannotated
	.type enter_unannotated, @function
enter_unannotated:
	call traced
	ret
	.size enter_unannotated, .-enter_unannotated
