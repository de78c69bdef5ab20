#!/usr/bin/env bash
# Tries docs/BUILD.md for real: a tiny Makefile project and a tiny CMake
# project build testdata/lsp/driver.c and run objlint on the objects as they
# are built. Both builds must fail (driver.c has two fallthrough findings)
# and pass when built with -DFIXED. The CMake build's compile_commands.json
# then feeds `objlint precommit`.
#   scripts/build-test.sh [path/to/objlint]   # needs gcc, make; cmake optional
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$here/target/debug/objlint}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir -p inc
cp "$here/testdata/lsp/driver.c" "$here/testdata/lsp/inc/fatal.h" .
mv fatal.h inc/
status=0
flags="-O2 -g -ffunction-sections -fno-pic -mcmodel=kernel -mno-red-zone -fno-asynchronous-unwind-tables"

cat > Makefile <<'MK'
OBJLINT ?= objlint
OBJLINT_FLAGS ?= --format short --quiet
# A failed check deletes the object, so the next `make` builds and checks it again.
.DELETE_ON_ERROR:

%.o: %.c
	$(CC) $(CFLAGS) -c -o $@ $<
	$(OBJLINT) check $(OBJLINT_FLAGS) $@

# Or the linked whole, with --link:
drv.o: driver.o
	$(LD) -r -o $@ $^
	$(OBJLINT) check --link $(OBJLINT_FLAGS) $@
MK
echo "== make (findings): must fail and delete driver.o"
if make -s OBJLINT="$bin" CFLAGS="$flags" driver.o; then
  echo "FAIL: make passed"; status=1
elif [ -e driver.o ]; then
  echo "FAIL: driver.o kept after a failed check"; status=1
fi
echo "== make -DFIXED: must pass (object and linked object)"
make -s OBJLINT="$bin" CFLAGS="$flags -DFIXED" drv.o || { echo "FAIL: make failed"; status=1; }
rm -f ./*.o

if command -v cmake >/dev/null; then
  cat > CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.20)
project(drv C)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)   # for `objlint lsp` and `objlint precommit`
find_program(OBJLINT objlint REQUIRED)

add_library(drv OBJECT driver.c)
# Check the objects whenever one is rebuilt; the stamp records a passed check.
add_custom_command(
  OUTPUT drv.objlint
  COMMAND ${OBJLINT} check --format short --quiet $<TARGET_OBJECTS:drv>
  COMMAND ${CMAKE_COMMAND} -E touch drv.objlint
  DEPENDS $<TARGET_OBJECTS:drv>
  COMMAND_EXPAND_LISTS VERBATIM)
add_custom_target(drv-objlint ALL DEPENDS drv.objlint)

# A static library (or any linked output) can be checked after it is built:
add_library(drvlib STATIC $<TARGET_OBJECTS:drv>)
add_custom_command(TARGET drvlib POST_BUILD
  COMMAND ${OBJLINT} check --format short --quiet $<TARGET_FILE:drvlib> VERBATIM)
CM
  echo "== cmake (findings): must fail"
  cmake -S . -B build -DOBJLINT="$bin" -DCMAKE_C_FLAGS="$flags" >/dev/null
  if cmake --build build 2>&1 | tee cmake.log | grep -E 'objlint|error' ; then :; fi
  if ! grep -q 'stop() falls through' cmake.log || cmake --build build >/dev/null 2>&1; then
    echo "FAIL: cmake build passed or showed no finding"; status=1
  fi
  echo "== objlint precommit with CMake's compile_commands.json"
  rc=0; "$bin" precommit --build-dir build driver.c -- --format short --quiet || rc=$?
  [ $rc = 1 ] || { echo "FAIL: precommit exit $rc, want 1"; status=1; }
  echo "== cmake -DFIXED: must pass"
  cmake -S . -B build -DCMAKE_C_FLAGS="$flags -DFIXED" >/dev/null
  cmake --build build >/dev/null || { echo "FAIL: cmake build failed"; status=1; }
else
  echo "cmake not installed; CMake part skipped"
fi
[ $status = 0 ] && echo "OK: build-time checks behave"
exit $status
