/* An indirect call in an object built with retpolines and no external
 * thunk: clang -mretpoline emits its own __llvm_retpoline_r11 into the
 * object (as in Linux's vDSO), gcc -mindirect-branch=thunk its own
 * __x86_indirect_thunk_rax. */
int (*hook)(int);

int call_hook(int x)
{
	return hook(x) + 1;
}
