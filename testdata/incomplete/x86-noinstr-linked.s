# analysis-incomplete, cause annotations-lost: a linked module (it has
# .gnu.linkonce.this_module) with noinstr code but no
# instrumentation_begin()/end() annotations left: the module link dropped
# them, so whether enter_traced's call is inside a region cannot be told.
	.section .noinstr.text, "ax"
	.globl	enter_traced
	.type	enter_traced, @function
enter_traced:
	call	traced
	ret
	.size	enter_traced, .-enter_traced

	.text
	.globl	traced
	.type	traced, @function
traced:
	ret
	.size	traced, .-traced

	.section .gnu.linkonce.this_module, "aw"
	.zero	64
