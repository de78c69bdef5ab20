/* Indirect calls, indirect tail calls and returns, compiled with each
 * speculation mitigation (build.sh): every object must be clean. */
typedef int (*op_fn)(int);

int apply(op_fn f, int x)
{
	return f(x) + 1;
}

int tail(op_fn f, int x)
{
	return f(x);
}

int pick(int k, int x)
{
	switch (k) {
	case 0: return x + 3;
	case 1: return x * 5;
	case 2: return x - 7;
	case 3: return x ^ 11;
	case 4: return x << 2;
	case 5: return x >> 1;
	default: return 0;
	}
}

static int twice(int x) { return 2 * x; }
op_fn table[2] = { twice, 0 };

int leaf(int x)
{
	return x + 42;
}
