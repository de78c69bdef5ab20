/* An arm64 switch big and dense enough for a jump table with gcc 12 and
 * clang-19: `br xN` through offsets in .rodata that no relocation names,
 * each case starting with `bti j` under -mbranch-protection=bti. */
int f0(int), f1(int), f2(int), f3(int), f4(int), f5(int), f6(int), f7(int),
	f8(int), f9(int);

int table_dispatch(unsigned int op, int a)
{
	switch (op) {
	case 0: return f0(a) + 7;
	case 1: return f1(a) * 3;
	case 2: return f2(a) - 9;
	case 3: return f3(a) ^ 11;
	case 4: return f4(a) | 13;
	case 5: return f5(a) << 2;
	case 6: return f6(a) >> 1;
	case 7: return f7(a) + a;
	case 8: return f8(a) - a;
	case 9: return f9(a) * a;
	case 10: return a + 100;
	case 11: return a * 33;
	case 12: return f0(a + 1);
	case 13: return f1(a + 2) + 5;
	case 14: return f2(a + 3) * 7;
	case 15: return f3(a + 4) - 1;
	default: return -1;
	}
}
