#!/usr/bin/env bash
# A profile-guided build of objlint: build it instrumented, run it over
# training objects, merge the profiles, build it again with them. Same
# source, same findings (scripts/bench.sh checks); what changes is how the
# compiler lays out and inlines the branchy decode and walk loops.
#
# Usage: scripts/pgo.sh [TRAIN...]
#   TRAIN  files or directories of objects to train on. Default: the bundled
#          testdata and a kbuild tree's per-object x86 objects (built by
#          ../shared/corpus/build-kernel-objects.sh, e.g. the vmlinux tree
#          scripts/vmlinux-bench.sh uses); without such a tree, the corpus's
#          arm64 modules instead (a weaker profile: x86 decoding untrained).
#          None of these is an input of scripts/bench.sh (Debian's x86-64
#          modules), so the speed measured there is on code not trained on.
# Output: target/pgo/objlint (and target/pgo/decode_all, for bench.sh's
# decode-only yardstick), target/pgo/TRAINING (what it was trained on).
# Needs llvm-profdata of rustc's own LLVM: `rustup component add llvm-tools`.
# Two release builds from scratch: about 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
C=${OBJCORPUS:-$HOME/.cache/objcorpus}
HOST=$(rustc -vV | awk '/^host:/{print $2}')
PROFDATA=$(rustc --print sysroot)/lib/rustlib/$HOST/bin/llvm-profdata
if [ ! -x "$PROFDATA" ]; then
  echo "pgo.sh: no $PROFDATA; run: rustup component add llvm-tools" >&2
  exit 2
fi
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
if [ $# -gt 0 ]; then
  TRAIN=("$@")
else
  TRAIN=(testdata)
  # kbuild's objects as objtool left them (the per-object files, not the
  # linked vmlinux.o or the archives), through links so nothing else in the
  # tree is read.
  mkdir "$WORK/kbuild"
  for tree in "$C"/kbuild-*/x86-*; do
    [ -d "$tree" ] || continue
    (cd "$tree" && find . -name '*.o' -size +1k ! -name 'vmlinux.o*' ! -name '*.mod.o' | sort) |
      while read -r f; do ln -s "$tree/${f#./}" "$WORK/kbuild/$(basename "$tree")_$(echo "${f#./}" | tr / _)"; done
  done
  if [ -n "$(ls -A "$WORK/kbuild")" ]; then
    TRAIN+=("$WORK/kbuild")
  elif [ -d "$C/arm64" ]; then
    echo "pgo.sh: no kbuild tree in $C/kbuild-*; training on arm64 modules (x86 decoding untrained)" >&2
    TRAIN+=("$C/arm64")
  fi
fi
echo "training on: ${TRAIN[*]}"
RAW=$WORK/raw
# Both builds take the same targets: an example brings in dev-dependencies,
# whose features change the crates' symbol hashes, and a profile is matched
# to functions by symbol (checked below). The build scripts an instrumented
# build runs write their profiles to the compile-time directory; the
# training runs write theirs to $RAW.
GENDIR=$PWD/target/pgo-generate
rm -rf "$GENDIR/build-profiles"
RUSTFLAGS="-Cprofile-generate=$GENDIR/build-profiles" cargo build --release --quiet \
  --bin objlint --example decode_all --target-dir "$GENDIR"
GEN=$GENDIR/release/objlint
# Both modes the benchmarks run: objects one by one, and as linked wholes.
# Exit 1 (findings) and 2 (a training file objlint refuses) are expected.
export LLVM_PROFILE_FILE=$RAW/%m_%p.profraw
"$GEN" check -q --format json "${TRAIN[@]}" >/dev/null 2>&1 || true
"$GEN" check -q --link --format json "${TRAIN[@]}" >/dev/null 2>&1 || true
unset LLVM_PROFILE_FILE
mkdir -p target/pgo
rm -f target/pgo/*.profdata
"$PROFDATA" merge -o "$WORK/merged.profdata" "$RAW"
# Named by its content: cargo does not see a profile change, a flag change it does.
PROFILE=$PWD/target/pgo/objlint-$(sha256sum "$WORK/merged.profdata" | cut -c1-16).profdata
mv "$WORK/merged.profdata" "$PROFILE"
RUSTFLAGS="-Cprofile-use=$PROFILE" cargo build --release --quiet \
  --bin objlint --example decode_all --target-dir target/pgo-use
USE=target/pgo-use/release/objlint
syms() { nm "$1" | awk '$3 ~ /^_ZN7objlint/ { print $3 }' | sort -u; }
syms "$GEN" >"$WORK/gen.syms"
common=$(comm -12 "$WORK/gen.syms" <(syms "$USE") | wc -l)
total=$(wc -l <"$WORK/gen.syms")
if [ $((common * 2)) -lt "$total" ]; then
  echo "pgo.sh: only $common of the instrumented build's $total objlint symbols are in the" \
    "profile-guided build: the profile does not apply (the two builds differ in features?)" >&2
  exit 1
fi
# Same source, same findings: checked on the bundled objects before the
# build is put where the benchmarks look for it.
cargo build --release --quiet --bin objlint
for mode in "" --link; do
  if ! cmp -s <(target/release/objlint check -q $mode --format json testdata 2>&1) \
    <("$USE" check -q $mode --format json testdata 2>&1); then
    echo "pgo.sh: the profile-guided build's findings on testdata differ from the release build's" >&2
    exit 1
  fi
done
cp "$USE" target/pgo/objlint
cp target/pgo-use/release/examples/decode_all target/pgo/decode_all
{
  echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  for t in "${TRAIN[@]}"; do
    case $t in "$WORK"/kbuild) echo "kbuild per-object x86 objects: $(ls "$t" | wc -l)" ;; *) echo "$t" ;; esac
  done
} >target/pgo/TRAINING
echo "built target/pgo/objlint; trained on:"; sed 1d target/pgo/TRAINING
