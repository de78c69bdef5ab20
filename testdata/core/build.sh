#!/usr/bin/env bash
# Rebuild the core fixtures: real compiler output of flow.c for both arches
# and both compilers (with and without -ffunction-sections), hand-written
# assembly for exact cases, and input-handling copies (archive, .ko.xz,
# .ko.zst). Expected findings sit beside each object as NAME.expected
# (`objlint check --format short --enable fallthrough`, run from this
# folder); tests/core.rs
# compares them.
# Needs: gcc, clang-19, gcc-aarch64-linux-gnu, binutils, xz-utils, zstd.
set -euo pipefail
cd "$(dirname "$0")"

X86_GCC="gcc -O2 -fcf-protection=branch -fpatchable-function-entry=16,16"
X86_CLANG="clang-19 -O2 -fsanitize=kcfi -fpatchable-function-entry=16,16"
# -falign-functions=8 as the kernel adds with CALL_OPS (the ops slot at f-8
# must be 8-byte aligned).
A64_GCC="aarch64-linux-gnu-gcc -O2 -mbranch-protection=pac-ret+bti -fpatchable-function-entry=4,2 -falign-functions=8"
A64_CLANG="clang-19 --target=aarch64-linux-gnu -O2 -fsanitize=kcfi"

cc() { # cc OUT COMPILER...
  local out=$1; shift
  "$@" -c flow.c -o "$out"
  "$@" -ffunction-sections -c flow.c -o "${out%.o}-fs.o"
}
cc x86/flow-gcc.o $X86_GCC
cc x86/flow-clang.o $X86_CLANG
cc arm64/flow-gcc.o $A64_GCC
cc arm64/flow-clang.o $A64_CLANG
# User-space calls to the C library's noreturn functions.
$X86_GCC -c libc.c -o x86/libc.o
$A64_GCC -c libc.c -o arm64/libc.o
# Linux 6.1's noreturn names and an init function's alias (gcc: clang
# splits no cold parts).
$X86_GCC -c linux61.c -o x86/linux61.o
$A64_GCC -c linux61.c -o arm64/linux61.o

for s in x86/*.s; do as --64 "$s" -o "${s%.s}.o"; done
# The same code as Linux 6.12 builds it (its banner).
as --64 --defsym V612=1 x86/kernel-version.s -o x86/kernel-version-612.o
for s in arm64/*.s; do aarch64-linux-gnu-as "$s" -o "${s%.s}.o"; done
# An alternative's replacement the mapping symbols call data (clang's).
clang-19 --target=aarch64-linux-gnu -march=armv8.3-a -c arm64-alt-subsection.s -o arm64/alt-subsection-clang.o
aarch64-linux-gnu-as -march=armv8.3-a arm64-alt-subsection.s -o arm64/alt-subsection-gas.o
# objtool's verdict on code outside functions running on and on an
# alternative's replacement running past its function (tests/core.rs),
# when fetch-corpus.sh has built it.
OBJTOOL=${OBJTOOL:-${OBJCORPUS:-$HOME/.cache/objcorpus}/bin/objtool}
if [ -x "$OBJTOOL" ]; then
  for o in unowned-run alt-end; do
    t=$(mktemp -d)
    cp "x86/$o.o" "$t/"
    {
      echo "# objtool --stackval --uaccess --rethunk $o.o   (objtool 6.12 from fetch-corpus.sh, $(date -u +%Y-%m-%d))"
      (cd "$t" && "$OBJTOOL" --stackval --uaccess --rethunk "$o.o" 2>&1 || true)
    } >"x86/$o.objtool.txt"
    rm -rf "$t"
  done
  # Each kernel version's objtool on its own build of kernel-version.s.
  OBJTOOL61=${OBJTOOL61:-$HOME/.cache/objcorpus61/bin/objtool}
  for v in 61:kernel-version 612:kernel-version-612; do
    o=${v#*:}
    bin=$OBJTOOL; [ "${v%%:*}" = 61 ] && bin=$OBJTOOL61
    [ -x "$bin" ] || continue
    t=$(mktemp -d)
    cp "x86/$o.o" "$t/"
    {
      echo "# objtool --orc --uaccess $o.o   (objtool ${v%%:*} from fetch-corpus.sh, $(date -u +%Y-%m-%d))" | sed 's/objtool 61 /objtool 6.1 /; s/objtool 612 /objtool 6.12 /'
      (cd "$t" && "$bin" --orc --uaccess "$o.o" 2>&1 || true)
    } >"x86/$o.objtool.txt"
    rm -rf "$t"
  done
fi

# x86/fp-entry.o is not rebuilt here: arch/x86/entry/entry.o as kbuild left
# it for objtool (`build-kernel-objects.sh x86-gcc-noibt` with
# UNWINDER_FRAME_POINTER and STACK_VALIDATION, Linux 6.12.117): the padding
# before warn_thunk_thunk is walked from its unwind hint as no function's
# code and runs into the function, which once made objlint fail (a bug).

# Input handling: archives (D: no timestamps, so it rebuilds byte for byte;
# the 16-character member name goes through the long-name table) and
# compressed module copies.
mkdir -p input
rm -f input/lib.a
ar rcD input/lib.a x86/missing-ret.o arm64/end-of-section.o
# A thin archive (kbuild's built-in.a): member headers only, paths relative
# to input/.
rm -f input/thin.a
ar rcDT input/thin.a x86/missing-ret.o arm64/end-of-section.o
xz -9 --keep --stdout x86/missing-ret.o > input/mod-x86.ko.xz
zstd -19 -q --stdout arm64/missing-ret.o > input/mod-arm64.ko.zst
