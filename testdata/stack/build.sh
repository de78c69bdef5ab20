#!/usr/bin/env bash
# Rebuild the stack fixtures and their ground truth.
#
# - x86-cases.s / arm64-cases.s: hand-written faults, one per function, with
#   the clean forms beside them.
# - inline-push.c (x86 gcc) and frames.c with clang-19 -g and no unwind
#   tables (arm64-clang-sync.o): DWARF CFI that is not exact at every
#   instruction, which cfi-mismatch must not hold against the code.
# - frames.c, compiled with gcc and clang-19 for x86-64 (kernel flags, with
#   and without frame pointers, and clang's kCFI with the kernel's padding)
#   and with gcc-aarch64-linux-gnu and clang-19 for arm64 (pac-ret,
#   pac-ret+bti), all with -fasynchronous-unwind-tables so that .eh_frame
#   states the stack at every instruction.
# - For each x86 object X.o, objtool's own verdict (X.objtool.txt: its
#   warnings with --orc, and with --stackval for the frame-pointer builds)
#   and the object objtool wrote its ORC into (X.orc.o): the ground truth
#   tests/stack.rs compares objlint with. Made with objtool 6.12 as
#   ../shared/corpus/fetch-corpus.sh builds it ($OBJTOOL overrides).
#
# Needs: gcc, clang-19, gcc-aarch64-linux-gnu, binutils; objtool for the x86
# ground truth.
set -euo pipefail
cd "$(dirname "$0")"
OBJTOOL=${OBJTOOL:-${OBJCORPUS:-$HOME/.cache/objcorpus}/bin/objtool}

K="-O2 -fno-strict-aliasing -fno-common -mno-red-zone -mcmodel=kernel -fno-pie -fno-stack-protector -fasynchronous-unwind-tables"
gcc $K -fomit-frame-pointer -c frames.c -o x86-gcc.o
gcc $K -fno-omit-frame-pointer -c frames.c -o x86-gcc-fp.o
clang-19 $K -fomit-frame-pointer -c frames.c -o x86-clang.o
clang-19 $K -fno-omit-frame-pointer -c frames.c -o x86-clang-fp.o
# kCFI as the kernel builds it (CFI_CLANG, CALL_PADDING, IBT with its
# -fno-jump-tables): each function's `__cfi_` preamble symbol covers only its
# 5-byte `mov $hash,%eax`, the 11 NOPs after it lie outside any symbol.
clang-19 $K -fomit-frame-pointer -fsanitize=kcfi -fpatchable-function-entry=11,11 -fcf-protection=branch -fno-jump-tables -c frames.c -o x86-clang-kcfi.o
# A computed-goto interpreter (the kernel's ___bpf_prog_run) built as the
# kernel builds it with IBT, retpolines and return thunks: the dispatch is a
# jump to an indirect thunk defined in the object, as in vmlinux.o.
gcc $K -fomit-frame-pointer -fcf-protection=branch -fno-jump-tables -mindirect-branch=thunk-extern -mindirect-branch-register -mfunction-return=thunk-extern -c goto-thunk.c -o x86-gcc-goto.o
# CFI the compiler cannot make exact: a push in inline assembly (x86), and
# clang's .debug_frame without unwind tables, which holds at calls only.
gcc $K -c inline-push.c -o x86-inline-push.o
# A call through a noreturn pointer ends a function DWARF declares noreturn.
gcc -O2 -g "-fdebug-prefix-map=$PWD=." -c noreturn-ptr.c -o x86-gcc-noreturn-ptr.o
clang-19 --target=aarch64-linux-gnu -O2 -g "-fdebug-prefix-map=$PWD=." -mbranch-protection=standard -c noreturn-ptr.c -o arm64-clang-noreturn-ptr.o
# A noreturn callee renamed by objcopy --prefix-symbols (prefixed-noreturn.c).
clang-19 --target=aarch64-linux-gnu -O2 -g "-fdebug-prefix-map=$PWD=." -mbranch-protection=standard -c prefixed-noreturn.c -o prefixed-noreturn.tmp.o
for p in __kvm_nvhe_ __efistub_ __pi_ __other_; do
  aarch64-linux-gnu-objcopy --prefix-symbols=$p prefixed-noreturn.tmp.o arm64-clang-prefixed-$p.o
done
rm prefixed-noreturn.tmp.o
as --64 x86-cases.s -o x86-cases.o
as --64 x86-hints61.s -o x86-hints61.o
as --64 x86-cold-cases.s -o x86-cold-cases.o
as --64 cfi-asm.s -o cfi-asm.o
as --64 x86-embedded-call.s -o x86-embedded-call.o
as --64 x86-call-to-end.s -o x86-call-to-end.o
as --64 x86-got-call.s -o x86-got-call.o
as --64 x86-fp-detect.s -o x86-fp-detect.o
# Retpoline thunks the compiler puts in the object (rules/special.toml
# compiler_thunks): clang's carry no CFI, gcc's do.
clang-19 -O2 -mretpoline -c retpoline.c -o x86-clang-retpoline.o
gcc -O2 -mindirect-branch=thunk -c retpoline.c -o x86-gcc-retpoline.o
as --64 x86-reachable-call.s -o x86-reachable-call.o
as --64 --defsym UNANNOTATED=1 x86-reachable-call.s -o x86-reachable-call-unannotated.o
as --64 x86-fp-sibling.s -o x86-fp-trampoline.o
as --64 --defsym SIBLING=1 x86-fp-sibling.s -o x86-fp-sibling.o
# Two alternatives at one site: as Linux 6.1 (a stack layout conflict) and
# as 6.12 (FIXED), each with .altinstructions laid out for 6.12 and 6.1.
as --64 x86-alt2.s -o x86-alt2.o
as --64 --defsym FIXED=1 x86-alt2.s -o x86-alt2-fixed.o
as --64 --defsym V61=1 x86-alt2.s -o x86-alt2-61.o
as --64 --defsym V61=1 --defsym FIXED=1 x86-alt2.s -o x86-alt2-fixed-61.o

A="-O2 -fno-strict-aliasing -fno-common -fasynchronous-unwind-tables"
aarch64-linux-gnu-gcc $A -mbranch-protection=pac-ret -c frames.c -o arm64-gcc.o
aarch64-linux-gnu-gcc $A -mbranch-protection=pac-ret+bti -fno-omit-frame-pointer -c frames.c -o arm64-gcc-fp.o
clang-19 --target=aarch64-linux-gnu $A -mbranch-protection=pac-ret -c frames.c -o arm64-clang.o
clang-19 --target=aarch64-linux-gnu $A -mbranch-protection=standard -fno-omit-frame-pointer -c frames.c -o arm64-clang-fp.o
# A switch bounded by a branch to the function's end (switch-default.c).
clang-19 --target=aarch64-linux-gnu $A -mbranch-protection=standard -c switch-default.c -o arm64-clang-switch.o
clang-19 --target=aarch64-linux-gnu -O2 -fno-strict-aliasing -fno-common -g -fno-asynchronous-unwind-tables -fno-unwind-tables -mbranch-protection=pac-ret -c frames.c -o arm64-clang-sync.o
aarch64-linux-gnu-as -march=armv8.3-a arm64-cases.s -o arm64-cases.o
aarch64-linux-gnu-as -march=armv8.5-a non-standard-arm64.s -o non-standard-arm64.o
aarch64-linux-gnu-as -march=armv8.5-a non-standard-arm64-61.s -o non-standard-arm64-61.o
aarch64-linux-gnu-as -march=armv8.5-a arm64-idmap.s -o arm64-idmap.o
aarch64-linux-gnu-as -march=armv8.5-a arm64-kasan-noreturn.s -o arm64-kasan-noreturn.o
aarch64-linux-gnu-as -march=armv8.5-a --defsym NOMARKER=1 arm64-kasan-noreturn.s -o arm64-kasan-noreturn-unmarked.o

if [ -x "$OBJTOOL" ]; then
  # verdict FILE OBJECT ARGS...: objtool's warnings on OBJECT into FILE.
  verdict() {
    local out=$1 o=$2; shift 2
    {
      echo "# objtool $* $o.o   (objtool 6.12 from fetch-corpus.sh, $(date -u +%Y-%m-%d))"
      cp "$o.o" "/tmp/objlint-stack-$$.o"
      "$OBJTOOL" "$@" --dry-run "/tmp/objlint-stack-$$.o" 2>&1 | sed "s|/tmp/objlint-stack-$$.o|$o.o|" || true
      rm -f "/tmp/objlint-stack-$$.o"
    } > "$out"
  }
  for o in x86-gcc x86-clang x86-gcc-fp x86-clang-fp x86-clang-kcfi; do
    args="--orc"
    case $o in *-fp) args="--orc --stackval" ;; esac
    verdict "$o.objtool.txt" "$o" $args
    # The ORC objtool writes: the expected unwind table.
    cp "$o.o" "$o.orc.o"
    "$OBJTOOL" --orc "$o.orc.o"
  done
  # A call marked reachable, and the same without the mark (objtool's
  # verdict on that: the callee is missing a __noreturn annotation).
  for o in x86-reachable-call x86-reachable-call-unannotated; do
    cp "$o.o" "$o.orc.o"
    "$OBJTOOL" --orc "$o.orc.o" 2>/dev/null
  done
  verdict x86-reachable-call-unannotated.objtool.txt x86-reachable-call-unannotated --orc
  # vmlinux.o's arguments (kbuild): the thunks are defined here as there.
  verdict x86-gcc-goto.objtool.txt x86-gcc-goto --hacks=jump_label --hacks=noinstr --hacks=skylake --ibt --orc --retpoline --rethunk --static-call --uaccess --noinstr --prefix=16 --link
  cp x86-gcc-goto.o x86-gcc-goto.orc.o
  "$OBJTOOL" --orc x86-gcc-goto.orc.o
  verdict x86-gcc-noreturn-ptr.objtool.txt x86-gcc-noreturn-ptr --orc
  verdict x86-cases.objtool.txt x86-cases --orc
  verdict x86-cases.stackval.objtool.txt x86-cases --stackval
  verdict x86-embedded-call.stackval.objtool.txt x86-embedded-call --stackval
  verdict x86-fp-detect.stackval.objtool.txt x86-fp-detect --stackval
  verdict x86-fp-trampoline.stackval.objtool.txt x86-fp-trampoline --stackval
  verdict x86-fp-sibling.stackval.objtool.txt x86-fp-sibling --stackval
  verdict x86-alt2.objtool.txt x86-alt2 --orc
  verdict x86-alt2-fixed.objtool.txt x86-alt2-fixed --orc
  for o in x86-alt2 x86-alt2-fixed; do
    cp "$o.o" "$o.orc.o"
    "$OBJTOOL" --orc "$o.orc.o" 2>/dev/null || true
  done
  # The paths objtool follows to each warning (its branch lines).
  verdict x86-cases.backtrace.objtool.txt x86-cases --orc --backtrace
else
  echo "objtool not found ($OBJTOOL): the x86 ground truth is not rebuilt" >&2
fi

# The ORC objtool 6.1 writes (the row layout before Linux 6.4: two type
# bits and an `end` bit), from the 6.1 corpus's objtool
# (OBJCORPUS_SERIES=6.1 fetch-corpus.sh ~/.cache/objcorpus61; $OBJTOOL61
# overrides): X.orc61.o, which tests/stack.rs reads as it reads 6.1 modules.
OBJTOOL61=${OBJTOOL61:-$HOME/.cache/objcorpus61/bin/objtool}
if [ -x "$OBJTOOL61" ]; then
  for o in x86-gcc x86-gcc-fp x86-clang x86-clang-fp x86-hints61 x86-cold-cases x86-alt2-61 x86-alt2-fixed-61; do
    cp "$o.o" "$o.orc61.o"
    "$OBJTOOL61" --orc "$o.orc61.o"
  done
  # Real ORC-build objects, committed, not rebuilt: x86-orc-fse.o
  # (lib/zstd/common/fse_decompress.o of a Linux 6.1 kbuild x86-gcc-noibt
  # build as objtool saw it) and x86-orc-chacha.o (lib/crypto/chacha.o of
  # a Linux 6.1 x86-clang-kcfi build): objtool 6.1 with kbuild's arguments
  # for an ORC object, and with --stackval.
  for o in x86-orc-fse x86-orc-chacha; do
    for v in "objtool61.txt --hacks=jump_label --hacks=noinstr --orc --retpoline --rethunk --static-call --uaccess" \
             "stackval.objtool61.txt --stackval"; do
      set -- $v; out=$1; shift
      {
        echo "# objtool $* $o.o   (objtool 6.1 from fetch-corpus.sh, $(date -u +%Y-%m-%d))"
        cp "$o.o" "/tmp/objlint-stack-$$.o"
        "$OBJTOOL61" "$@" --dry-run "/tmp/objlint-stack-$$.o" 2>&1 | sed "s|/tmp/objlint-stack-$$.o|$o.o|" || true
        rm -f "/tmp/objlint-stack-$$.o"
      } > "$o.$out"
    done
  done
else
  echo "objtool 6.1 not found ($OBJTOOL61): the *.orc61.o ground truth is not rebuilt" >&2
fi

# The README's example objects (testdata/examples/README.md).
cp x86-cases.o ../examples/stack-x86_64.o
cp arm64-cases.o ../examples/stack-arm64.o
