#!/usr/bin/env bash
# Digests of objlint's JSON findings on every corpus this machine has: the
# byte-identity check run before a change lands ("no corpus moved"). Prints one
# line per corpus, "name md5-prefix"; the prefixes are the ones the docs quote
# (docs/ACCURACY.md, docs/PERFORMANCE.md). Paths are absolute for the corpora,
# relative for testdata, as the quoted digests were taken; a corpus that is not
# here is skipped with a note.
#
# Usage: scripts/digests.sh [OBJLINT]     (default target/release/objlint)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-target/release/objlint}
[ -x "$B" ] || cargo build --release --quiet --bin objlint
C=${OBJCORPUS:-$HOME/.cache/objcorpus}
dig() { # name args...
  local name=$1; shift
  printf '%-28s %s\n' "$name" "$("$B" check -q --format json -j "$(nproc)" "$@" | md5sum | cut -c1-8)"
}
dig testdata testdata
for d in x86_64 arm64 objtool-input; do
  if [ -d "$C/$d" ]; then dig "$d" "$C/$d"; else echo "$d: not here"; fi
done
for t in kbuild-vmlinux kbuild-vmlinux-debug kbuild-vmlinux-lto; do
  for o in "$C"/$t/*/vmlinux.o.pre-objtool.o; do
    [ -f "$o" ] || continue
    dig "$t/$(basename "$(dirname "$o")")" --link "$o"
  done
done
