#!/usr/bin/env bash
# Rebuild the speculation fixtures (retpoline, rethunk, sls): spec.c compiled
# with each mitigation by both compilers (must stay clean), and hand-written
# assembly with the cases each rule reports. Expected findings sit beside
# each object as NAME.expected (`--format short --enable retpoline,rethunk,sls`,
# from this folder; tests/speculation.rs compares them). For x86, objtool's
# own output on the same object (`objtool --retpoline --rethunk --sls`, the
# checks kbuild runs) is kept as NAME.objtool when objtool is at $OBJTOOL
# (default: the corpus build, ../shared/corpus/fetch-corpus.sh).
# Needs: gcc, clang-19, gcc-aarch64-linux-gnu, binutils.
set -euo pipefail
cd "$(dirname "$0")"
OBJTOOL=${OBJTOOL:-$HOME/.cache/objcorpus/bin/objtool}

X86_THUNKS="-mindirect-branch=thunk-extern -mfunction-return=thunk-extern -mindirect-branch-register -fno-jump-tables"
gcc -O2 $X86_THUNKS -c spec.c -o x86/spec-gcc-retpoline.o
clang-19 -O2 -mretpoline-external-thunk -mfunction-return=thunk-extern -c spec.c -o x86/spec-clang-retpoline.o
gcc -O2 -mharden-sls=all -c spec.c -o x86/spec-gcc-sls.o
clang-19 -O2 -mharden-sls=all -c spec.c -o x86/spec-clang-sls.o
gcc -O2 $X86_THUNKS -mharden-sls=all -c spec.c -o x86/spec-gcc-all.o
aarch64-linux-gnu-gcc -O2 -mharden-sls=retbr -c spec.c -o arm64/spec-gcc-retbr.o
aarch64-linux-gnu-gcc -O2 -mharden-sls=all -c spec.c -o arm64/spec-gcc-all.o
clang-19 --target=aarch64-linux-gnu -O2 -mharden-sls=retbr -c spec.c -o arm64/spec-clang-retbr.o
clang-19 --target=aarch64-linux-gnu -O2 -mharden-sls=all -c spec.c -o arm64/spec-clang-all.o
# A switch table bounds-checked through the register its index was copied
# from (every case reachable; once read short by one entry).
aarch64-linux-gnu-gcc -O2 -fno-pic -mbranch-protection=pac-ret -c switch.c -o arm64/spec-gcc-switch.o
# The same with a barrier after the return before the dispatch block.
aarch64-linux-gnu-gcc -O2 -fno-pic -mbranch-protection=pac-ret -mharden-sls=all -c switch.c -o arm64/spec-gcc-switch-sls.o
# Indirect calls through two registers: GCC's per-function blr stubs share
# one barrier after the last.
aarch64-linux-gnu-gcc -O2 -fno-pic -mbranch-protection=pac-ret -mharden-sls=all -c blr.c -o arm64/spec-gcc-blr-stubs.o
clang-19 --target=aarch64-linux-gnu -O2 -mbranch-protection=pac-ret -mharden-sls=all -c blr.c -o arm64/spec-clang-blr-stubs.o

for s in x86/*.s; do as --64 "$s" -o "${s%.s}.o"; done
for s in arm64/*.s; do aarch64-linux-gnu-as -march=armv8.5-a "$s" -o "${s%.s}.o"; done

if [ -x "$OBJTOOL" ]; then
  for o in x86/*.o; do
    # objtool warns once per symbol, so each check runs on its own; module
    # objects get --module (their .init.text is not exempt).
    mod=""; case "$o" in *module*) mod=--module ;; esac
    { case "$o" in
        # The walk's checks (DF, intra-function calls, reachability).
        */reach*.o) "$OBJTOOL" --stackval "$o" 2>&1 || true ;;
        *) "$OBJTOOL" --retpoline --rethunk $mod "$o" 2>&1 || true
           "$OBJTOOL" --sls $mod "$o" 2>&1 || true ;;
      esac; } | LC_ALL=C sort > "${o%.o}.objtool"
  done
fi
