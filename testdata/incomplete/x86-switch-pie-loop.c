struct node { struct node *next; int kind; int type; struct node *sub; };
extern void out(const char *);

/* Two switches in loops: gcc -O2 -fPIE hoists both tables' `lea` to the
 * function's entry, so the second dispatch's table register was set
 * before the first dispatch. */
void dump(struct node *n)
{
	for (; n; n = n->next) {
		switch (n->kind) {
		case 0: out("a"); break;
		case 1: out("b"); break;
		case 2: out("c"); break;
		case 3: out("d"); break;
		case 4: out("e"); break;
		case 5: out("f"); break;
		}
		for (struct node *s = n->sub; s; s = s->next) {
			switch (s->type) {
			case 0: out("g"); break;
			case 1: out("h"); break;
			case 2: out("i"); break;
			case 3: out("j"); break;
			case 4: out("k"); break;
			case 5: out("l"); break;
			case 6: out("m"); break;
			}
		}
	}
}
