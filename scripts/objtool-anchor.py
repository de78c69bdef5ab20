#!/usr/bin/env python3
"""Record objtool's own verdict on objlint's injected faults, for CI.

  OBJLINT_FAULT_DIR=/tmp/faults cargo test --release --test fault_injection
  scripts/objtool-anchor.py /tmp/faults > testdata/anchor/objtool-faults.tsv

For each x86 fault in DIR/manifest.tsv (arm64 has no objtool), objtool 6.12
(kbuild's module arguments, or for kbuild objects their own from
testdata/anchor/objtool-args.tsv, + --dry-run, from $OBJCORPUS) runs on the original
and on the faulted copy. One line per fault: kind, the original (relative to
the repository), the bytes changed (offset:hex,...), objlint's expected rule and
function, then objtool's warnings the original did not have, as objtool printed
them (separated by " | "; empty when objtool saw nothing). tests/anchor.rs
rebuilds each faulted object from the original and these bytes and compares
objlint with objtool class by class, so CI holds objlint against objtool's
output and not only against objlint's own.
"""
import os, re, subprocess, sys

corpus = os.environ.get("OBJCORPUS", os.path.expanduser("~/.cache/objcorpus"))
objtool = os.path.join(corpus, "bin", "objtool")
args = open(os.path.join(corpus, "objtool-args-x86_64-module.txt")).read().split()
WARN = re.compile(r"warning: objtool: (.*)$")
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# Objects that are not shipped modules run with their own build's arguments.
own_args = {}
for line in open(os.path.join(repo, "testdata/anchor/objtool-args.tsv")):
    if line.strip() and not line.startswith("#"):
        rel, a = line.rstrip("\n").split("\t")
        own_args[rel] = a.split()


def warnings(path, rel):
    r = subprocess.run([objtool] + own_args.get(rel, args) + ["--dry-run", path], capture_output=True, text=True)
    return [m[1] for m in map(WARN.search, (r.stderr + r.stdout).splitlines()) if m]


def patches(orig, faulted):
    a, b = open(orig, "rb").read(), open(faulted, "rb").read()
    assert len(a) == len(b), faulted
    out, i = [], 0
    while i < len(a):
        if a[i] != b[i]:
            j = i
            while j < len(a) and a[j] != b[j]:
                j += 1
            out.append(f"{i:#x}:{b[i:j].hex()}")
            i = j
        else:
            i += 1
    return ",".join(out)


def main(d):
    base = {}
    print(f"# objtool: {' '.join(args)} --dry-run (Linux 6.12, {objtool}); kbuild objects: testdata/anchor/objtool-args.tsv")
    print("# kind\toriginal\tbytes\trule\tfunction\tobjtool's new warnings")
    for line in open(os.path.join(d, "manifest.tsv")):
        kind, faulted, orig, rule, sym = line.rstrip("\n").split("\t")
        if "/x86_64/" not in orig:
            continue
        rel = os.path.relpath(orig, repo)
        if orig not in base:
            base[orig] = set(warnings(orig, rel))
        new = [w for w in warnings(faulted, rel) if w not in base[orig]]
        print("\t".join([kind, rel, patches(orig, faulted), rule, sym, " | ".join(new)]))


if __name__ == "__main__":
    main(sys.argv[1])
