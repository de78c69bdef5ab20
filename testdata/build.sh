#!/usr/bin/env bash
# Rebuild every committed fixture object from its source. Each area keeps its
# own script (testdata/<area>/build.sh); this runs them all.
# Needs: gcc, binutils, clang-19, gcc-aarch64-linux-gnu (Debian packages); rustc
# for got/.
set -euo pipefail
cd "$(dirname "$0")"
for s in */build.sh; do
  echo "== $s"
  (cd "$(dirname "$s")" && bash ./build.sh)
done
