#!/usr/bin/env bash
# User-space Rust, a corpus no rule was written for: the codegen units
# (`*.rcgu.o`) inside the rlibs cargo built for this project (rustc's x86-64
# output: calls through the GOT, landing pads, LLVM's switch dispatches and
# stack probes). Extracts every rlib of DEPS, runs objlint over the objects
# (every rule, JSON Lines) and prints findings per rule, optionally against
# another binary (`--before BIN`, e.g. main's). docs/ACCURACY.md ("User-space
# Rust, not tuned on") judges what it prints.
#
# Usage:
#   scripts/rust-corpus.sh [--deps DIR] [--objlint BIN] [--before BIN] [--jobs N] [--out DIR]
#
# DIR defaults to target/release/deps (run `cargo build --release` first).
# Writes OUT/rust.json (and OUT/rust.before.json); OUT defaults to a new
# temporary directory, printed at the end. Needs ar (binutils) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
deps=target/release/deps
objlint=target/release/objlint
before=
jobs=2
out=
while [ $# -gt 0 ]; do
  case $1 in
    --deps) deps=$2; shift 2 ;;
    --objlint) objlint=$2; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--deps DIR] [--objlint BIN] [--before BIN] [--jobs N] [--out DIR]" >&2; exit 2 ;;
  esac
done
out=${out:-$(mktemp -d)}
mkdir -p "$out"
x=$(mktemp -d)
trap 'rm -rf "$x"' EXIT
n=0
for r in "$deps"/*.rlib; do
  [ -e "$r" ] || { echo "no rlibs in $deps" >&2; exit 2; }
  d=$x/$(basename "$r" .rlib)
  mkdir -p "$d"
  ra=$(realpath "$r")
  (cd "$d" && ar x "$ra" && rm -f ./*.rmeta)
  n=$((n + 1))
done
echo "$n rlibs, $(find "$x" -name '*.o' | wc -l) objects"
# Exit 1 means findings; 2 would be an unreadable object, reported in the JSON.
"$objlint" check -q --format json -j "$jobs" "$x" >"$out/rust.json" || [ $? -eq 1 ]
if [ -n "$before" ]; then
  "$before" check -q --format json -j "$jobs" "$x" >"$out/rust.before.json" || [ $? -eq 1 ]
fi
scripts/findings-table.py "$out" ${before:+--before} rust
echo "JSON in $out"
