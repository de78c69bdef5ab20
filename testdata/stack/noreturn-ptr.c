/* A call through a pointer to a noreturn function as the last instruction,
 * as the arm64 EFI stub's efi_enter_kernel() jumps to the kernel image:
 *
 *	void (* __noreturn enter_kernel)(u64, u64, u64, u64);
 *
 * The object cannot say that the pointer is noreturn, but DWARF says the
 * function is (DW_AT_noreturn): nothing follows its last call, so that call
 * does not return. Built with -g (build.sh: x86-gcc-noreturn-ptr.o,
 * arm64-clang-noreturn-ptr.o); objtool, which reads no DWARF, reports both
 * functions (x86-gcc-noreturn-ptr.objtool.txt).
 */
typedef void (*__attribute__((noreturn)) entry_fn)(unsigned long, unsigned long);
unsigned long entry_offset(void);

/* Clean: declared noreturn, ends in the pointer call. */
__attribute__((noreturn)) void enter_kernel(unsigned long image, unsigned long fdt)
{
	entry_fn enter = (entry_fn)(image + entry_offset());

	enter(fdt, 0);
}

/* Reported: the same code, but only the compiler knows it cannot return. */
void enter_undeclared(unsigned long image, unsigned long fdt)
{
	entry_fn enter = (entry_fn)(image + entry_offset());

	enter(fdt, 0);
}

int after(int x)
{
	return x + 1;
}
