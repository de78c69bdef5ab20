# Hand-written: a system call's number must be set in the straight-line code
# before it. glibc's __restore_rt (`mov $15, %rax; syscall`) ends its path;
# where another path joins between the move and the call, the number is
# unknown and the fall-through is reported.
	.text
	.globl	restore_rt
	.type	restore_rt, @function
restore_rt:
	movq	$15, %rax
	syscall
	.size	restore_rt, .-restore_rt

	.globl	joined
	.type	joined, @function
joined:
	movl	$60, %eax
	testl	%edi, %edi
	jne	1f
	movl	$1, %eax
1:	syscall				# eax is 60 or 1 here: reported
	.size	joined, .-joined

	.globl	clobbered
	.type	clobbered, @function
clobbered:
	movl	$231, %eax
	addl	%edi, %eax		# the number is no longer known: reported
	syscall
	.size	clobbered, .-clobbered

	.globl	next
	.type	next, @function
next:
	ret
	.size	next, .-next
	.section	.note.GNU-stack,"",@progbits
