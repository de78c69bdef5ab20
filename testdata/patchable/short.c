/* Defects from real compiler output: a function whose attribute gives it a
 * shorter patch site than the rest of the object (patchable-entry), and under
 * kCFI a function without prefix NOPs, whose hash lands at a different offset
 * (kcfi-hash-offset; the Rust case of seed 002). */
typedef int (*fn_t)(int);
int leaf(int x) { return x + 1; }
int caller(fn_t f, int x) { return f(x) * 2; }
fn_t get(void) { return leaf; }
__attribute__((patchable_function_entry(0, 0))) int noprefix(int x) { return x * 3; }
__attribute__((patchable_function_entry(2, 2))) int shortp(int x) { return x * 5; }
fn_t get2(void) { return noprefix; }
fn_t get3(void) { return shortp; }
