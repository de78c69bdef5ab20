#!/usr/bin/env bash
# Rebuild the landing-pad fixtures (ibt-missing-endbr, bti-missing-landing-pad,
# gnu-property, objlint stats). Needs gcc, clang-19, gcc-aarch64-linux-gnu, binutils.
set -euo pipefail
cd "$(dirname "$0")"
A64=aarch64-linux-gnu-gcc
# x86: kernel-style (-fno-pie: `mov $sym`), PIE (`lea sym(%rip)` without
# relocations), no CET at all, clang.
gcc -O2 -fcf-protection=branch -fno-pie -mcmodel=kernel -c fnptr.c -o fnptr-ibt.o
gcc -O2 -fcf-protection=branch -fpie -c fnptr.c -o fnptr-ibt-pie.o
gcc -O2 -fcf-protection=none -fno-pie -c fnptr.c -o fnptr-noibt.o
clang-19 -O2 -fcf-protection=branch -fno-pie -c fnptr.c -o fnptr-ibt-clang.o
gcc -O2 -fcf-protection=branch -fno-pie -fjump-tables -c switch.c -o switch-jt.o
gcc -O2 -fcf-protection=branch -fno-pie -fno-jump-tables -c switch.c -o switch-nojt.o
as ibt-cases.s -o ibt-cases.o
as jt-tracked.s -o jt-tracked.o
as gnuprop-noclaim.s -o gnuprop-noclaim.o
as gnuprop-nocode.s -o gnuprop-nocode.o
as ibt-kernel-asm.s -o ibt-kernel-asm.o
# arm64: BTI + PAC (gcc with the kernel's CALL_OPS entry, and clang-19),
# PAC only (no BTI: not enforced unless --ibt), jump tables.
$A64 -O2 -mbranch-protection=pac-ret+bti -fpatchable-function-entry=4,2 -c fnptr.c -o fnptr-bti.o
clang-19 --target=aarch64-linux-gnu -O2 -mbranch-protection=pac-ret+bti -c fnptr.c -o fnptr-bti-clang.o
$A64 -O2 -mbranch-protection=pac-ret -c fnptr.c -o fnptr-pac.o
$A64 -O2 -mbranch-protection=pac-ret+bti -fjump-tables -c switch.c -o switch-bti.o
aarch64-linux-gnu-as bti-cases.s -o bti-cases.o
aarch64-linux-gnu-as bti-kernel-asm.s -o bti-kernel-asm.o
aarch64-linux-gnu-as pe-header-arm64.s -o pe-header-arm64.o
# arm64 switch tables (offsets in .rodata without relocations, `br` to `bti j`):
# clean with both compilers; the broken one is clang's assembly with one case's
# `bti j` turned into a NOP and another's into `bti c` (kept as a .s).
$A64 -O2 -mbranch-protection=bti -c switch-table.c -o switch-table-gcc.o
clang-19 --target=aarch64-linux-gnu -O2 -mbranch-protection=bti -c switch-table.c -o switch-table-clang.o
{
    printf '%s\n' "// clang-19 --target=aarch64-linux-gnu -O2 -mbranch-protection=bti -S switch-table.c," \
        "// then edited by hand (build.sh does it with awk): the 3rd case's \`hint #36\` (bti j)" \
        "// became \`nop\` and the 5th case's became \`hint #34\` (bti c, a call pad: wrong" \
        "// kind for the table's \`br x10\`). bti-missing-landing-pad must report both."
    clang-19 --target=aarch64-linux-gnu -O2 -mbranch-protection=bti -S switch-table.c -o - |
        awk '/^\thint\t#36$/ { n++
                if (n == 3) { print "\tnop\t\t\t\t\t// was: hint #36 (bti j)"; next }
                if (n == 5) { print "\thint\t#34\t\t\t\t// was: hint #36 (bti j)"; next } }
             { print }'
} > switch-table-nobtij.s
clang-19 --target=aarch64-linux-gnu -c switch-table-nobtij.s -o switch-table-nobtij.o
# Every no_pad_target of rules/landing_pads.toml where the kernel defines it.
aarch64-linux-gnu-as no-pad-targets-arm64.s -o no-pad-targets-arm64.o
as no-pad-targets-x86.s -o no-pad-targets-x86.o
as exempt-sections-x86.s -o exempt-sections-x86.o
aarch64-linux-gnu-as exempt-sections-arm64.s -o exempt-sections-arm64.o
# The README's example objects (testdata/examples/README.md).
cp ibt-cases.o ../examples/ibt-x86_64.o
cp bti-cases.o ../examples/bti-arm64.o
