/* The C member of the archives in this folder: it takes the addresses of
 * the hand-written handlers (a table in data, and one passed in a
 * register, which the compiler materialises in code) and calls one
 * directly. */
extern int handler_ok(void), handler_bad(void), handler_noendbr(void);
extern int called_only(void);

int (*const table[])(void) = { handler_ok, handler_bad, handler_noendbr };

extern void register_cb(int (*)(void));

int setup(void)
{
	register_cb(handler_bad);
	return called_only();
}
