# kernel/sched/idle.c: default_idle_call() (.cpuidle.text) calls
# arch_cpu_idle(), whose __weak default here is in .text; x86's strong one in
# process.c is __cpuidle and replaces it at link. Per object the weak callee is
# not judged; with --link (a linked whole) it is. The build records
# instrumentation regions (CONFIG_NOINSTR_VALIDATION): one is marked in
# another function, as vmlinux.o has thousands.
	.text
	.weak arch_cpu_idle
	.type arch_cpu_idle, @function
arch_cpu_idle:
	ret
	.size arch_cpu_idle, .-arch_cpu_idle

	.section .cpuidle.text, "ax"
	.globl default_idle_call
	.type default_idle_call, @function
default_idle_call:
	call arch_cpu_idle
	ret
	.size default_idle_call, .-default_idle_call

	.globl annotated_elsewhere
	.type annotated_elsewhere, @function
annotated_elsewhere:
1:	nop
	.pushsection .discard.instr_begin
	.long 1b - .
	.popsection
2:	nop
	.pushsection .discard.instr_end
	.long 2b - .
	.popsection
	ret
	.size annotated_elsewhere, .-annotated_elsewhere
