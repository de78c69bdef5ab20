/* -fexceptions C (glibc builds its stdio and pthread code so, for thread
 * cancellation): the cleanup of `buf` runs when use() unwinds, at a landing
 * pad only the unwinder enters (.gcc_except_table). Not unreachable. */
extern void use(char *p);
extern void release(char **p);

int with_cleanup(int n)
{
	char *buf __attribute__((cleanup(release))) = 0;
	use(buf);
	return n + 1;
}
