int sink(int);
int two_tables(const unsigned char *p, int n)
{
	int acc = 0;
	for (int i = 0; i < n; i++) {
		switch (p[i]) {
		case 0: acc += 3; break;
		case 1: acc ^= 7; break;
		case 2: acc -= 11; break;
		case 3: acc *= 13; break;
		case 4: acc |= 17; break;
		case 5: acc = sink(acc); break;
		}
		switch (p[i + 1]) {
		case 0: acc += 5; break;
		case 1: acc ^= 9; break;
		case 2: acc -= 19; break;
		case 3: acc *= 23; break;
		case 4: acc = sink(acc + 1); break;
		case 5: acc &= 29; break;
		case 6: acc >>= 1; break;
		}
	}
	return acc;
}
