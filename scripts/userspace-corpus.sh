#!/usr/bin/env bash
# User-space static archives (issue 17): fetch Debian 12's packages with
# apt-get download (no install), unpack them, run objlint over each archive
# and print findings per rule, optionally against another objlint binary
# (`--before BIN`: e.g. main's, to see what a change did).
#
# Usage:
#   scripts/userspace-corpus.sh [--cache DIR] [--objlint BIN] [--before BIN] [--jobs N] [--out DIR]
#
# DIR defaults to $OBJLINT_USER_CORPUS or ~/.cache/objlint-user. Needs
# apt-get with the arm64 architecture enabled (dpkg --add-architecture
# arm64; apt-get update) for the :arm64 packages, dpkg-deb and python3.
# Writes OUT/NAME.json (JSON Lines, one run per archive and binary) and
# prints a markdown table per archive: findings per rule (and severity
# when not error), before -> after.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${OBJLINT_USER_CORPUS:-$HOME/.cache/objlint-user}
objlint=target/release/objlint
before=
jobs=2
out=
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --objlint) objlint=$2; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--cache DIR] [--objlint BIN] [--before BIN] [--jobs N] [--out DIR]" >&2; exit 2 ;;
  esac
done
out=${out:-$cache/runs}
mkdir -p "$cache/debs" "$cache/x" "$out"

# name  package  archive (path inside the package)
archives=(
  "glibc-amd64      libc6-dev:amd64              usr/lib/x86_64-linux-gnu/libc.a"
  "glibc-arm64      libc6-dev-arm64-cross        usr/aarch64-linux-gnu/lib/libc.a"
  "openssl-amd64    libssl-dev:amd64             usr/lib/x86_64-linux-gnu/libcrypto.a"
  "openssl-arm64    libssl-dev:arm64             usr/lib/aarch64-linux-gnu/libcrypto.a"
  "gmp-amd64        libgmp-dev:amd64             usr/lib/x86_64-linux-gnu/libgmp.a"
  "gmp-arm64        libgmp-dev:arm64             usr/lib/aarch64-linux-gnu/libgmp.a"
  "ffi-amd64        libffi-dev:amd64             usr/lib/x86_64-linux-gnu/libffi.a"
  "ffi-arm64        libffi-dev:arm64             usr/lib/aarch64-linux-gnu/libffi.a"
  "sodium-amd64     libsodium-dev:amd64          usr/lib/x86_64-linux-gnu/libsodium.a"
  "sodium-arm64     libsodium-dev:arm64          usr/lib/aarch64-linux-gnu/libsodium.a"
  "jpeg-amd64       libjpeg62-turbo-dev:amd64    usr/lib/x86_64-linux-gnu/libjpeg.a"
  "jpeg-arm64       libjpeg62-turbo-dev:arm64    usr/lib/aarch64-linux-gnu/libjpeg.a"
  "vpx-amd64        libvpx-dev:amd64             usr/lib/x86_64-linux-gnu/libvpx.a"
  "vpx-arm64        libvpx-dev:arm64             usr/lib/aarch64-linux-gnu/libvpx.a"
)

# Fetch and unpack each package once (apt-get download keeps the version
# the mirror has; the file name records it).
for a in "${archives[@]}"; do
  read -r _ pkg _ <<<"$a"
  dir="$cache/x/${pkg/:/_}"
  [ -d "$dir" ] && continue
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) || {
    echo "apt-get download $pkg failed (arm64 enabled? apt-get update?)" >&2
    exit 1
  }
  deb=$(ls "$tmp"/*.deb)
  mv "$deb" "$cache/debs/"
  rmdir "$tmp"
  deb="$cache/debs/$(basename "$deb")"
  mkdir -p "$dir"
  dpkg-deb -x "$deb" "$dir"
  echo "$pkg: $(basename "$deb")" >>"$cache/versions.txt"
done

run() { # run BIN NAME ARCHIVE -> OUT/NAME.json
  "$1" check -q --format json -j "$jobs" "$3" >"$out/$2.json" || [ $? -eq 1 ]
}

for a in "${archives[@]}"; do
  read -r name pkg path <<<"$a"
  file="$cache/x/${pkg/:/_}/$path"
  [ -f "$file" ] || { echo "$name: $file missing" >&2; exit 1; }
  run "$objlint" "$name" "$file"
  [ -n "$before" ] && run "$before" "$name.before" "$file"
done

scripts/findings-table.py "$out" ${before:+--before} "${archives[@]%% *}"
