# The x86 counterpart of noinstr-noregions-aarch64.s: x86 builds record
# instrumentation regions only with CONFIG_NOINSTR_VALIDATION, so an object
# that records none was built without it, and whether the call out of
# .noinstr.text is inside a region cannot be told: not judged, said so
# (analysis-incomplete, regions-unrecorded).
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
