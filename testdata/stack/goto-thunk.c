/*
 * A bytecode interpreter dispatched by computed goto, as the kernel's BPF
 * interpreter (___bpf_prog_run) is, built with retpolines: gcc dispatches
 * with `jmp __x86_indirect_thunk_<reg>` through a table of label
 * addresses in .data.rel.ro.c_jump_table (the kernel's
 * __annotate_jump_table). The thunk is defined in this object, as it is in
 * vmlinux.o, so the jump to it is a local one.
 */
struct insn {
	unsigned char code;
	signed char off;
	int imm;
};

extern void trace(long v);

/*
 * The thunks as arch/x86/lib/retpoline.S lays them out: untyped labels
 * inside the untyped __x86_indirect_thunk_array, no function symbol over
 * them, each with UNWIND_HINT_UNDEFINED (the retpoline body replaced by its
 * ANNOTATE_RETPOLINE_SAFE `jmp *%reg` alternative).
 */
#define THUNK(reg)							\
	".globl __x86_indirect_thunk_" #reg "\n"			\
	"__x86_indirect_thunk_" #reg ":\n"				\
	"987:\n"							\
	".pushsection .discard.unwind_hints\n"				\
	".long 987b - .\n.short 0\n.byte 0\n.byte 0\n.byte 0\n.balign 4\n" \
	".popsection\n"						\
	".pushsection .discard.retpoline_safe\n"			\
	".long 987b\n"							\
	".popsection\n"						\
	"\tjmp *%" #reg "\n"						\
	"\tint3\n"

asm(".pushsection .text..__x86.indirect_thunk,\"ax\",@progbits\n"
    ".globl __x86_indirect_thunk_array\n"
    "__x86_indirect_thunk_array:\n"
    THUNK(rax)
    THUNK(rdx)
    ".size __x86_indirect_thunk_array, .-__x86_indirect_thunk_array\n"
    ".popsection\n");

long interp(const struct insn *insn, long *regs)
{
	static const void *const jumptable[8]
		__attribute__((section(".data.rel.ro.c_jump_table"))) = {
		[0] = &&op_add,
		[1] = &&op_sub,
		[2] = &&op_mul,
		[3] = &&op_trace,
		[4] = &&op_ja,
		[5] = &&op_exit,
		[6] = &&op_bad,
		[7] = &&op_bad,
	};
	long acc = 0;

select:
	goto *jumptable[insn->code & 7];
op_add:
	acc += regs[insn->imm & 3];
	insn++;
	goto select;
op_sub:
	acc -= insn->imm;
	insn++;
	goto select;
op_mul:
	acc *= regs[(insn->imm >> 2) & 3] + insn->imm;
	insn++;
	goto select;
op_trace:
	trace(acc);
	insn++;
	goto select;
op_ja:
	insn += insn->off;
	goto select;
op_bad:
	trace(-1);
	return -1;
op_exit:
	return acc;
}
