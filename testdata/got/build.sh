#!/usr/bin/env bash
# Rebuild the fixtures of calls through the GOT: `call *sym@GOTPCREL(%rip)`
# (gcc -fno-plt; rustc's calls to other crates) goes to the symbol, so a
# noreturn callee ends the path (tests/user.rs); and LLVM's TrapUnreachable
# `ud2` after a jump is no unreachable code. panics-x86_64.o is rustc
# 1.95's output (rustup; RUSTC=... to choose another): panics, ud2 after
# them, exception landing pads. Neither object claims IBT (rustc's default),
# and they live apart from testdata/user, whose folder-wide property vote
# they would join.
# Needs: gcc, rustc.
set -euo pipefail
cd "$(dirname "$0")"
gcc -O2 -fcf-protection=none -fno-plt -c noplt.c -o noplt-x86_64.o
"${RUSTC:-rustc}" -O --crate-type=lib --emit=obj panics.rs -o panics-x86_64.o
# A noreturn function of the same crate, called through its GOT slot.
"${RUSTC:-rustc}" --edition 2021 -O --crate-type=lib --emit=obj local.rs -o local-x86_64.o
# Landing pads of calls with pushed arguments (DW_CFA_GNU_args_size).
"${RUSTC:-rustc}" -O --crate-type=lib --emit=obj args.rs -o args-x86_64.o
# Unoptimized, as cargo builds proc-macro crates: `ud2` after a dispatch.
"${RUSTC:-rustc}" -C opt-level=0 --crate-type=lib --emit=obj switch.rs -o switch-x86_64.o
