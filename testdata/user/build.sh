#!/usr/bin/env bash
# Rebuild the user-space fixtures (issue 17): static archives and hand-written
# assembly outside the kernel. Expected findings: expected.txt (`objlint
# check --format short` of every object here, run from this folder),
# compared by tests/user.rs.
# Needs: gcc, gcc-aarch64-linux-gnu, binutils (ar, ld).
set -euo pipefail
cd "$(dirname "$0")"
X86="gcc -O2 -fcf-protection=full"
A64="aarch64-linux-gnu-gcc -O2 -mbranch-protection=standard"

# System calls that never return end a path (compiler output, both arches).
$X86 -c syscall.c -o syscall-x86_64.o
$A64 -c syscall.c -o syscall-arm64.o
as --64 syscall-x86_64.s -o syscall-asm-x86_64.o

# DW_AT_noreturn on a declaration: with -g the call ends the path.
$X86 -g -fdebug-prefix-map="$PWD"=. -c noreturn-decl.c -o noreturn-decl-g-x86_64.o
$X86 -c noreturn-decl.c -o noreturn-decl-x86_64.o
$A64 -g -fdebug-prefix-map="$PWD"=. -c noreturn-decl.c -o noreturn-decl-g-arm64.o
$A64 -c noreturn-decl.c -o noreturn-decl-arm64.o

# An archive is a unit: user.o alone falls through after my_die(); in
# libdie.a, die.o proves my_die() never returns, as `ld -r` of the two does
# (linked.o). With only a weak definition (libdie-weak.a) it still falls
# through. D: no timestamps, so the archives rebuild byte for byte.
mkdir -p archive
$X86 -c user.c -o archive/user.o
$X86 -c die.c -o archive/die.o
$X86 -c die-weak.c -o archive/die-weak.o
rm -f archive/libdie.a archive/libdie-weak.a
ar rcD archive/libdie.a archive/user.o archive/die.o
ar rcD archive/libdie-weak.a archive/user.o archive/die-weak.o
ld -r archive/user.o archive/die.o -o archive/linked.o
$A64 -c user.c -o archive/user-arm64.o
$A64 -c die.c -o archive/die-arm64.o
rm -f archive/libdie-arm64.a
ar rcD archive/libdie-arm64.a archive/user-arm64.o archive/die-arm64.o

# A thin archive is a unit as well: its members are read from their own
# files (here ../archive/user.o and ../archive/die.o).
rm -f thin/libdie.a
mkdir -p thin
(cd thin && ar rcTD libdie.a ../archive/user.o ../archive/die.o)

# Deliberate second entries (glibc's _chk and _l shapes), and the annotation.
as --64 entries-x86_64.s -o entries-x86_64.o
aarch64-linux-gnu-as entries-arm64.s -o entries-arm64.o

# Constant tables in .text of an IBT object are not landing-pad cases.
as --64 tables-x86_64.s -o tables-x86_64.o

# User space: kernel-only rules off (__stack_chk_fail is on the kernel's
# uaccess-safe list; --profile kernel reports its call).
$X86 -c stack_chk.c -o stack_chk-x86_64.o

# Exception landing pads (.gcc_except_table) are entered by the unwinder.
$X86 -fexceptions -c cleanup.c -o cleanup-x86_64.o
$A64 -fexceptions -c cleanup.c -o cleanup-arm64.o

# arm64 frames larger than 4 KiB: sp adjusted by a register holding a constant.
$A64 -fstack-clash-protection -fasynchronous-unwind-tables -c bigframe.c -o bigframe-arm64.o

# GCS: returns that do not go back to the caller.
aarch64-linux-gnu-as gcs-arm64.s -o gcs-arm64.o
# GCS: returns not through x30 (`ret xN`, `br x30`); the same without the claim.
aarch64-linux-gnu-as gcs-ret-arm64.s -o gcs-ret-arm64.o
aarch64-linux-gnu-as --defsym NOGCS=1 gcs-ret-arm64.s -o gcs-ret-nogcs-arm64.o

# Property consistency in an archive (ld -z cet-report / bti-report): the
# compiled members claim IBT+SHSTK (BTI+PAC), the assembly member nothing.
mkdir -p props
rm -f props/libmixed-x86_64.a props/libmixed-arm64.a
ar rcD props/libmixed-x86_64.a archive/user.o archive/die.o syscall-asm-x86_64.o
aarch64-linux-gnu-as entries-arm64.s -o props/asm-arm64.o
ar rcD props/libmixed-arm64.a archive/user-arm64.o archive/die-arm64.o props/asm-arm64.o
rm -f props/asm-arm64.o

# seal in user space: a kernel no-pad target's name exempts nothing.
aarch64-linux-gnu-as seal-names-arm64.s -o seal-names-arm64.o

# Address-taken facts across an archive's members: table.c takes the
# addresses of hand-written handlers another member defines; one lacks its
# landing pad. libtaken-*.a: both members claim IBT (BTI); the -plain
# archive's C member is built without branch protection (the link has no
# IBT: nothing to report); linked-*.o is `ld -r` of the members, where the
# reference is inside one object.
mkdir -p taken
as --64 taken/handlers-x86_64.s -o taken/handlers-x86_64.o
$X86 -c taken/table.c -o taken/table-x86_64.o
gcc -O2 -fcf-protection=none -c taken/table.c -o taken/table-plain-x86_64.o
aarch64-linux-gnu-as taken/handlers-arm64.s -o taken/handlers-arm64.o
$A64 -c taken/table.c -o taken/table-arm64.o
rm -f taken/*.a
ar rcD taken/libtaken-x86_64.a taken/table-x86_64.o taken/handlers-x86_64.o
ar rcD taken/libtaken-plain-x86_64.a taken/table-plain-x86_64.o taken/handlers-x86_64.o
ar rcD taken/libtaken-arm64.a taken/table-arm64.o taken/handlers-arm64.o
ld -r taken/table-x86_64.o taken/handlers-x86_64.o -o taken/linked-x86_64.o
aarch64-linux-gnu-ld -r taken/table-arm64.o taken/handlers-arm64.o -o taken/linked-arm64.o
# libinner-*.a: one member points inside the other's functions (`sym+off`),
# at an inner pad, at a place without one, at a function's end and into an
# instruction; only the place without a pad is a finding.
for a in x86_64 arm64; do
  if [ $a = x86_64 ]; then AS="as --64" LD=ld; else AS=aarch64-linux-gnu-as LD=aarch64-linux-gnu-ld; fi
  $AS taken/inner-defs-$a.s -o taken/inner-defs-$a.o
  $AS taken/inner-refs-$a.s -o taken/inner-refs-$a.o
  ar rcD taken/libinner-$a.a taken/inner-refs-$a.o taken/inner-defs-$a.o
  $LD -r taken/inner-refs-$a.o taken/inner-defs-$a.o -o taken/linked-inner-$a.o
  rm -f taken/inner-defs-$a.o taken/inner-refs-$a.o
done
# Ground truth: objtool 6.12 (OBJTOOL=path; ../shared/corpus/fetch-corpus.sh
# builds it) on the linked whole, with the IBT check it runs on vmlinux.o:
# it names handler_bad, the one function the archive's finding names.
if [ -n "${OBJTOOL:-}" ]; then
  (cd taken && "$OBJTOOL" --ibt --link --dry-run linked-x86_64.o 2>objtool-linked-x86_64.txt) || true
  (cd taken && "$OBJTOOL" --ibt --link --dry-run linked-inner-x86_64.o 2>objtool-linked-inner-x86_64.txt) || true
fi
