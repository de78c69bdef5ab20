#!/usr/bin/env bash
# Two commands, N single runs each, interleaved (A B A B ...), so that a
# machine whose speed drifts within the hour slows both alike; prints both
# medians of wall time and of CPU time (user + system: where other work
# shares the machine, wall time also counts the waits for a core), their
# ratios, and in how many pairs B was faster.
# How this repository's before/after figures in docs/PERFORMANCE.md were
# taken.
#
# Usage: scripts/interleave.sh N "command A" "command B"
# Run it on an otherwise idle machine (the figures: under `chrt -f 50`).
set -euo pipefail
N=$1; A=$2; B=$3
out=$(mktemp); t=$(mktemp); trap 'rm -f "$out" "$t"' EXIT
for _ in $(seq 1 "$N"); do
  for c in A B; do
    cmd=$A; [ "$c" = B ] && cmd=$B
    # GNU time's wall clock has centiseconds; the nanosecond clock is read
    # around it, CPU time taken from it.
    s=$(date +%s%N)
    /usr/bin/time -o "$t" -f "%U %S" bash -c "$cmd" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    echo "$c $(( (e - s) / 1000000 )) $(tail -1 "$t")" >>"$out"
  done
done
python3 - "$out" <<'P'
import sys, statistics as st
runs = {"A": [], "B": []}
for line in open(sys.argv[1]):
    k, ms, user, system = line.split()
    runs[k].append((int(ms) / 1000, float(user) + float(system)))
a, b = runs["A"], runs["B"]
med = lambda rs, i: st.median(r[i] for r in rs)
wins = sum(1 for x, y in zip(a, b) if y[0] < x[0])
ratio = lambda i: med(b, i) / med(a, i) if med(a, i) > 0 else float("nan")
print("A median %.3f s wall, %.3f s CPU; B median %.3f s wall, %.3f s CPU"
      % (med(a, 0), med(a, 1), med(b, 0), med(b, 1)))
print("B/A wall %.3f, CPU %.3f; B faster (wall) in %d of %d pairs"
      % (ratio(0), ratio(1), wins, len(a)))
P
