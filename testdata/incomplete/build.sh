#!/usr/bin/env bash
# Rebuild the analysis-incomplete fixtures: hand-written objects, each with one
# thing objlint cannot check (and a clean counterpart where there is one).
# Needs: binutils, gcc-aarch64-linux-gnu.
set -euo pipefail
cd "$(dirname "$0")"
for s in x86-*.s; do as --64 "$s" -o "${s%.s}.o"; done
for s in arm64-*.s; do aarch64-linux-gnu-as "$s" -o "${s%.s}.o"; done
# The README's example object (testdata/examples/README.md).
cp x86-undecodable.o ../examples/incomplete-x86_64.o
