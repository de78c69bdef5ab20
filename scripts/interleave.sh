#!/usr/bin/env bash
# Two commands, N single runs each, interleaved (A B A B ...), so that a
# machine whose speed drifts within the hour slows both alike; prints both
# medians, their ratio, and in how many pairs B was faster. How this
# repository's before/after figures in docs/PERFORMANCE.md were taken.
#
# Usage: scripts/interleave.sh N "command A" "command B"
# Run it on an otherwise idle machine (the figures: under `chrt -f 50`).
set -euo pipefail
N=$1; A=$2; B=$3
out=$(mktemp); trap 'rm -f "$out"' EXIT
for _ in $(seq 1 "$N"); do
  for c in A B; do
    cmd=$A; [ "$c" = B ] && cmd=$B
    s=$(date +%s%N); bash -c "$cmd" >/dev/null 2>&1 || true; e=$(date +%s%N)
    echo "$c $(( (e - s) / 1000000 ))" >>"$out"
  done
done
python3 - "$out" <<'P'
import sys, statistics as st
a, b = [], []
for line in open(sys.argv[1]):
    k, ms = line.split()
    (a if k == "A" else b).append(int(ms) / 1000)
wins = sum(1 for x, y in zip(a, b) if y < x)
print("A median %.3f s, B median %.3f s, B/A %.3f, B faster in %d of %d pairs"
      % (st.median(a), st.median(b), st.median(b) / st.median(a), wins, len(a)))
P
