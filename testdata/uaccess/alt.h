/* The kernel's ALTERNATIVE() expansions, reduced to what the fixtures need
 * (same section layout and entry format as Linux 6.12; written for objlint). */

#if defined(__x86_64__)
/* struct alt_instr: s32 orig, s32 repl, u32 ft_flags, u8 orig_len, u8 repl_len */
#define ALT(old, new, feature)                                              \
	"771:\n\t" old "\n772:\n\t"                                         \
	".skip -(((775f-774f)-(772b-771b)) > 0) * ((775f-774f)-(772b-771b)),0x90\n" \
	"773:\n"                                                            \
	".pushsection .altinstructions,\"a\"\n"                             \
	" .long 771b - .\n .long 774f - .\n .4byte " feature "\n"            \
	" .byte 773b-771b\n .byte 775f-774f\n"                              \
	".popsection\n"                                                     \
	".pushsection .altinstr_replacement,\"ax\"\n"                       \
	"774:\n\t" new "\n775:\n"                                           \
	".popsection\n"
#define X86_FEATURE_SMAP "308"
#define STAC ALT("", ".byte 0x0f,0x01,0xcb", X86_FEATURE_SMAP)
#define CLAC ALT("", ".byte 0x0f,0x01,0xca", X86_FEATURE_SMAP)
static inline __attribute__((always_inline)) void stac(void) { asm volatile(STAC ::: "memory"); }
static inline __attribute__((always_inline)) void clac(void) { asm volatile(CLAC ::: "memory"); }
static inline __attribute__((always_inline)) unsigned long smap_save(void)
{
	unsigned long flags;
	asm volatile(ALT("", "pushf; pop %0; .byte 0x0f,0x01,0xca", X86_FEATURE_SMAP)
		     : "=rm"(flags) : : "memory", "cc");
	return flags;
}
static inline __attribute__((always_inline)) void smap_restore(unsigned long flags)
{
	asm volatile(ALT("", "push %0; popf", X86_FEATURE_SMAP) : : "g"(flags) : "memory", "cc");
}
#elif defined(__aarch64__)
/* struct alt_instr: s32 orig, s32 alt, u16 cpucap, u8 orig_len, u8 alt_len;
 * the replacement goes to subsection 1 of the current section. */
#define ALT(old, new, cpucap)                                               \
	"661:\n\t" old "\n662:\n"                                           \
	".pushsection .altinstructions,\"a\"\n"                             \
	" .word 661b - .\n .word 663f - .\n .hword " cpucap "\n"             \
	" .byte 662b-661b\n .byte 664f-663f\n"                              \
	".popsection\n"                                                     \
	".subsection 1\n"                                                   \
	"663:\n\t" new "\n664:\n\t"                                         \
	".org . - (664b-663b) + (662b-661b)\n\t"                            \
	".org . - (662b-661b) + (664b-663b)\n"                              \
	".previous\n"
#define ARM64_HAS_PAN "40"
/* msr pan, #0 / msr pan, #1 */
#define PAN_OFF ALT("nop", ".inst 0xd500409f", ARM64_HAS_PAN)
#define PAN_ON ALT("nop", ".inst 0xd500419f", ARM64_HAS_PAN)
static inline __attribute__((always_inline)) void stac(void) { asm volatile(PAN_OFF ::: "memory"); }
static inline __attribute__((always_inline)) void clac(void) { asm volatile(PAN_ON ::: "memory"); }
#endif

/* instrumentation_begin()/end(): 6.12 annotation sections, or the typed
 * .discard.annotate_insn entries of newer kernels (ANNOTYPE 3 and 4). */
#ifdef TYPED_ANNOTATIONS
#define instrumentation_begin() asm volatile("911: nop\n\t.pushsection .discard.annotate_insn,\"M\",@progbits,8\n\t.long 911b - .\n\t.long 3\n\t.popsection")
#define instrumentation_end() asm volatile("912:\n\t.pushsection .discard.annotate_insn,\"M\",@progbits,8\n\t.long 912b - .\n\t.long 4\n\t.popsection")
#else
#define instrumentation_begin() asm volatile("911: nop\n\t.pushsection .discard.instr_begin\n\t.long 911b - .\n\t.popsection")
#define instrumentation_end() asm volatile("912:\n\t.pushsection .discard.instr_end\n\t.long 912b - .\n\t.popsection")
#endif
