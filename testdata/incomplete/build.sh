#!/usr/bin/env bash
# Rebuild the analysis-incomplete fixtures: hand-written objects, each with one
# thing objlint cannot check (and a clean counterpart where there is one).
# Needs: binutils, gcc-aarch64-linux-gnu; objtool (optional).
set -euo pipefail
cd "$(dirname "$0")"
for s in x86-*.s; do as --64 "$s" -o "${s%.s}.o"; done
# A switch's cases with a fault only their walk finds (x86-switch-pie-loop.s
# is gcc's output of x86-switch-pie-loop.c, see its head).
as --64 --defsym FAULT=1 x86-switch-pie-loop.s -o x86-switch-pie-loop-fault.o
# The same with a `mov` scheduled before the jump (x86-switch-pie-scheduled.s
# is rustc's output of x86-switch-pie-scheduled.rs).
as --64 --defsym FAULT=1 x86-switch-pie-scheduled.s -o x86-switch-pie-scheduled-fault.o
# Two hoisted table registers (x86-switch-pie-two-tables.s is gcc's output
# of x86-switch-pie-two-tables.c).
as --64 --defsym FAULT=1 x86-switch-pie-two-tables.s -o x86-switch-pie-two-tables-fault.o
# Every table entry right.
as --64 --defsym CLEAN=1 x86-table-entry.s -o x86-table-entry-clean.o
for s in arm64-*.s; do aarch64-linux-gnu-as "$s" -o "${s%.s}.o"; done
# With a fault only a walk of the switch's cases finds.
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-after-noreturn.s -o arm64-switch-after-noreturn-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-pair-spill.s -o arm64-switch-pair-spill-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-one-spill.s -o arm64-switch-one-spill-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-two-in-loop.s -o arm64-switch-two-in-loop-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-moved.s -o arm64-switch-moved-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-prefetch.s -o arm64-switch-prefetch-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-slot-reload.s -o arm64-switch-slot-reload-fault.o
aarch64-linux-gnu-as --defsym OTHER=1 arm64-switch-slot-reload.s -o arm64-switch-slot-reload-other.o
aarch64-linux-gnu-as --defsym NARROW=1 arm64-switch-slot-reload.s -o arm64-switch-slot-reload-narrow.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-goto-split.s -o arm64-goto-split-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-goto-derived.s -o arm64-goto-derived-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-ccmp.s -o arm64-switch-ccmp-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-trap-callee.s -o arm64-switch-trap-callee-fault.o
aarch64-linux-gnu-as --defsym FAULT=1 arm64-switch-respilled.s -o arm64-switch-respilled-fault.o
# Renamed as the kernel renames its nVHE hypervisor objects (mapping
# symbols included).
aarch64-linux-gnu-objcopy --prefix-symbols=__kvm_nvhe_ arm64-jump-past-end.o arm64-jump-past-end-prefixed.o
# objtool's verdict on the mid-instruction jump (tests/incomplete.rs), when
# fetch-corpus.sh has built it.
OBJTOOL=${OBJTOOL:-${OBJCORPUS:-$HOME/.cache/objcorpus}/bin/objtool}
if [ -x "$OBJTOOL" ]; then
  t=$(mktemp -d)
  for o in x86-jump-target.o x86-table-entry.o x86-call-target.o x86-hint-unfollowed.o; do
    cp "$o" "$t/"
    {
      echo "# objtool --stackval --uaccess --rethunk $o   (objtool 6.12 from fetch-corpus.sh, $(date -u +%Y-%m-%d))"
      (cd "$t" && "$OBJTOOL" --stackval --uaccess --rethunk "$o" 2>&1 || true)
    } >"${o%.o}.objtool.txt"
  done
  rm -rf "$t"
fi
# The README's example object (testdata/examples/README.md).
cp x86-undecodable.o ../examples/incomplete-x86_64.o
