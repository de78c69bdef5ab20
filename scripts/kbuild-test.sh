#!/usr/bin/env bash
# Tries docs/BUILD.md's Kbuild snippet for real: builds the external modules in
# docs/examples/kbuild (Makefile = the documented one) against a configured
# kernel tree and expects
#   1. `make ONLY_OK=1`: objlint_ok.ko alone; objlint passes (exit 0);
#   2. `make`: adds objlint_bad.ko; objlint reports its fallthrough, exits 1 and
#      so fails the build; nothing is reported for objlint_ok.ko;
#   3. `make check-objects`: the same finding on objlint_bad.o only.
# Usage:
#   scripts/kbuild-test.sh [--fetch] [path/to/objlint]
# The kernel tree: $KDIR, else /lib/modules/$(uname -r)/build, else an
# installed /usr/src/linux-headers-*-amd64. With --fetch, when none is found,
# Debian's linux-headers for 6.12 amd64 (the corpus' version when the archive
# still has it, else the newest) are downloaded with `apt-get download` and
# unpacked under $KBUILD_TEST_CACHE (default /tmp/objlint-kbuild-headers), and
# pahole (the tree builds BTF for modules) is installed if missing.
# Without a tree, or without the compiler the tree was configured with, the
# script says so and exits 0.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
fetch=0
if [ "${1:-}" = --fetch ]; then
  fetch=1
  shift
fi
skip() {
  echo "SKIP: $*"
  exit 0
}

tree_ok() { [ -f "$1/Makefile" ] && [ -f "$1/.config" ]; }
kdir=${KDIR:-}
if [ -z "$kdir" ]; then
  for d in "/lib/modules/$(uname -r)/build" /usr/src/linux-headers-*-amd64; do
    if tree_ok "$d"; then
      kdir=$d
      break
    fi
  done
fi
if [ -z "$kdir" ] && [ $fetch = 1 ]; then
  [ "$(uname -m)" = x86_64 ] || skip "--fetch takes amd64 headers, whose build tools run on x86_64 only"
  cache=${KBUILD_TEST_CACHE:-/tmp/objlint-kbuild-headers}
  want=6.12.117+deb12
  pattern='^linux-headers-6\.12\.[0-9]+\+deb[0-9]+-amd64$'
  names=$(apt-cache search --names-only "$pattern" | awk '{print $1}')
  if [ -z "$names" ]; then
    apt-get update -qq || true
    names=$(apt-cache search --names-only "$pattern" | awk '{print $1}')
  fi
  [ -n "$names" ] || skip "no Debian linux-headers-6.12.*-amd64 package in the apt lists"
  pkg=$(grep -Fx "linux-headers-$want-amd64" <<<"$names" || sort -V <<<"$names" | tail -n1)
  abi=${pkg#linux-headers-}
  abi=${abi%-amd64}
  root=$cache/$abi
  kdir=$root/usr/src/linux-headers-$abi-amd64
  if ! tree_ok "$kdir"; then
    rm -rf "$root"
    mkdir -p "$root/debs"
    (cd "$root/debs" && apt-get download -q "linux-headers-$abi-amd64" "linux-headers-$abi-common" "linux-kbuild-$abi" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
    for deb in "$root"/debs/*.deb; do
      if [ -f "$deb" ]; then dpkg-deb -x "$deb" "$root"; fi
    done
    # The arch tree's Makefile includes the common tree by absolute path.
    if [ -f "$kdir/Makefile" ]; then sed -i "s#^include /usr/src/#include $root/usr/src/#" "$kdir/Makefile"; fi
  fi
  tree_ok "$kdir" || skip "the downloaded headers in $root are not a configured tree"
fi
[ -n "$kdir" ] || skip "no configured kernel tree (set KDIR, install linux-headers, or pass --fetch)"
kdir=$(cd "$kdir" && pwd)
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\).*/\1/p' "$kdir/.config")
command -v "$cc" >/dev/null || skip "$kdir was configured with $cc, which is not installed"
if grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$kdir/.config" && ! command -v pahole >/dev/null; then
  if [ $fetch = 1 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pahole >/dev/null || true
  fi
  command -v pahole >/dev/null || skip "$kdir builds BTF for modules and needs pahole (Debian: pahole)"
fi

bin=${1:-${OBJLINT:-}}
if [ -z "$bin" ]; then
  for b in "$here/target/release/objlint" "$here/target/debug/objlint"; do
    if [ -x "$b" ]; then
      bin=$b
      break
    fi
  done
fi
if [ -z "$bin" ]; then
  cargo build --release --locked --manifest-path "$here/Cargo.toml"
  bin=$here/target/release/objlint
fi
bin=$(realpath "$bin")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/docs/examples/kbuild/* "$work/"
cd "$work"
echo "kernel tree: $kdir ($(cat "$kdir/include/config/kernel.release"), $cc)"
echo "objlint: $bin"
mk() { make --no-print-directory KDIR="$kdir" OBJLINT="$bin" "$@"; }
status=0
fail() {
  echo "FAIL: $*"
  status=1
}

echo "== make ONLY_OK=1 (the clean module alone): must pass"
if ! mk ONLY_OK=1 2>&1 | tee ok.log; then
  fail "the build of the clean module failed"
fi
grep -q 'objlint: 1 object, .* 0 findings' ok.log || fail "objlint's summary for the clean module is missing"

echo "== make (adds objlint_bad.ko): must fail on objlint's finding"
if mk 2>&1 | tee all.log; then
  fail "the build passed although objlint_bad.ko falls through"
fi
# A finding reads `OBJ: SYM+OFF: error: ...`, or with DWARF
# `SRC:LINE:COL: error: ... [rule] (OBJ: SYM+OFF)`.
finding() { # object-file log
  grep -Eq "$1: objlint_bad_scale\+0x[0-9a-f]*: error: .*falls through.*\[fallthrough\]|error: .*falls through.*\[fallthrough\] \(.*$1: objlint_bad_scale\+0x[0-9a-f]*\)" "$2"
}
finding objlint_bad.ko all.log ||
  fail "no fallthrough finding for objlint_bad.ko"
grep -q '^make: \*\*\* \[Makefile:[0-9]*: modules\] Error 1$' all.log ||
  fail "make did not stop on objlint's exit status 1"
if grep -q 'objlint_ok.ko:' all.log; then fail "a finding on the clean module"; fi
set +e
"$bin" check --link --format short --quiet ./*.ko >/dev/null
rc=$?
set -e
[ $rc = 1 ] || fail "objlint check --link *.ko exited $rc, not 1"

echo "== make check-objects: must fail on objlint_bad.o only"
if mk check-objects 2>&1 | tee objects.log; then
  fail "check-objects passed"
fi
finding objlint_bad.o objects.log ||
  fail "no fallthrough finding for objlint_bad.o"
if grep -q 'objlint_ok.o:' objects.log; then fail "a finding on the clean module's object"; fi

[ $status = 0 ] && echo "OK: the Kbuild snippet behaves"
exit $status
