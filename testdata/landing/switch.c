/* A switch dense enough for a jump table when jump tables are allowed. */
int dispatch(int op, int a, int b)
{
	switch (op) {
	case 0: return a + b;
	case 1: return a - b;
	case 2: return a * b;
	case 3: return a ^ b;
	case 4: return a | b;
	case 5: return a & b;
	case 6: return a << b;
	case 7: return a >> b;
	case 8: return b - a;
	default: return 0;
	}
}

int f0(int), f1(int), f2(int), f3(int), f4(int), f5(int), f6(int), f7(int);

/* Cases that do real work: a table on both architectures. */
int dispatch_calls(unsigned op, int a)
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
	default: return -1;
	}
}
