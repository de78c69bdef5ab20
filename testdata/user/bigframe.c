/* A frame larger than 4 KiB: with -fstack-clash-protection (Debian's
 * default) GCC for arm64 moves its size into a register and adjusts sp by
 * it in one step (`mov x13, #0x1020; sub sp, sp, x13`, the same with `add`
 * at the return). The stack is followed through both: no stack or CFI
 * finding (stack-undefined and cfi-mismatch before). */
extern void fill(char *buf, int n);

int big_frame(int n)
{
	char buf[4100];

	fill(buf, n);
	return buf[n & 4095];
}
