/* Regression (6 false `unreachable` in amdgpu.ko, arm64): tonga_get_offsetof's shape (drivers/gpu/drm/amd/pm/powerplay/smumgr):
 * a two-level switch; gcc copies `member` to another register at entry,
 * bounds-checks the original and indexes the byte table with the copy. */
int printk(const char *, ...);

struct soft_regs { int a[40]; };

unsigned int get_offsetof(unsigned int type, unsigned int member)
{
	switch (type) {
	case 0:
		switch (member) {
		case 0: return 0x60;
		case 1: return 0x5c;
		case 2: return 0x58;
		case 3: return 0x54;
		case 4: return 0x50;
		case 5: return 0x6c;
		case 6: return 0x70;
		case 11: return 0x74;
		case 12: return 0x80;
		case 13: return 0x84;
		case 14: return 0x8c;
		}
		break;
	case 1:
		switch (member) {
		case 7: return 0x20;
		case 8: return 0x4c;
		case 9: return 0x30;
		}
		break;
	}
	printk("can't get the offset of type %x member %x\n", type, member);
	return 0;
}
