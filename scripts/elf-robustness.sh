#!/usr/bin/env bash
# Every file of DIR through check, stats, symdiff (the file against itself)
# and seal (its output checked again), one process each, 30 s and its peak RSS
# recorded: no panic, no hang, bounded memory, one error line per unreadable
# file. How docs/FUZZING.md's "what held" run over other projects' ELF test
# files was made (the files are not committed).
#
# Usage: scripts/elf-robustness.sh DIR [OBJLINT]
set -uo pipefail
DIR=$1
B=${2:-$(cd "$(dirname "$0")/.." && pwd)/target/release/objlint}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for f in "$DIR"/*; do
  [ -f "$f" ] || continue
  for cmd in check stats symdiff seal; do
    case $cmd in
      check) args=(check -q "$f") ;;
      stats) args=(stats "$f") ;;
      symdiff) args=(symdiff "$f" "$f") ;;
      seal) rm -f "$T/out.o"; args=(seal --mode nop "$f" -o "$T/out.o") ;;
    esac
    /usr/bin/time -f "%M" -o "$T/rss" timeout 30 "$B" "${args[@]}" >/dev/null 2>"$T/err"
    rc=$?
    lines=$(grep -c "^objlint: " "$T/err")
    panic=$(grep -c "panicked\|internal error" "$T/err")
    sealed=-
    if [ $cmd = seal ] && [ -f "$T/out.o" ]; then
      "$B" check -q "$T/out.o" >/dev/null 2>&1; sealed=$?
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' $cmd $rc "$(tail -1 "$T/rss")" "$lines" "$panic" $sealed
  done
done | python3 -c '
import sys, collections
by = collections.defaultdict(list)
for l in sys.stdin:
    cmd, rc, rss, lines, panic, sealed = l.split()
    by[cmd].append((int(rc), int(rss), int(lines), int(panic), sealed))
for cmd, v in by.items():
    print(f"{cmd}: {len(v)} files, exit codes {dict(collections.Counter(r[0] for r in v))}, "
          f"panics {sum(r[3] > 0 for r in v)}, timeouts {sum(r[0] == 124 for r in v)}, "
          f"max RSS {max(r[1] for r in v) // 1024} MB, exit 2 without exactly one error line "
          f"{sum(r[0] == 2 and r[2] != 1 for r in v)}")
    if cmd == "seal":
        print("  sealed outputs checked again, exit codes:",
              dict(collections.Counter(r[4] for r in v if r[4] != "-")))
'
