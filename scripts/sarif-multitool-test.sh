#!/usr/bin/env bash
# objlint's SARIF under Microsoft's SARIF multitool (`validate`: the OASIS schema
# plus its own rules), installed from npm (@microsoft/sarif-multitool ships a
# self-contained Linux build) into a temporary folder. Not part of `cargo test`
# (it needs npm); .ci/run runs it.
#   scripts/sarif-multitool-test.sh [path/to/objlint]   # default target/debug/objlint
# Passes when the log of the fixtures draws no error and no warning, except
# SARIF2005 (no tool informationUri) while Cargo.toml names no repository.
# Exit 2 when the multitool cannot be installed (no npm, no registry).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$here/target/debug/objlint}")
command -v npm >/dev/null || { echo "npm not installed"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm install --silent --no-audit --no-fund @microsoft/sarif-multitool@5.7.0 >/dev/null 2>&1) ||
  { echo "cannot install @microsoft/sarif-multitool"; exit 2; }
cd "$here"
set +e
"$bin" check --format sarif --mitigations retpoline,rethunk,sls testdata/source testdata/stack/x86-cases.o \
  testdata/examples testdata/speculation >"$tmp/objlint.sarif" 2>/dev/null
set -e
(cd "$tmp" && npx --no-install sarif-multitool validate objlint.sarif -o result.sarif >"$tmp/validate.log" 2>&1) || true
cat "$tmp/validate.log" | grep -E ': (error|warning) ' || true
allowed='SARIF2005'
grep -q 'Analysis completed successfully' "$tmp/validate.log" || { echo "FAIL: the multitool did not complete"; cat "$tmp/validate.log"; exit 1; }
bad=$(grep -E ': (error|warning) [A-Z]+[0-9]+' "$tmp/validate.log" | grep -vE ": warning ($allowed):" || true)
if [ -n "$bad" ]; then
  echo "FAIL: the multitool reports $(wc -l <<<"$bad") problems"
  exit 1
fi
echo "OK: the SARIF multitool validates objlint's log"
