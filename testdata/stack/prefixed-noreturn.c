/* objcopy --prefix-symbols, as kbuild renames the arm64 nVHE hypervisor
 * (__kvm_nvhe_), the EFI stub (__efistub_) and the early boot code (__pi_)
 * before vmlinux.o links them: the call below becomes a call to
 * __kvm_nvhe_hyp_panic, while DWARF keeps the name the compiler saw,
 * hyp_panic, declared noreturn. rules/noreturn.toml `renamed` joins the two;
 * without it the function falls through after the call. build.sh makes one
 * copy per prefix of the list, arm64-clang-prefixed-PREFIX.o, and one with a
 * prefix not on it (__other_), which must be reported.
 */
extern void __attribute__((noreturn)) hyp_panic(unsigned long esr);

void handle_trap(unsigned long esr)
{
	if (esr & 1)
		return;
	hyp_panic(esr);
}

int after(int x)
{
	return x + 1;
}
