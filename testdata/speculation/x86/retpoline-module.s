# Module code (it refers to __this_module): its .init.text runs after user
# space started and needs retpolines.
	.section .init.text, "ax", @progbits
	.globl	init_module
	.type	init_module, @function
init_module:
	leaq	__this_module(%rip), %rdi
	call	*%rax
	jmp	__x86_return_thunk
	.size	init_module, .-init_module
