// A switch whose default case the compiler proves unreachable (the value was
// range-checked before), as in the kernel's compat_sys_socketcall: clang-19
// for arm64 still bounds the jump table, with a branch to the empty block of
// the default case at the end of the function, where the next function
// starts. The frame is set up there, so the branch is no tail call: the
// stack rules must stay quiet (build.sh: arm64-clang-switch.o).
#define C(n) case n: ret = f##n(a[n % 3], a[(n + 1) % 4]); break;
#define D(n) int f##n(int, int);
D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10)
D(11) D(12) D(13) D(14) D(15) D(16) D(17) D(18) D(19) D(20)
unsigned long copy_in(int *dst, const int *src, unsigned int n);
extern const unsigned char nargs[];

long socketcall(unsigned int call, const int *args)
{
	int a[6];
	long ret;

	if (call < 1 || call > 20)
		return -22;
	if (copy_in(a, args, nargs[call]))
		return -14;
	switch (call) {
	C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10)
	C(11) C(12) C(13) C(14) C(15) C(16) C(17) C(18) C(19) C(20)
	default:
		ret = -22;
		break;
	}
	return ret;
}

int next_function(int x)
{
	return x * 3;
}
