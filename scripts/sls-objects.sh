#!/usr/bin/env bash
# Recompile kernel objects of a kbuild tree with -mharden-sls=all added to
# kbuild's own command line (from each object's .NAME.o.cmd), for the sls
# fault-injection measurement: Linux 6.12 has no SLS option on arm64, and on
# x86 CONFIG_MITIGATION_SLS comes with return thunks, which leave compiled
# code no bare returns. Debug info is left out (-g0) to keep objects small.
#
# Usage: scripts/sls-objects.sh KBUILD_DIR OUT_DIR [OBJ...]
#   KBUILD_DIR  a build-kernel-objects.sh O= directory (e.g. kbuild-dwarf/arm64-gcc)
#   OBJ         objects relative to it (default: every C object under kernel/ lib/ mm/)
#   EXTRA       more flags to append (x86 without thunks:
#               EXTRA="-mfunction-return=keep -mindirect-branch=keep")
set -euo pipefail
kb=$(cd "$1" && pwd); out=$(mkdir -p "$2" && cd "$2" && pwd); shift 2
objs=("$@")
if [ ${#objs[@]} -eq 0 ]; then
    mapfile -t objs < <(cd "$kb" && find kernel lib mm -name '.*.o.cmd' 2>/dev/null |
        sed 's|/\.\([^/]*\)\.cmd$|/\1|' | sort)
fi
n=0; skipped=0
for o in "${objs[@]}"; do
    cmdf="$kb/$(dirname "$o")/.$(basename "$o").cmd"
    cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdf" 2>/dev/null || true)
    # C compiles only (assembly has no -mharden-sls); the compile alone.
    case "$cmd" in *" -c -o $o "*.c|*" -c -o $o "*.c\ *) ;; *) skipped=$((skipped+1)); continue ;; esac
    cmd=${cmd%%;*}
    cmd=$(sed -e "s| -Wp,-MMD,[^ ]*||" -e "s| -o $o | -o $out/$o |" <<<"$cmd")
    mkdir -p "$out/$(dirname "$o")"
    if (cd "$kb" && eval "$cmd -mharden-sls=all -g0 ${EXTRA:-}") 2>>"$out/errors.log"; then
        n=$((n+1))
    else
        skipped=$((skipped+1))
    fi
done
echo "sls-objects: $n objects in $out ($skipped skipped: not C, or failed: $out/errors.log)"
