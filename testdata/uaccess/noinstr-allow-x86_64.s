# noinstr code calling what rules/noinstr.toml `allow` lets through: a
# static_call trampoline (__SCT__*, its target chosen at run time) and a
# UBSAN handler, both defined elsewhere. Not reported, with --link either.
	.section .noinstr.text,"ax"
	.globl noinstr_entry
	.type noinstr_entry, @function
noinstr_entry:
	call __SCT__tp_func_irq_entry
	call __ubsan_handle_out_of_bounds
	ret
	.size noinstr_entry, . - noinstr_entry
