#!/usr/bin/env bash
# One whole kernel: objlint against objtool on a full vmlinux.o as objtool saw
# it (kbuild's vmlinux.o.pre-objtool.o and its recorded vmlinux.o arguments,
# plus --dry-run), same cores, alternating rounds, median wall time and peak
# RSS; objlint -j1 vs -jN on this one object; the decode-only floor (where
# there is no objtool, arm64, the only yardstick); findings of both;
# objlint's time and memory per phase (check --timings).
#
# Usage: scripts/vmlinux-bench.sh [--build] [--debug-info] [CONFIG] [ROUNDS] [JOBS]
#   CONFIG  x86-gcc (default) | x86-clang-kcfi | arm64-clang-kcfi (no objtool: objlint alone)
#   --build build the tree first if it has no vmlinux.o (about 30 min on 2 cores):
#           DIRS=vmlinux ../shared/corpus/build-kernel-objects.sh CONFIG $OBJCORPUS/kbuild-vmlinux
#   --debug-info  the same kernel with DWARF 5 debug info (as distributions
#           build theirs: a 965 MB vmlinux.o, 95% of its relocations in .debug_*),
#           in kbuild-vmlinux-debug/CONFIG (EXTRA_ENABLE=DEBUG_INFO_DWARF5; 37 min)
#   --lto   clang ThinLTO (x86-clang-kcfi): kbuild runs objtool once, on the
#           vmlinux.o the LTO link wrote; in kbuild-vmlinux-lto/CONFIG
#           (EXTRA_ENABLE=LTO_CLANG_THIN EXTRA_DISABLE=LTO_NONE; about an hour)
# Trees live in ${OBJCORPUS:-$HOME/.cache/objcorpus}/kbuild-vmlinux[-debug|-lto]/CONFIG
# (KSRC picks the kernel source, as for build-kernel-objects.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=0
DEBUG=0
LTO=0
while :; do
  case "${1:-}" in
    --build) BUILD=1; shift ;;
    --debug-info) DEBUG=1; shift ;;
    --lto) LTO=1; shift ;;
    *) break ;;
  esac
done
CONFIG=${1:-x86-gcc}
ROUNDS=${2:-3}
JOBS=${3:-$(nproc)}
C=${OBJCORPUS:-$HOME/.cache/objcorpus}
T=$C/kbuild-vmlinux
EXTRA=""
NOT=""
if [ $DEBUG = 1 ]; then T=$C/kbuild-vmlinux-debug; EXTRA=DEBUG_INFO_DWARF5; fi
if [ $LTO = 1 ]; then T=$C/kbuild-vmlinux-lto; EXTRA="$EXTRA LTO_CLANG_THIN"; NOT=LTO_NONE; fi
D=$T/$CONFIG
PRE=$D/vmlinux.o.pre-objtool.o
[ -f "$PRE" ] || PRE=$D/vmlinux.o
if [ ! -f "$PRE" ]; then
  if [ $BUILD = 1 ]; then
    EXTRA_ENABLE="$EXTRA" EXTRA_DISABLE="$NOT" DIRS=vmlinux ../shared/corpus/build-kernel-objects.sh "$CONFIG" "$T"
    PRE=$D/vmlinux.o.pre-objtool.o
    [ -f "$PRE" ] || PRE=$D/vmlinux.o
  else
    echo "no vmlinux.o in $D (run with --build, about 30 min on 2 cores)" >&2
    exit 2
  fi
fi
cargo build --release --quiet --bin objlint --example decode_all
OBJLINT=$PWD/target/release/objlint
DECODE=$PWD/target/release/examples/decode_all
# scripts/pgo.sh's profile-guided build, when built: measured beside.
PGO=""
if [ -x target/pgo/objlint ]; then
  PGO=$PWD/target/pgo/objlint
  [ "$(sed -n 's/^commit //p' target/pgo/TRAINING)" = "$(git rev-parse HEAD)" ] ||
    echo "note: target/pgo was built from another commit ($(head -1 target/pgo/TRAINING)); rerun scripts/pgo.sh" >&2
fi
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
# objtool writes into the object without --dry-run; both read this copy.
cp "$PRE" "$WORK/vmlinux.o"
OBJTOOL=""
ARGS=""
if [ -x "$D/tools/objtool/objtool.real" ] && [ -f "$D/objtool-invocations.tsv" ]; then
  OBJTOOL=$D/tools/objtool/objtool.real
  ARGS=$(awk -F'\t' '$1 ~ /(^|\/)vmlinux\.o$/ { print $2 }' "$D/objtool-invocations.tsv" | tail -1 | sed 's/ *[^ ]*vmlinux\.o$//')
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "input: $PRE ($(du -m "$PRE" | cut -f1) MB)"
[ -n "$OBJTOOL" ] && echo "objtool arguments: $ARGS --dry-run"

measure() { # label cmd... -> "label wall_s maxrss_kb"
  local label=$1; shift
  local t; t=$(mktemp)
  /usr/bin/time -f "%e %M" "$@" >/dev/null 2>"$t" || true
  echo "$label $(tail -1 "$t")"
  rm -f "$t"
}
if [ -n "$PGO" ] && ! cmp -s <("$OBJLINT" check -q --link --format json "$WORK/vmlinux.o") \
  <("$PGO" check -q --link --format json "$WORK/vmlinux.o"); then
  echo "error: the profile-guided build's findings differ from the release build's" >&2
  exit 1
fi
RES=$WORK/results
# One build's two runs; the release and profile-guided builds back to back,
# in turns first (as scripts/bench.sh: where a run falls in the round moved
# the comparison by more than the builds differ).
runs() { # label-prefix binary
  measure "$1-j$JOBS" "$2" check -q --link -j "$JOBS" --format short "$WORK/vmlinux.o" | tee -a "$RES"
  measure "$1-j1" "$2" check -q --link -j 1 --format short "$WORK/vmlinux.o" | tee -a "$RES"
}
for r in $(seq "$ROUNDS"); do
  [ -n "$OBJTOOL" ] && measure objtool "$OBJTOOL" $ARGS --dry-run "$WORK/vmlinux.o" | tee -a "$RES"
  if [ -n "$PGO" ] && [ $((r % 2)) -eq 0 ]; then
    runs pgo "$PGO"
    runs objlint "$OBJLINT"
  else
    runs objlint "$OBJLINT"
    [ -n "$PGO" ] && runs pgo "$PGO"
  fi
  # The floor: reading the object and decoding every instruction once (one
  # thread: decode_all is parallel over files, not inside one).
  measure decode-only "$DECODE" "$WORK/vmlinux.o" | tee -a "$RES"
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
stat() { # label column
  awk -v l="$1" -v c="$2" '$1 == l { print $c }' "$RES" | median
}
lint=$(stat "objlint-j$JOBS" 2); lint1=$(stat objlint-j1 2); lrss=$(stat "objlint-j$JOBS" 3)
echo
echo "median of $ROUNDS:"
echo "  objlint -j$JOBS: ${lint} s, $((lrss / 1024)) MiB; -j1 ${lint1} s (-j1 -> -j$JOBS $(echo "$lint1 / $lint" | bc -l | cut -c1-4)x)"
dec=$(stat decode-only 2)
echo "  decode only (one thread): ${dec} s; objlint -j1 / decode only $(echo "$lint1 / $dec" | bc -l | cut -c1-4)"
if [ -n "$PGO" ]; then
  pgo=$(stat "pgo-j$JOBS" 2); pgo1=$(stat pgo-j1 2); prss=$(stat "pgo-j$JOBS" 3)
  echo "  profile-guided build (target/pgo, $(sed -n 2,9p target/pgo/TRAINING | tr '\n' ' ')): -j$JOBS ${pgo} s, $((prss / 1024)) MiB," \
    "-j1 ${pgo1} s (-j1 -> -j$JOBS $(echo "$pgo1 / $pgo" | bc -l | cut -c1-4)x), $(echo "$lint / $pgo" | bc -l | cut -c1-4)x the release build's speed"
fi
if [ -n "$OBJTOOL" ]; then
  tool=$(stat objtool 2); trss=$(stat objtool 3)
  echo "  objtool: ${tool} s, $((trss / 1024)) MiB"
  echo "  objlint $(echo "$tool / $lint" | bc -l | cut -c1-5)x faster, RSS $(echo "$lrss / $trss" | bc -l | cut -c1-4) of objtool's"
  if [ -n "$PGO" ]; then echo "  profile-guided build $(echo "$tool / $pgo" | bc -l | cut -c1-5)x faster"; fi
  echo
  echo "objtool's warnings:"
  "$OBJTOOL" $ARGS --dry-run "$WORK/vmlinux.o" 2>&1 | sed 's/^/  /' | head -50 || true
fi
echo
echo "objlint's findings:"
"$OBJLINT" check --link -j "$JOBS" --format short "$WORK/vmlinux.o" 2>&1 | sed 's/^/  /' | head -50 || true
echo
echo "objlint per phase, -j1 (thread time adds up to the run):"
"$OBJLINT" check -q --link -j 1 --timings --format short "$WORK/vmlinux.o" 2>&1 >/dev/null | sed 's/^/  /'
