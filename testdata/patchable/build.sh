#!/usr/bin/env bash
# Rebuild the patchable-entry / kcfi-hash-offset / call-ops-align fixtures.
# Real compiler output for each layout (FACTS.md), clean and with defects,
# plus hand-written objects for the defects compilers do not make.
# Needs gcc, clang-19, clang-22 (third argument of -fpatchable-function-entry),
# gcc-aarch64-linux-gnu, binutils (x86 and aarch64).
set -euo pipefail
cd "$(dirname "$0")"
O="-O2 -c -fno-asynchronous-unwind-tables"
A64="--target=aarch64-linux-gnu"

# x86 gcc 16,16 with fentry/__mcount_loc, as the x86 kernel builds it.
gcc $O -fpatchable-function-entry=16,16 -falign-functions=16 -fcf-protection=branch \
    -pg -mfentry -mrecord-mcount funcs.c -o x86_gcc_16_16.o
gcc $O -fpatchable-function-entry=16,16 -falign-functions=16 -fcf-protection=branch \
    short.c -o x86_gcc_16_16_short.o
# Several text sections, one merged entries section, linked with ld -r as a
# module is.
gcc $O -fpatchable-function-entry=16,16 -falign-functions=16 -fcf-protection=branch \
    sections.c -o sections.tmp.o
ld -r sections.tmp.o x86_gcc_16_16.o -o x86_gcc_16_16_sections.o
rm -f sections.tmp.o

# x86 clang-19 kCFI: 16,16 (hash at f-0x14) and the kernel's 11,11 (f-0xf).
clang-19 $O -fsanitize=kcfi -fpatchable-function-entry=16,16 -fcf-protection=branch \
    -DKCFI funcs.c -o x86_clang_kcfi_16_16.o
clang-19 $O -fsanitize=kcfi -fpatchable-function-entry=11,11 -fcf-protection=branch \
    -DKCFI funcs.c -o x86_clang_kcfi_11_11.o
clang-19 $O -fsanitize=kcfi -fpatchable-function-entry=11,11 -fcf-protection=branch \
    short.c -o x86_clang_kcfi_11_11_short.o

# arm64 gcc 4,2 (CALL_OPS) with BTI and PAC.
aarch64-linux-gnu-gcc $O -fpatchable-function-entry=4,2 -falign-functions=8 \
    -mbranch-protection=pac-ret+bti funcs.c -o arm64_gcc_4_2.o
aarch64-linux-gnu-gcc $O -fpatchable-function-entry=4,2 -falign-functions=8 \
    -mbranch-protection=pac-ret+bti short.c -o arm64_gcc_4_2_short.o

# arm64 clang-19 kCFI: the kernel's 2,0 (hash at f-4) and 4,2 (f-0xc).
clang-19 $A64 $O -fsanitize=kcfi -fpatchable-function-entry=2 -mbranch-protection=pac-ret+bti \
    -DKCFI funcs.c -o arm64_clang_kcfi_2_0.o
clang-19 $A64 $O -fsanitize=kcfi -fpatchable-function-entry=4,2 -falign-functions=8 \
    -mbranch-protection=pac-ret+bti -DKCFI funcs.c -o arm64_clang_kcfi_4_2.o
# Without -falign-functions=8 the CALL_OPS slots are misaligned.
clang-19 $A64 $O -fsanitize=kcfi -fpatchable-function-entry=4,2 \
    -mbranch-protection=pac-ret+bti -DKCFI funcs.c -o arm64_clang_kcfi_4_2_unaligned.o
clang-19 $A64 $O -fsanitize=kcfi -fpatchable-function-entry=4,2 -falign-functions=8 \
    -mbranch-protection=pac-ret+bti short.c -o arm64_clang_kcfi_4_2_short.o

# arm64 clang-22, seed 002: prefix NOPs without ftrace entries (3,3 into
# .discard.patchable_function_entries), traced objects 5,3 (hash at f-0x10).
clang-22 $A64 $O -fsanitize=kcfi -fpatchable-function-entry=3,3,.discard.patchable_function_entries \
    -falign-functions=8 -mbranch-protection=pac-ret+bti -DKCFI funcs.c -o arm64_clang22_kcfi_3_3_discard.o
clang-22 $A64 $O -fsanitize=kcfi -fpatchable-function-entry=5,3 \
    -falign-functions=8 -mbranch-protection=pac-ret+bti -DKCFI funcs.c -o arm64_clang22_kcfi_5_3.o
clang-22 $A64 $O -fsanitize=kcfi -fpatchable-function-entry=5,3 \
    -falign-functions=8 -mbranch-protection=pac-ret+bti short.c -o arm64_clang22_kcfi_5_3_short.o

# Hand-written defects.
as defects_x86.s -o defects_x86.o
as defects_kcfi_x86.s -o defects_kcfi_x86.o
as kcfi_window_x86.s -o kcfi_window_x86.o
aarch64-linux-gnu-as defects_arm64.s -o defects_arm64.o

# Not rebuilt here: x86_clang_kcfi_11_11_mcount.o is arch/x86/lib/misc.o as
# kbuild left it after objtool (clang-19, CFI_CLANG, CALL_PADDING, IBT off so
# that objtool ran on it with --mcount --mnop: Linux 6.12.117,
# build-kernel-objects.sh x86-clang-kcfi). objtool's NOP for `call __fentry__`
# at the entry is listed in __mcount_loc; objlint once counted it into the
# patch site (layout 16,11) and said ftrace would patch it twice.
