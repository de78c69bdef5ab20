#!/usr/bin/env bash
# A real `pre-commit run` of both hooks in .pre-commit-hooks.yaml on a
# throwaway git repository holding testdata/lsp's driver.c and its object.
# pre-commit installs objlint from this checkout's HEAD commit (language:
# rust, `cargo install`), so commit first.
#   scripts/precommit-test.sh            # needs `pre-commit` on PATH
#   PRE_COMMIT=/venv/bin/pre-commit scripts/precommit-test.sh
# Expected: both hooks fail on driver.o (2 fallthrough findings), then pass
# once the object is rebuilt clean (driver-fixed.o stands in for the rebuild).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pc=${PRE_COMMIT:-pre-commit}
rev=$(git -C "$here" rev-parse HEAD)
# Reuse one target folder across runs: the install is a release build.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-${TMPDIR:-/tmp}/objlint-precommit-target}
export PRE_COMMIT_HOME=${PRE_COMMIT_HOME:-${TMPDIR:-/tmp}/objlint-precommit-home}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
git init -q .
git config user.email t@example.com
git config user.name test
mkdir -p inc build prebuilt
cp "$here/testdata/lsp/driver.c" .
cp "$here/testdata/lsp/inc/fatal.h" inc/
cp "$here/testdata/lsp/driver.o" build/driver.o
cp "$here/testdata/lsp/driver.o" prebuilt/blob.o
cat > build/compile_commands.json <<JSON
[{"directory": "$work", "file": "driver.c",
  "command": "gcc -O2 -g -ffunction-sections -c driver.c -o build/driver.o"}]
JSON
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $here
    rev: $rev
    hooks:
      - id: objlint-sources
      - id: objlint
YAML
printf 'build/\n' > .gitignore
git add .gitignore .pre-commit-config.yaml driver.c inc/fatal.h prebuilt/blob.o

status=0
echo "== pre-commit run (objects with findings): must fail"
if "$pc" run; then
  echo "FAIL: hooks passed on objects with findings"; status=1
fi

echo "== pre-commit run after a clean rebuild: must pass"
cp "$here/testdata/lsp/driver-fixed.o" build/driver.o
cp "$here/testdata/lsp/driver-fixed.o" prebuilt/blob.o
git add prebuilt/blob.o
if ! "$pc" run; then
  echo "FAIL: hooks failed on clean objects"; status=1
fi
echo "== pre-commit run --all-files, nothing staged, a source's object broken again: must fail"
git commit -qm fixture
cp "$here/testdata/lsp/driver.o" build/driver.o
if "$pc" run --all-files; then
  echo "FAIL: --all-files passed without checking the sources' objects"; status=1
fi
[ $status = 0 ] && echo "OK: pre-commit hooks behave"
exit $status
