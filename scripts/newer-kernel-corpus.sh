#!/usr/bin/env bash
# A corpus of Debian's modules of a newer kernel than the machine's release
# carries (sid, trixie-backports), laid out as ../shared/corpus/fetch-corpus.sh
# lays out its own, so scripts/corpus.py reads it: code objlint was not tuned on.
#
# Usage: scripts/newer-kernel-corpus.sh [VERSION] [TARGET_DIR]
#   VERSION     Debian package version (default: the newest linux-source-7.*)
#   TARGET_DIR  default ~/.cache/objcorpus-VERSION
# Then: scripts/corpus.py --corpus TARGET_DIR --markdown OUT
#
# The machine's own apt is left alone: the package lists of sid and
# trixie-backports go to TARGET_DIR/apt, and packages are downloaded and
# unpacked, never installed. Modules come from linux-modules-KVER-{amd64,arm64}
# (signed: the signature appended after the ELF data is ignored by both
# tools), the configuration from linux-base-KVER-*, objtool from the same
# version's linux-source, with kbuild's module arguments as that version's
# scripts/Makefile.lib gives them.
set -euo pipefail
export LC_ALL=C
VERSION=${1:-}
JOBS=${JOBS:-$(nproc)}
say() { printf '[newer-kernel] %s\n' "$*"; }

APTDIR=$(mktemp -d)
trap 'rm -rf "$APTDIR"' EXIT
mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
cat >"$APTDIR/sources.list" <<'EOF'
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-backports main
EOF
APT=(-o "Dir::Etc::SourceList=$APTDIR/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$APTDIR/lists" -o "Dir::Cache=$APTDIR/cache"
  -o APT::Architectures::=amd64 -o APT::Architectures::=arm64)
say "package lists of sid and trixie-backports"
apt-get "${APT[@]}" update >"$APTDIR/update.log" 2>&1 || { cat "$APTDIR/update.log" >&2; exit 2; }
if [ -z "$VERSION" ]; then
  SERIES=$(apt-cache "${APT[@]}" pkgnames linux-source- | sed -n 's/^linux-source-\([0-9.]*\)$/\1/p' | sort -V | tail -n1)
  VERSION=$(apt-cache "${APT[@]}" madison "linux-source-$SERIES" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | sort -V | tail -n1)
fi
UPSTREAM=${VERSION%%-*}
SERIES=$(echo "$UPSTREAM" | cut -d. -f1-2)
T=${2:-$HOME/.cache/objcorpus-$VERSION}
mkdir -p "$T/debs" "$T/tmp" "$T/bin"
T=$(cd "$T" && pwd)
# The kernel release the packages name: 7.3.4+deb13 and the like.
KREL=$(apt-cache "${APT[@]}" pkgnames linux-modules- | grep -E "^linux-modules-$UPSTREAM\+[a-z0-9]+-amd64\$" | head -n1 |
  sed -e 's/^linux-modules-//' -e 's/-amd64$//')
[ -n "$KREL" ] || { echo "no linux-modules-$UPSTREAM+*-amd64 in sid or trixie-backports" >&2; exit 2; }
say "version $VERSION, kernel $KREL -> $T"

cd "$T/debs"
for p in "linux-modules-$KREL-amd64" "linux-base-$KREL-amd64" \
  "linux-modules-$KREL-arm64:arm64" "linux-base-$KREL-arm64:arm64" "linux-source-$SERIES"; do
  ls "${p%%:*}"_*.deb >/dev/null 2>&1 || apt-get "${APT[@]}" download "$p=$VERSION" 2>&1 | grep -v '^W:' || true
done

for spec in "amd64 x86_64" "arm64 arm64"; do
  read -r arch dir <<<"$spec"
  [ -f "$T/$dir.list" ] && continue
  say "modules $arch -> $dir/"
  x=$T/tmp/extract-$arch
  rm -rf "$x" "$T/$dir"
  mkdir -p "$x" "$T/$dir"
  dpkg-deb -x "$T/debs/linux-modules-$KREL-${arch}_"*.deb "$x"
  dpkg-deb -x "$T/debs/linux-base-$KREL-${arch}_"*.deb "$x"
  m=$(find "$x" -type d -path "*/modules/$KREL-$arch" | head -n1)
  cp "$m/config" "$T/config-$dir" 2>/dev/null || find "$x" -name "config-$KREL-$arch" -exec cp {} "$T/config-$dir" \;
  printf '%s\n' "$KREL-$arch" >"$T/kernel-release-$dir"
  root=$m/kernel
  (cd "$root" && find . -type f -name '*.ko*' -print0) | ROOT=$root DST=$T/$dir xargs -0 -r -P"$JOBS" -n64 sh -c '
    for f; do
      r=${f#./}; o=$DST/${r%.xz}; o=${o%.zst}
      mkdir -p "$(dirname "$o")"
      case "$r" in
        *.xz) xz -dc "$ROOT/$r" >"$o" ;;
        *.zst) zstd -qdc "$ROOT/$r" >"$o" ;;
        *) cp "$ROOT/$r" "$o" ;;
      esac
    done' sh
  rm -rf "$x"
  (cd "$T/$dir" && find . -name '*.ko' | sed 's#^\./##' | sort) >"$T/$dir.list"
done

SRC=$T/src/linux-source-$SERIES
if [ ! -f "$SRC/Makefile" ]; then
  say "source $SERIES"
  rm -rf "$T/tmp/src"
  mkdir -p "$T/tmp/src" "$T/src"
  dpkg-deb -x "$T/debs/linux-source-${SERIES}_"*.deb "$T/tmp/src"
  tar -C "$T/src" -xaf "$T/tmp/src/usr/src/linux-source-$SERIES.tar.xz"
  rm -rf "$T/tmp/src"
fi
if [ ! -x "$SRC/tools/objtool/objtool" ]; then
  say "building objtool $SERIES"
  make -s -C "$SRC/tools/objtool" -j"$JOBS" >"$T/tmp/objtool-build.log" 2>&1
fi
ln -sfn "../src/linux-source-$SERIES/tools/objtool/objtool" "$T/bin/objtool"

# kbuild's module arguments, as this version's scripts/Makefile.lib has them.
cfg() { grep -E "^CONFIG_$1=" "$T/config-x86_64" | head -n1 | cut -d= -f2- | tr -d '"'; }
args=""
add() { if [ "$(cfg "$1")" = y ]; then args="$args $2"; fi; }
add HAVE_JUMP_LABEL_HACK --hacks=jump_label
add HAVE_NOINSTR_HACK --hacks=noinstr
add MITIGATION_CALL_DEPTH_TRACKING --hacks=skylake
add X86_KERNEL_IBT --ibt
if [ "$(cfg CALL_PADDING)" = y ]; then
  args="$args --prefix=$(cfg FUNCTION_PADDING_BYTES)"
  add CFI --cfi
  add FINEIBT --fineibt
fi
add FTRACE_MCOUNT_USE_OBJTOOL --mcount
[ "$(cfg FTRACE_MCOUNT_USE_OBJTOOL)" = y ] && add HAVE_OBJTOOL_NOP_MCOUNT --mnop
add UNWINDER_ORC --orc
add MITIGATION_RETPOLINE --retpoline
add MITIGATION_RETHUNK --rethunk
add MITIGATION_SLS --sls
add STACK_VALIDATION --stackval
add HAVE_STATIC_CALL_INLINE --static-call
add HAVE_UACCESS_VALIDATION --uaccess
if [ "$(cfg GCOV_KERNEL)" = y ] || [ "$(cfg KCOV)" = y ]; then args="$args --no-unreachable"; fi
if [ "$(cfg LTO_CLANG)" = y ] || [ "$(cfg X86_KERNEL_IBT)" = y ] || [ "$(cfg KLP_BUILD)" = y ]; then
  args="$args --link"
fi
printf '%s\n' "${args# } --module" >"$T/objtool-args-x86_64-module.txt"
{
  echo "version:      $VERSION ($KREL)"
  for dir in x86_64 arm64; do echo "$dir: $(wc -l <"$T/$dir.list") modules"; done
  echo "objtool args: $(cat "$T/objtool-args-x86_64-module.txt")"
} | tee "$T/corpus-info.txt"
