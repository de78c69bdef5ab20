/* Functions in several text sections, as in a module: gcc emits one merged
 * __patchable_function_entries whose sh_link names .text although entries
 * point into .init.text too; the __exit function has no entry. */
int text_fn(int x) { return x + 1; }
__attribute__((section(".init.text"))) int init_fn(int x) { return x + 2; }
__attribute__((section(".exit.text"), patchable_function_entry(0, 0))) void exit_fn(void) {}
