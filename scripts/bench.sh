#!/usr/bin/env bash
# End-to-end speed and memory: objlint (all rules) against objtool 6.12 (kbuild's
# module arguments + --dry-run) on the same x86-64 modules, same parallelism.
# Alternating rounds; prints each round and the median ratio; peak RSS of both
# from /usr/bin/time -v; objlint with 1 vs N threads; the decode-only baseline.
#
# Usage: scripts/bench.sh [ROUNDS] [JOBS]      (defaults 3, nproc)
# Needs the corpus (../shared/corpus/fetch-corpus.sh) and scripts/corpus.py run
# once (it prepares objtool's inputs in $OBJCORPUS/objtool-input).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
JOBS=${2:-$(nproc)}
C=${OBJCORPUS:-$HOME/.cache/objcorpus}
IN=$C/objtool-input
[ -d "$IN" ] || { echo "run scripts/corpus.py first (prepares $IN)" >&2; exit 2; }
cargo build --release --quiet --bin objlint --example decode_all
OBJLINT=target/release/objlint
DECODE=target/release/examples/decode_all
ARGS=$(cat "$C/objtool-args-x86_64-module.txt")
# scripts/pgo.sh's profile-guided build of the same source, when built:
# measured beside the plain release build, its findings checked identical.
PGO=""
if [ -x target/pgo/objlint ] && [ -x target/pgo/decode_all ]; then
  PGO=target/pgo/objlint
  [ "$(sed -n 's/^commit //p' target/pgo/TRAINING)" = "$(git rev-parse HEAD)" ] ||
    echo "note: target/pgo was built from another commit ($(head -1 target/pgo/TRAINING)); rerun scripts/pgo.sh" >&2
fi
export PGO
LIST=$(mktemp); trap 'rm -f "$LIST"' EXIT
(cd "$IN" && find . -name '*.ko' | sort) >"$LIST"
echo "machine: $(nproc) cores, $(awk '/MemTotal/{print int($2/1024/1024)" GiB"}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "inputs: $(wc -l <"$LIST") modules in $IN"

measure() { # label cmd... -> prints "label wall_s maxrss_kb"
  local label=$1; shift
  local t; t=$(mktemp)
  /usr/bin/time -v "$@" >/dev/null 2>"$t" || true
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$t")
  rss=$(awk -F': ' '/Maximum resident set size/{print $2}' "$t")
  rm -f "$t"
  echo "$label $wall $rss"
}
# objtool 7.x exits 255 on a warning, which makes xargs stop: every module
# is run whatever its exit code.
objtool_all() { (cd "$IN" && tr '\n' '\0' <"$LIST" | xargs -0 -P"$JOBS" -n1 sh -c '"$0" "$@" 2>/dev/null; exit 0' "$C/bin/objtool" $ARGS --dry-run); }
export -f objtool_all; export IN LIST JOBS C ARGS

if [ -n "$PGO" ] && ! cmp -s <("$OBJLINT" check -q --format json -j "$JOBS" "$IN") <("$PGO" check -q --format json -j "$JOBS" "$IN"); then
  echo "error: the profile-guided build's findings differ from the release build's" >&2
  exit 1
fi
results=$(mktemp)
# The two builds of objlint back to back, in turns first (measured after
# objtool's run, the profile-guided build came out 9% slower than the
# release build in one bench and 6-9% faster run next to it, 2026-12-06).
both() {
  local r=$1
  if [ -z "$PGO" ] || [ $((r % 2)) -eq 1 ]; then
    measure objlint "$OBJLINT" check -q --format json -j "$JOBS" "$IN" | tee -a "$results"
  fi
  if [ -n "$PGO" ]; then
    measure objlint-pgo "$PGO" check -q --format json -j "$JOBS" "$IN" | tee -a "$results"
    if [ $((r % 2)) -eq 0 ]; then
      measure objlint "$OBJLINT" check -q --format json -j "$JOBS" "$IN" | tee -a "$results"
    fi
  fi
}
for r in $(seq 1 "$ROUNDS"); do
  both "$r"
  measure objtool bash -c objtool_all | tee -a "$results"
  measure decode-only "$DECODE" "$IN" | tee -a "$results"
  if [ -n "$PGO" ]; then
    measure decode-only-pgo target/pgo/decode_all "$IN" | tee -a "$results"
  fi
done
measure objlint-j1 "$OBJLINT" check -q --format json -j 1 "$IN" | tee -a "$results"
# One large object: parallelism inside an object (sections decoded and
# functions checked in parallel), and objtool on the same file.
BIG=$(cd "$IN" && tr '\n' '\0' <"$LIST" | xargs -0 stat -c '%s %n' | sort -n | tail -n 1 | cut -d' ' -f2-)
echo "large object: $BIG ($(du -h "$IN/$BIG" | cut -f1))"
for r in $(seq 1 "$ROUNDS"); do
  measure big-j1 "$OBJLINT" check -q --format json -j 1 "$IN/$BIG" | tee -a "$results"
  measure big-j$JOBS "$OBJLINT" check -q --format json -j "$JOBS" "$IN/$BIG" | tee -a "$results"
  measure big-objtool bash -c "cd '$IN' && '$C/bin/objtool' $ARGS --dry-run '$BIG' 2>/dev/null" | tee -a "$results"
done
python3 - "$results" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
t = {}
for label, wall, rss in rows:
    t.setdefault(label, []).append((float(wall), int(rss)))
med = {k: st.median(w for w, _ in v) for k, v in t.items()}
rss = {k: max(r for _, r in v) for k, v in t.items()}
print()
print(f"median wall: objlint {med['objlint']:.2f}s, objtool {med['objtool']:.2f}s -> objlint is {med['objtool']/med['objlint']:.1f}x faster")
print(f"peak RSS: objlint {rss['objlint']/1024:.0f} MiB, objtool (largest single process) {rss['objtool']/1024:.0f} MiB")
import os; print(f"objlint -j1 {med['objlint-j1']:.2f}s vs -j{os.environ['JOBS']}: speedup {med['objlint-j1']/med['objlint']:.2f}x")
print(f"decode-only {med['decode-only']:.2f}s; full check / decode-only = {med['objlint']/med['decode-only']:.2f}")
j = os.environ['JOBS']
if 'objlint-pgo' in med:
    print(f"profile-guided build (scripts/pgo.sh, trained on {open('target/pgo/TRAINING').read().splitlines()[1:]}): "
          f"{med['objlint-pgo']:.2f}s -> {med['objtool']/med['objlint-pgo']:.1f}x objtool, {med['objlint']/med['objlint-pgo']:.2f}x the release build; "
          f"RSS {rss['objlint-pgo']/1024:.0f} MiB; full check / decode-only (both profile-guided) = {med['objlint-pgo']/med['decode-only-pgo']:.2f}")
print(f"large object: -j1 {med['big-j1']:.2f}s, -j{j} {med['big-j'+j]:.2f}s (speedup {med['big-j1']/med['big-j'+j]:.2f}x), objtool {med['big-objtool']:.2f}s ({med['big-objtool']/med['big-j'+j]:.1f}x objlint -j{j}); RSS objlint {rss['big-j'+j]/1024:.0f} MiB, objtool {rss['big-objtool']/1024:.0f} MiB")
PY
rm -f "$results"
