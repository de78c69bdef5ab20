#!/usr/bin/env python3
"""objtool's detection rate on objlint's injected faults (x86 modules only).

  OBJLINT_FAULT_DIR=/tmp/faults cargo test --test fault_injection
  scripts/fault-objtool.py /tmp/faults

For each faulted object in DIR/manifest.tsv, objtool (from $OBJCORPUS, with
--dry-run and $OBJTOOL_ARGS, or kbuild's own arguments for a kbuild object kept
as NAME.pre-objtool.o, or kbuild's module arguments) runs on the original and
on the faulted copy; a fault counts as detected when a warning appears that the original did
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
    "retpoline": r"found in MITIGATION_RETPOLINE build",
    "rethunk": r"found in MITIGATION_RETHUNK build",
    "sls": r"missing int3 after",
}


def kbuild_args(orig):
    """The arguments kbuild ran objtool with on a kbuild object kept as
    NAME.pre-objtool.o (its tree's objtool-invocations.tsv), if it is one."""
    p = os.path.realpath(orig)
    if not p.endswith(".pre-objtool.o"):
        return None
    obj = p[: -len(".pre-objtool.o")]
    d = os.path.dirname(obj)
    while d != "/":
        inv = os.path.join(d, "objtool-invocations.tsv")
        if os.path.exists(inv):
            rel = os.path.relpath(obj, d)
            for line in open(inv):
                name, a = line.rstrip("\n").split("\t", 1)
                if name == rel:
                    return a.split()[:-1]
            return None
        d = os.path.dirname(d)
    return None


def warnings(path, orig):
    # $OBJTOOL_ARGS, else kbuild's own for kbuild objects, else the module ones.
    own = os.environ.get("OBJTOOL_ARGS", "").split() or kbuild_args(orig) or args
    r = subprocess.run([objtool] + own + ["--dry-run", path], capture_output=True, text=True)
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
            base[orig] = warnings(orig, orig)[0]
        new, _ = warnings(faulted, orig)
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
