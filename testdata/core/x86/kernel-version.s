# What never returns differs between kernel versions' objtool lists, and so
# between their builds: Linux 6.1's arch_cpu_idle_dead() may return (x86's
# tail-calls smp_ops.play_dead() through a pointer; objtool 6.1 does not
# list it), 6.12's is __noreturn and listed. The version is a vmlinux.o's
# `linux_banner` here (6.1; with V612, 6.12), else a module's vermagic or
# --kernel; unknown, every version's names count.
#
# Also: a listed name defined here as a label of hand-written code, no
# function symbol (SYM_CODE_START: vmlinux.o's rewind_stack_and_make_dead,
# STT_NOTYPE). Linux 6.1's oops_end() ends in a call to it, right before
# the next function: the call never returns, as objtool takes it; once
# objlint took it for a call that returns, falling through. (Its body here
# is a trap, which objtool does not call unreachable: no hint reaches it.)
	.text
	.globl	idle
	.type	idle, @function
idle:
	push	%rbx
	call	arch_cpu_idle_dead
	pop	%rbx
	ret
	.size	idle, .-idle

	.globl	oops_end
	.type	oops_end, @function
oops_end:
	push	%rbx
	mov	%edi, %ebx
	call	rewind_stack_and_make_dead
	.size	oops_end, .-oops_end

	.globl	show_opcodes
	.type	show_opcodes, @function
show_opcodes:
	ret
	.size	show_opcodes, .-show_opcodes

	.globl	rewind_stack_and_make_dead
rewind_stack_and_make_dead:
	ud2

	.section .rodata
	.globl	linux_banner
	.type	linux_banner, @object
linux_banner:
.ifdef V612
	.asciz	"Linux version 6.12.117 (fixture) #1 SMP PREEMPT_DYNAMIC\n"
.else
	.asciz	"Linux version 6.1.192 (fixture) #1 SMP PREEMPT_DYNAMIC\n"
.endif
	.size	linux_banner, .-linux_banner
