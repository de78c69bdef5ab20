#!/usr/bin/env bash
# `objlint check --format short` as editors read it: Emacs' compilation-mode
# (in batch mode, `emacs -Q`) and Vim's quickfix with its default
# errorformat (`vim -es`, and Neovim's `nvim --headless -es`), on the
# fixtures' findings. Not part of `cargo test` (it needs the editors); .ci/run
# runs it.
#   scripts/editor-parse-test.sh [path/to/objlint]   # default target/release/objlint
# Each finding with a source position must be one entry that the editor
# jumps to: the source file (as on disk), line and column, and for Emacs the
# severity (error, warning, note = info). A finding without a source position
# must give the editor no place to jump to (no made-up file name).
# Then the same checks run on the same findings in the format objlint wrote
# before (source position last) and must FAIL: the test can tell.
# Exit: 0 passed, 1 failed, 2 skipped (no Emacs, Vim nor Neovim).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$here/target/release/objlint}")
editors=()
command -v emacs >/dev/null && editors+=(emacs)
command -v vim >/dev/null && editors+=(vim)
command -v nvim >/dev/null && editors+=(nvim)
for ed in emacs vim nvim; do
  command -v $ed >/dev/null || echo "note: no $ed here, not tested with it"
done
if [ ${#editors[@]} = 0 ]; then
  echo "SKIP: no emacs, vim or nvim"
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"
# DWARF (source positions) and no DWARF, errors, warnings and notes.
inputs=(testdata/source/x86-gcc-dwarf5.o testdata/source/x86-clang-dwarf4.o
  testdata/source/x86-gcc-nodebug.o testdata/source/arm64-gcc-dwarf5.o testdata/examples)
# Twice: as they are (errors), then with fallthrough a warning (and
# uaccess-call a note, though no fixture with DWARF has one), so that
# warnings have source positions too.
printf '[rules]\nfallthrough = "warning"\nuaccess-call = "note"\n' >"$tmp/severities.toml"
: >"$tmp/short.txt"
: >"$tmp/findings.jsonl"
set +e
for cfg in "" "--config=$tmp/severities.toml"; do
  "$bin" check --format short $cfg "${inputs[@]}" >>"$tmp/short.txt" 2>/dev/null
  "$bin" check --format json $cfg "${inputs[@]}" >>"$tmp/findings.jsonl" 2>/dev/null
done
set -e

# What each line must parse to, from the JSON records (file, line, column,
# severity; "-" for no source position), and the old format of the same
# findings: `file: sym+0xoff: severity: message [rule] (source:line:col)`.
python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
want, old = [], []
# Only to count lines: what they say is the editors' to read.
short = open(os.path.join(tmp, "short.txt")).read().splitlines()
for line in open(os.path.join(tmp, "findings.jsonl")):
    r = json.loads(line)
    if r["type"] != "finding":
        continue
    s = r["source"]
    loc = (f'{r["symbol"]}+{r["symbol_offset"]:#x}' if r["symbol"] is not None
           else f'{r["section"]}+{r["offset"]:#x}')
    head = f'{r["file"]}: {loc}: {r["severity"]}: {r["message"]} [{r["rule"]}]'
    if s is None:
        want.append("-")
        old.append(head)
    else:
        # The source file as found from here (OUTPUT.md): as DWARF names
        # it, else beside the object (archive members: the archive).
        name = s["file"]
        if not os.path.isfile(name) and not os.path.isabs(name):
            obj = r["file"]
            if obj.endswith(")") and "(" in obj:
                obj = obj[: obj.rindex("(")]
            near = os.path.join(os.path.dirname(obj), name)
            if os.path.isfile(near):
                name = near
        col = s["column"] or 0
        want.append(f'{name}\t{s["line"]}\t{col}\t{r["severity"]}')
        pos = f'{name}:{s["line"]}' + (f':{col}' if col else "")
        old.append(f'{head} ({pos})')
assert len(want) == len(short), (len(want), len(short))
assert any(w != "-" for w in want) and "-" in want, "fixtures need both kinds"
open(os.path.join(tmp, "want.tsv"), "w").write("\n".join(want) + "\n")
open(os.path.join(tmp, "old.txt"), "w").write("\n".join(old) + "\n")
PY

cat >"$tmp/compile.el" <<'EL'
;; One line per line of the file: FILE LINE COLUMN TYPE of the message
;; compilation-mode found there, "-" where it found none.
(require 'compile)
(with-current-buffer (find-file-noselect (car command-line-args-left))
  (compilation-mode)
  (compilation--ensure-parse (point-max))
  (goto-char (point-min))
  (while (not (eobp))
    (let* ((msg (get-text-property (line-beginning-position) 'compilation-message))
           (loc (and msg (compilation--message->loc msg))))
      (princ
       (if (and loc (compilation--loc->line loc))
           (format "%s\t%s\t%s\t%s\n"
                   (caar (compilation--loc->file-struct loc))
                   (compilation--loc->line loc)
                   (or (compilation--loc->col loc) 0)
                   (nth (compilation--message->type msg) '("note" "warning" "error")))
         "-\n")))
    (forward-line 1)))
EL
cat >"$tmp/quickfix.vim" <<'VIM'
" One line per quickfix entry: FILE LINE COLUMN of a valid entry, "-" for
" an entry that names no place.
set errorformat&
execute 'cgetfile ' . fnameescape($QF_IN)
let s:out = []
for e in getqflist()
  call add(s:out, e.valid ? bufname(e.bufnr) . "\t" . e.lnum . "\t" . e.col : '-')
endfor
call writefile(s:out, $QF_OUT)
qall!
VIM

# parse EDITOR FILE OUT: what EDITOR makes of FILE.
parse() {
  case $1 in
    emacs) emacs -Q --batch -l "$tmp/compile.el" "$2" >"$3" 2>"$3.err" ;;
    vim) QF_IN=$2 QF_OUT=$3 vim -N -u NONE -i NONE -es -S "$tmp/quickfix.vim" </dev/null ;;
    nvim) QF_IN=$2 QF_OUT=$3 nvim --headless -u NONE -i NONE -es -S "$tmp/quickfix.vim" </dev/null ;;
  esac
}

# expect EDITOR OUT: OUT agrees with want.tsv (Vim knows no severity here:
# its default errorformat has no %t), and every file it names is on disk.
expect() {
  local cols=4
  [ "$1" = emacs ] || cols=3
  cut -f1-$cols "$tmp/want.tsv" >"$tmp/want.$1"
  if ! diff -u "$tmp/want.$1" "$2" >"$2.diff"; then
    return 1
  fi
  while IFS=$'\t' read -r file _; do
    [ "$file" = - ] || [ -f "$file" ] || { echo "no such file: $file" >>"$2.diff"; return 1; }
  done <"$2"
}

status=0
for ed in "${editors[@]}"; do
  parse "$ed" "$tmp/short.txt" "$tmp/short.$ed" || true
  if expect "$ed" "$tmp/short.$ed"; then
    echo "ok: $ed reads --format short ($(grep -vc '^-$' "$tmp/short.$ed") source positions, $(grep -c '^-$' "$tmp/short.$ed") without)"
  else
    echo "FAIL: $ed reads --format short wrongly:"
    cat "$tmp/short.$ed.diff"
    status=1
  fi
  # The check has teeth: the old format does not pass it.
  parse "$ed" "$tmp/old.txt" "$tmp/old.$ed" || true
  if expect "$ed" "$tmp/old.$ed"; then
    echo "FAIL: $ed: the old format (source position last) passes too; the check cannot tell"
    status=1
  else
    echo "ok: $ed rejects the old format"
  fi
done
exit $status
