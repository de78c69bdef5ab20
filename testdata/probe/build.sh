#!/usr/bin/env bash
# Rebuild the stack-probe fixtures (tests/user.rs): probe.c by gcc and
# clang-19 with -fstack-clash-protection for x86-64 and arm64, probe.rs by
# rustc (its inline
# probes), and gcc's assembly with FAULT: the epilogue gives back 8 bytes
# less than the probe loop and the final `sub` took (a return with a
# modified frame only a model of the loop's extent finds).
# Needs: gcc, gcc-aarch64-linux-gnu, clang-19, rustc.
set -euo pipefail
cd "$(dirname "$0")"
flags=(-O2 -fstack-clash-protection -fcf-protection=none)
gcc "${flags[@]}" -c probe.c -o probe-gcc-x86_64.o
clang-19 "${flags[@]}" -c probe.c -o probe-clang-x86_64.o
aarch64-linux-gnu-gcc -O2 -fstack-clash-protection -c probe.c -o probe-gcc-aarch64.o
clang-19 --target=aarch64-linux-gnu -O2 -fstack-clash-protection -c probe.c -o probe-clang-aarch64.o
"${RUSTC:-rustc}" --edition 2021 -O --crate-type=lib --emit=obj probe.rs -o probe-rust-x86_64.o
gcc "${flags[@]}" -S probe.c -o - |
  sed 's/^\taddq\t\$70000, %rsp$/.ifdef FAULT\n\taddq\t$69992, %rsp\n.else\n\taddq\t$70000, %rsp\n.endif/' >probe-gcc-x86_64.s
grep -q '^.ifdef FAULT' probe-gcc-x86_64.s
as --64 --defsym FAULT=1 probe-gcc-x86_64.s -o probe-gcc-fault-x86_64.o
rm probe-gcc-x86_64.s
