/* A frame over a page: gcc and clang with -fstack-clash-protection touch
 * each page on the way down in a loop (`sub $4096,%rsp; orq $0,(%rsp);
 * cmp %r11,%rsp; jne`) whose frame address their CFI takes from %r11. */
void use(char *);

int big(int n)
{
	char buf[70000];

	use(buf);
	return buf[n];
}

/* Large enough that gcc's arm64 code probes in a loop too. */
int huge(int n)
{
	char buf[1000000];

	use(buf);
	return buf[n];
}
