#!/usr/bin/env bash
# Rebuild the symtab/seal fixtures. Needs GNU as, gcc, aarch64-linux-gnu-as/-gcc.
# The fault fixtures are seal_x86.o with symbol-table bytes patched, the way a
# broken rewriting tool would leave them.
set -euo pipefail
cd "$(dirname "$0")"

as seal_x86.s -o seal_x86.o
aarch64-linux-gnu-as -march=armv8.5-a seal_arm64.s -o seal_arm64.o
gcc -O2 -fcf-protection=branch -mcmodel=kernel -fno-pic -fno-asynchronous-unwind-tables \
  -c kfuncs.c -o kfuncs_x86.o
aarch64-linux-gnu-gcc -O2 -mbranch-protection=pac-ret+bti -fpatchable-function-entry=4,2 \
  -fno-asynchronous-unwind-tables -c kfuncs.c -o kfuncs_arm64.o

# File offset of the symbol table.
sec_off() { echo $((16#$(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' | awk -v n="$2" '$1 == n { print $4 }'))); }
symtab_off() { sec_off "$1" .symtab; }
# Index of a symbol by name (first match).
sym_index() { readelf -sW "$1" | awk -v n="$2" '$8 == n { sub(":", "", $1); print $1; exit }'; }
# Offset of a name in .strtab.
str_off() {
  echo $((16#$(readelf -p .strtab "$1" | sed -n "s/^ *\[ *\([0-9a-f]*\)\]  $2\$/\1/p" | head -1)))
}
# Write a little-endian value of $4 bytes at field offset $3 of symbol $2.
poke() {
  local f=$1 idx=$2 field=$3 size=$4 val=$5 off bytes="" i
  off=$(( $(symtab_off "$f") + 24 * idx + field ))
  for ((i = 0; i < size; i++)); do
    bytes+=$(printf '\\x%02x' $(( (val >> (8 * i)) & 0xff )))
  done
  printf "$bytes" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
set_shndx() { poke "$1" "$(sym_index "$1" "$2")" 6 2 "$3"; }

# Seed 003: objtool's elf_update_symbol turned SHN_ABS into SHN_UNDEF.
cp seal_x86.o abs_to_undef.o
set_shndx abs_to_undef.o abs_local 0
set_shndx abs_to_undef.o abs_global 0

# One of each symtab-shndx fault.
cp seal_x86.o symtab_faults.o
set_shndx symtab_faults.o stored 200         # out of range
set_shndx symtab_faults.o tail 0xff10        # unknown reserved index
set_shndx symtab_faults.o called 0xffff      # SHN_XINDEX, no .symtab_shndx
poke symtab_faults.o 1 0 4 "$(str_off symtab_faults.o table)"   # .text's section symbol named "table"

# symdiff: a symbol moved to another section, one changed value and size,
# one renamed (vanishes; the new name is only added).
cp seal_x86.o changed.o
set_shndx changed.o loaded "$(readelf -SW changed.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.text\.unref .*/\1/p')"
i=$(sym_index changed.o api)
poke changed.o "$i" 8 8 0x20
poke changed.o "$i" 16 8 18
poke changed.o "$(sym_index changed.o lonely)" 0 4 "$(str_off changed.o called)"
