/* Functions every layout fixture is built from: a leaf, a function making an
 * indirect call (kCFI check) and a direct call, one whose address is taken,
 * and a notrace function (no patch site; fine). */
typedef int (*fn_t)(int);
int g(int x);
#define notrace __attribute__((patchable_function_entry(0, 0)))

int leaf(int x) { return x + 1; }
int caller(fn_t f, int x) { return f(x) + g(x); }
fn_t get(void) { return leaf; }
#ifndef KCFI
/* Without kCFI a function without prefix NOPs is fine. */
notrace int untraced(int x) { return x * 7; }
#endif
