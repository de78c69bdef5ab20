#!/usr/bin/env python3
"""objtool's detection rate on objlint's injected faults (x86 modules only).

  OBJLINT_FAULT_DIR=/tmp/faults cargo test --test fault_injection
  scripts/fault-objtool.py /tmp/faults

For each faulted object in DIR/manifest.tsv, objtool (kbuild's module
arguments + --dry-run, from $OBJCORPUS) runs on the original and on the faulted
copy; a fault counts as detected when a warning appears that the original did
not have and that names the faulted function (in its location or its text).
"""
import collections, os, re, subprocess, sys

corpus = os.environ.get("OBJCORPUS", os.path.expanduser("~/.cache/objcorpus"))
objtool = os.path.join(corpus, "bin", "objtool")
args = open(os.path.join(corpus, "objtool-args-x86_64-module.txt")).read().split()
WARN = re.compile(r"warning: objtool: (?:(\S+): )?(.*)$")
# What objtool says for each rule's kind of fault (None: it has no such check).
CLASSES = {
    "fallthrough": r"falls through|unexpected end of section",
    "ibt-missing-endbr": r"relocation to !ENDBR",
    "uaccess": r"UACCESS",
    "stack-": r"stack state mismatch|modified stack frame|undefined stack state|unsupported stack|frame pointer",
    "pac-ret": None,
    "patchable-entry": None,
    "symtab-shndx": None,
}


def warnings(path):
    r = subprocess.run([objtool] + args + ["--dry-run", path], capture_output=True, text=True)
    out = set()
    for line in (r.stderr + r.stdout).splitlines():
        m = WARN.search(line)
        if m:
            out.add((m[1] or "", m[2]))
    return out, r.returncode


def main(d):
    base = {}
    rate = collections.defaultdict(lambda: [0, 0, 0])
    for line in open(os.path.join(d, "manifest.tsv")):
        kind, faulted, orig, rule, sym = line.rstrip("\n").split("\t")
        if "/x86_64/" not in orig:
            continue
        if orig not in base:
            base[orig] = warnings(orig)[0]
        new, _ = warnings(faulted)
        new -= base[orig]
        cls = CLASSES.get(rule)
        hit = cls is not None and any(
            re.search(cls, msg) and (loc.startswith(sym + "+") or sym in msg) for loc, msg in new
        )
        anywhere = cls is not None and any(re.search(cls, msg) for _, msg in new)
        rate[kind][0] += 1
        rate[kind][1] += hit
        rate[kind][2] += anywhere
    for kind, (n, hit, anywhere) in sorted(rate.items()):
        print(f"{kind}: objtool {hit}/{n} at the faulted function, {anywhere}/{n} with a new warning of the kind anywhere")


if __name__ == "__main__":
    main(sys.argv[1])
