#!/usr/bin/env bash
# Fixture for the LSP server and the pre-commit hook: driver.c built with
# DWARF line info (paths made relative with -fdebug-prefix-map, so they are
# resolved against compile_commands.json's `directory`), twice: driver.o has
# two fallthrough findings (one inlined from inc/fatal.h), driver-fixed.o
# (-DFIXED) is clean and stands in for a rebuild after the fix.
set -euo pipefail
flags=(-O2 -g -ffunction-sections -fno-pic -mcmodel=kernel -mno-red-zone
       -fno-stack-protector -fno-asynchronous-unwind-tables "-fdebug-prefix-map=$PWD=.")
gcc "${flags[@]}" -c driver.c -o driver.o
gcc "${flags[@]}" -DFIXED -c driver.c -o driver-fixed.o
