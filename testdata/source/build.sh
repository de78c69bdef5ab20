#!/usr/bin/env bash
# Rebuild the DWARF source-mapping fixtures: the same C file with gcc and
# clang-19, DWARF 4 and 5, -ffunction-sections (every function section starts
# at 0), compressed debug sections (zlib, zlib-gnu, zstd), arm64, and without
# debug info. Paths in the DWARF are made relative (-fdebug-prefix-map), so
# the objects do not depend on where they were built.
set -euo pipefail
cd "$(dirname "$0")"
common=(-O2 -g -ffunction-sections -fno-asynchronous-unwind-tables
        -fdebug-prefix-map="$PWD"=. -c fall.c)
gcc      "${common[@]}" -gdwarf-4 -o x86-gcc-dwarf4.o
gcc      "${common[@]}" -gdwarf-5 -o x86-gcc-dwarf5.o
clang-19 "${common[@]}" -gdwarf-4 -o x86-clang-dwarf4.o
clang-19 "${common[@]}" -gdwarf-5 -o x86-clang-dwarf5.o
gcc      "${common[@]}" -gdwarf-5 -gz=zlib -o x86-gcc-zlib.o
gcc      "${common[@]}" -gdwarf-4 -gz=zlib-gnu -o x86-gcc-zlib-gnu.o
clang-19 "${common[@]}" -gdwarf-5 -o x86-clang-zstd.o
objcopy --compress-debug-sections=zstd x86-clang-zstd.o
aarch64-linux-gnu-gcc "${common[@]}" -gdwarf-5 -o arm64-gcc-dwarf5.o
# One .text section: the plain case.
gcc -O2 -g -gdwarf-5 -fno-asynchronous-unwind-tables -fdebug-prefix-map="$PWD"=. \
    -c fall.c -o x86-gcc-text.o
# No DWARF: findings keep the disassembly and carry no source position.
gcc -O2 -ffunction-sections -fno-asynchronous-unwind-tables -c fall.c -o x86-gcc-nodebug.o
