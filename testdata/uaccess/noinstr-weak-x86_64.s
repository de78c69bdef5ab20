# kernel/sched/idle.c: default_idle_call() (.cpuidle.text) calls
# arch_cpu_idle(), whose __weak default here is in .text; x86's strong one in
# process.c is __cpuidle and replaces it at link. Per object the weak callee is
# not judged; with --link (a linked whole) it is.
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
