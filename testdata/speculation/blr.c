/* Regression (lib/sort.c's do_swap, arm64 gcc -mharden-sls=all): indirect
 * calls through two registers in one function. GCC emits one stub per
 * register (`mov x16, xN; br x16`) after the function and a single barrier
 * after the last stub; speculation past the first runs only into the next. */
typedef void (*swap_t)(void *, void *, unsigned long);
typedef void (*swap_r_t)(void *, void *, unsigned long, const void *);

struct wrapper { swap_t swap; };

int swaps;

void do_swap(void *a, void *b, unsigned long size, swap_r_t swap, const void *priv)
{
	if (swap == (swap_r_t)3) {
		((const struct wrapper *)priv)->swap(a, b, size);
		swaps++;
		return;
	}
	if (swap == 0) {
		char *p = a, *q = b;
		while (size--) { char t = p[size]; p[size] = q[size]; q[size] = t; }
		return;
	}
	swap(a, b, size, priv);
	swaps++;
}
