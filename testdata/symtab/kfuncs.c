/* Kernel-style C for `seal --link`: built like a module object (IBT/BTI on).
 * ops_open is reached through an ops table, exported_fn through __ksymtab:
 * both keep their landing pads. helper is static and only called directly
 * (the compiler gives it no pad). The global entry points nothing references
 * can be sealed once the object is known to be the linked whole. */
struct ops { int (*open)(int); };
struct ksym { unsigned long addr; const char *name; };

static int __attribute__((noinline)) helper(int x) { return x * 3; }
static int ops_open(int x) { return helper(x) + 1; }
const struct ops my_ops = { .open = ops_open };

int exported_fn(int x) { return helper(x) - 1; }
static const struct ksym __ksymtab_exported_fn
	__attribute__((used, section("___ksymtab+exported_fn"))) =
	{ (unsigned long)exported_fn, "exported_fn" };

int internal_a(int x) { return helper(x) ^ 5; }
int internal_b(int x) { return internal_a(x) + my_ops.open(x); }
