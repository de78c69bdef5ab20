#!/usr/bin/env bash
# Rebuild the uaccess/noinstr fixtures. Needs gcc and gcc-aarch64-linux-gnu.
set -euo pipefail
cd "$(dirname "$0")"
X86="gcc -O2 -c -fno-pic -mcmodel=kernel -mno-red-zone -fno-stack-protector -fno-asynchronous-unwind-tables
  -fcf-protection=branch -mindirect-branch=thunk-extern -mfunction-return=thunk-extern -fno-jump-tables"
ARM="aarch64-linux-gnu-gcc -O2 -c -fno-pic -mgeneral-regs-only -fno-stack-protector
  -fno-asynchronous-unwind-tables -mbranch-protection=pac-ret"
$X86 -o uaccess-x86_64.o uaccess.c
$ARM -o uaccess-aarch64.o uaccess.c
$X86 -o noinstr-x86_64.o noinstr.c
$ARM -o noinstr-aarch64.o noinstr.c
$X86 -DTYPED_ANNOTATIONS -o noinstr-typed-x86_64.o noinstr.c
as -o asm-x86_64.o asm-x86_64.s
as -o padlen-x86_64.o padlen-x86_64.s
aarch64-linux-gnu-as -o asm-aarch64.o asm-aarch64.s
aarch64-linux-gnu-as -o noinstr-noregions-aarch64.o noinstr-noregions-aarch64.s
as -o noinstr-noregions-x86_64.o noinstr-noregions-x86_64.s
as -o noinstr-weak-x86_64.o noinstr-weak-x86_64.s
as -o noinstr-allow-x86_64.o noinstr-allow-x86_64.s
# A linked whole that defines its thunks (vmlinux.o): objtool's verdicts kept
# beside it (--dry-run: objtool writes into the object otherwise). Each check
# runs on its own, as objtool warns once per symbol.
as -o rethunk-defined-x86_64.o rethunk-defined-x86_64.s
OBJTOOL=${OBJTOOL:-$HOME/.cache/objcorpus/bin/objtool}
if [ -x "$OBJTOOL" ]; then
  for a in "--retpoline --rethunk" "--noinstr --uaccess --stackval"; do
    "$OBJTOOL" --dry-run --link $a rethunk-defined-x86_64.o 2>&1 || true
  done | LC_ALL=C sort > rethunk-defined-x86_64.objtool
fi

# versions/: Linux 6.1's kernel/panic.o (committed, not rebuilt: a 6.1 kbuild
# x86-gcc-noibt build as objtool saw it), whose __stack_chk_fail is not on
# 6.1's uaccess-safe list, and the same with a module's vermagic added (the
# version read from the object); objtool 6.1's verdict with kbuild's
# arguments beside it.
printf 'license=GPL\0vermagic=6.1.0-41-amd64 SMP preempt mod_unload modversions \0' > versions/modinfo.tmp
objcopy --add-section .modinfo=versions/modinfo.tmp --set-section-flags .modinfo=alloc,readonly \
  versions/panic-61.o versions/panic-61-vermagic.o
rm -f versions/modinfo.tmp
OBJTOOL61=${OBJTOOL61:-$HOME/.cache/objcorpus61/bin/objtool}
if [ -x "$OBJTOOL61" ]; then
  args="--hacks=jump_label --hacks=noinstr --orc --retpoline --rethunk --static-call --uaccess"
  t=$(mktemp -d)
  cp versions/panic-61.o "$t/"
  {
    echo "# objtool $args panic-61.o   (objtool 6.1 from fetch-corpus.sh, $(date -u +%Y-%m-%d))"
    (cd "$t" && "$OBJTOOL61" $args --dry-run panic-61.o 2>&1 || true)
  } > versions/panic-61.objtool61.txt
  rm -rf "$t"
fi
