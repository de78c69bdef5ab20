# A call through the GOT slot of a function of this section (rustc's calls
# of generic instances): its link is that function, not an instruction.
# g is function 1 and instruction 1 (`pop %rbx`) starts no function, so a
# link read as an instruction would lose the callee.
	.text
	.globl f
	.type f, @function
f:
	push %rbx
	pop %rbx
	call *g@GOTPCREL(%rip)
	ret
	.size f, .-f
	.globl g
	.type g, @function
g:
	ret
	.size g, .-g
