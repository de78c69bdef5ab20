/* Function pointers in data, `lea` of static functions, direct-only statics. */
struct ops {
	int (*open)(int);
	int (*close)(int);
};

static int my_open(int x) { return x + 1; }
static int my_close(int x) { return x - 1; }

/* Only called directly: gcc gives it no landing pad. */
static __attribute__((noinline)) int helper(int x) { return x * 3; }

const struct ops my_ops = { .open = my_open, .close = my_close };

static __attribute__((noinline)) int cb_local(int x) { return x ^ 5; }

int register_cb(int (*cb)(int));

int setup(int x)
{
	/* lea cb_local(%rip) / adrp+add: the address escapes. */
	return register_cb(cb_local) + helper(x);
}

int exported(int x) { return helper(x) + 2; }
