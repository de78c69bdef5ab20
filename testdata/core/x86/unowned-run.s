# fallthrough from code outside every function: a path leaves its function
# by a jump to code no symbol covers, which runs on without a return or
# jump. objtool follows it in the function's state and says "falls through
# to next function" where it reaches one; objlint used to end such a path
# without a word. Its verdict is beside this file (unowned-run.objtool.txt).
	.text
	.globl	leaves
	.type	leaves, @function
leaves:
	endbr64
	testl	%edi, %edi
	je	.Lout
	ret
	.size	leaves, .-leaves
.Lout:
	xorl	%eax, %eax
	.globl	next
	.type	next, @function
next:
	endbr64
	ret
	.size	next, .-next

# Clean: the same jump, to code that returns.
	.globl	leaves_ok
	.type	leaves_ok, @function
leaves_ok:
	endbr64
	testl	%edi, %edi
	je	.Lout_ok
	ret
	.size	leaves_ok, .-leaves_ok
.Lout_ok:
	xorl	%eax, %eax
	ret
	.globl	next_ok
	.type	next_ok, @function
next_ok:
	endbr64
	ret
	.size	next_ok, .-next_ok

# Code outside every function at the end of a section, running off it.
	.section .text.tail, "ax", @progbits
	.globl	leaves_tail
	.type	leaves_tail, @function
leaves_tail:
	endbr64
	testl	%edi, %edi
	je	.Lout_tail
	ret
	.size	leaves_tail, .-leaves_tail
.Lout_tail:
	xorl	%eax, %eax
