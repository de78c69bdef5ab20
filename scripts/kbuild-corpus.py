#!/usr/bin/env python3
"""Run objlint (and objtool on x86) over the kbuild-built kernel objects.

Usage:
  scripts/kbuild-corpus.py [--corpus DIR] [--objlint BIN] [--jobs N] [--markdown OUT] [CONFIG...]

Inputs are what ../shared/corpus/build-kernel-objects.sh leaves in
$OBJCORPUS/kbuild/CONFIG/ (default ~/.cache/objcorpus): the kernel objects
(objects.list), their state before objtool touched them (X.o.pre-objtool.o),
objtool's per-object invocations (objtool-invocations.tsv), and the
directories built (corpus-summary.txt). For every CONFIG (all by default):

1. objlint, all rules, on every kernel object one by one: objects, functions
   and findings per rule.
2. The objects kbuild ran objtool on, as objtool saw them, with kbuild's own
   arguments plus --dry-run, against objlint --link: per finding, both / only
   objlint / only objtool.
3. A partial vmlinux.o, as kbuild makes the real one: `ld.lld-19 -r
   --whole-archive` of the built directories' built-in.a (thin archives).
   objlint --link on it; on x86 also objtool with the vmlinux.o arguments
   of this configuration plus --dry-run, per finding as in 2.
"""
import argparse
import collections
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from corpus import location, objlint_json, objtool_warnings, sh  # noqa: E402

# scripts/Makefile.vmlinux_o and Makefile.lib for x86-clang-kcfi (IBT,
# CALL_PADDING, CFI_CLANG, NOINSTR_VALIDATION, MITIGATION_*).
VMLINUX_ARGS_X86 = (
    "--hacks=jump_label --hacks=noinstr --hacks=skylake --ibt --cfi --mcount --mnop --orc "
    "--retpoline --rethunk --static-call --uaccess --noinstr --unret --link"
).split()


def vmlinux_args_x86(tree):
    """objtool's vmlinux.o arguments for the tree, as its kernel's
    scripts/Makefile.lib and Makefile.vmlinux_o make them from .config, all
    of a delayed (IBT) build's object arguments included: Linux 7.x gives
    `--prefix` with CALL_PADDING (6.12 with PREFIX_SYMBOLS) and `--cfi` only
    with it. VMLINUX_ARGS_X86 when the tree does not say."""
    try:
        release = open(os.path.join(tree, "include", "config", "kernel.release")).read()
        config = dict(l.strip().split("=", 1) for l in open(os.path.join(tree, ".config"))
                      if l.startswith("CONFIG_") and "=" in l)
    except OSError:
        return list(VMLINUX_ARGS_X86)
    y = lambda name: config.get("CONFIG_" + name) == "y"  # noqa: E731
    seven = int(release.split(".")[0]) >= 7
    pad = "--prefix=" + config.get("CONFIG_FUNCTION_PADDING_BYTES", "16")
    args = []
    for name, arg in [("HAVE_JUMP_LABEL_HACK", "--hacks=jump_label"), ("HAVE_NOINSTR_HACK", "--hacks=noinstr"),
                      ("MITIGATION_CALL_DEPTH_TRACKING", "--hacks=skylake"), ("X86_KERNEL_IBT", "--ibt")]:
        if y(name):
            args.append(arg)
    if seven and y("CALL_PADDING"):
        args.append(pad)
        args += ["--cfi"] if y("CFI") else []
        args += ["--fineibt"] if y("FINEIBT") else []
    elif not seven:
        args += ["--cfi"] if y("FINEIBT") else []
    if y("FTRACE_MCOUNT_USE_OBJTOOL"):
        args += ["--mcount"] + (["--mnop"] if y("HAVE_OBJTOOL_NOP_MCOUNT") else [])
    for name, arg in [("UNWINDER_ORC", "--orc"), ("MITIGATION_RETPOLINE", "--retpoline"),
                      ("MITIGATION_RETHUNK", "--rethunk"), ("MITIGATION_SLS", "--sls"),
                      ("STACK_VALIDATION", "--stackval"), ("HAVE_STATIC_CALL_INLINE", "--static-call"),
                      ("HAVE_UACCESS_VALIDATION", "--uaccess")]:
        if y(name):
            args.append(arg)
    if not seven and y("PREFIX_SYMBOLS"):
        args.append(pad)
    if y("NOINSTR_VALIDATION"):
        args.append("--noinstr")
        if y("MITIGATION_UNRET_ENTRY") or y("MITIGATION_SRSO"):
            args.append("--unret")
    return args + ["--link"]


def compare(out, ours, theirs, examples):
    """ours/theirs: {rule: set((object, location))}"""
    out("| rule | both | only objlint | only objtool |")
    out("|---|---:|---:|---:|")
    rules = sorted(set(ours) | {r for r in theirs if not r.startswith("other:")})
    if not rules:
        out("| (no findings) | 0 | 0 | 0 |")
    for rule in rules:
        b = ours[rule] & theirs[rule]
        out(f"| {rule} | {len(b)} | {len(ours[rule] - b)} | {len(theirs[rule] - b)} |")
        for x in sorted(ours[rule] - b)[:examples]:
            out(f"|  e.g. only objlint | {x[0]} {x[1]} | | |")
        for x in sorted(theirs[rule] - b)[:examples]:
            out(f"|  e.g. only objtool | {x[0]} {x[1]} | | |")
    out()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("OBJCORPUS", os.path.expanduser("~/.cache/objcorpus")))
    ap.add_argument("--objlint", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "objlint"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--markdown", help="write the tables as markdown to this file")
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument("configs", nargs="*")
    a = ap.parse_args()
    objlint = os.path.abspath(a.objlint)
    objtool = os.path.join(a.corpus, "bin", "objtool")
    kb = os.path.join(a.corpus, "kbuild")
    configs = a.configs or sorted(d for d in os.listdir(kb) if os.path.isfile(os.path.join(kb, d, "objects.list")))
    if not configs:
        sys.exit(f"no kbuild configurations in {kb} (run build-kernel-objects.sh)")
    # Kernel objects, all of them: the kernel-only rules run even on an
    # object with none of the marks rules/profile.toml detects kernel code by.
    jobs = ["-j", str(a.jobs), "--profile", "kernel"]

    lines = []

    def out(s=""):
        print(s)
        lines.append(s)

    for cfg in configs:
        d = os.path.join(kb, cfg)
        x86 = cfg.startswith("x86")
        objects = [l.strip() for l in open(os.path.join(d, "objects.list")) if l.strip()]
        findings, (objs, funcs) = objlint_json(objlint, jobs, objects, cwd=d)
        out(f"## {cfg}: {objs} objects read of {len(objects)}, {funcs} functions")
        out()
        out("### objlint, every object one by one")
        out()
        by_rule = collections.Counter((f["rule"], f["severity"]) for f in findings)
        by_rule_objs = collections.defaultdict(set)
        for f in findings:
            by_rule_objs[f["rule"]].add(f["file"])
        out("| rule | severity | findings | objects |")
        out("|---|---|---:|---:|")
        for (rule, sev), n in sorted(by_rule.items()):
            out(f"| {rule} | {sev} | {n} | {len(by_rule_objs[rule])} |")
        if not by_rule:
            out("| (none) | | 0 | 0 |")
        out()
        for f in findings[: a.examples]:
            out(f"- e.g. {f['file']}: {location(f)}: {f['message']}")
        if findings:
            out()

        # 2. objtool's own per-object runs, on the objects as it saw them.
        inv = os.path.join(d, "objtool-invocations.tsv")
        runs = []
        if os.path.exists(inv):
            for l in open(inv):
                obj, args = l.rstrip("\n").split("\t")
                args = args.split()[:-1]  # the object comes last
                before = obj + ".pre-objtool.o"
                runs.append((obj, args, before if os.path.exists(os.path.join(d, before)) else obj))
        if runs:
            out(f"### the {len(runs)} objects kbuild runs objtool on, as objtool saw them")
            out()
            ours, theirs = collections.defaultdict(set), collections.defaultdict(set)
            link = ["--link"] if all("--link" in r[1] for r in runs) else []
            fs, _ = objlint_json(objlint, jobs + link, [r[2] for r in runs], cwd=d)
            for f in fs:
                ours[f["rule"]].add((f["file"], location(f)))
            if os.path.exists(objtool):
                for obj, args, path in runs:
                    for rule, loc, _ in objtool_warnings(objtool, args, path, cwd=d):
                        theirs[rule].add((path, loc))
            compare(out, ours, theirs, a.examples)

        # 3. A partial vmlinux.o from the built directories' built-in.a.
        summary = open(os.path.join(d, "corpus-summary.txt")).read()
        m = re.search(r"^build\t\d+\t\(rc=0\) (.*)$", summary, re.M)
        dirs = m[1].split() if m else []
        archives = [os.path.join(x, "built-in.a") for x in dirs if os.path.exists(os.path.join(d, x, "built-in.a"))]
        if not archives:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            vmlinux = os.path.join(tmp, "vmlinux.o")
            emu = ["-m", "elf_x86_64"] if x86 else ["-m", "aarch64linux"]
            r = sh(["ld.lld-19"] + emu + ["-r", "-o", vmlinux, "--whole-archive"] + archives, cwd=d)
            if r.returncode != 0:
                out(f"(partial vmlinux.o: ld.lld-19 failed: {r.stderr.strip()[:200]})")
                out()
                continue
            fs, (_, vfuncs) = objlint_json(objlint, jobs + ["--link"], [vmlinux], cwd=d)
            out(f"### partial vmlinux.o: `ld.lld-19 -r --whole-archive` of {len(archives)} built-in.a, {vfuncs} functions, `--link`")
            out()
            ours, theirs = collections.defaultdict(set), collections.defaultdict(set)
            for f in fs:
                ours[f["rule"]].add(("vmlinux.o", location(f)))
            if x86 and os.path.exists(objtool):
                fatal = []
                for rule, loc, _ in objtool_warnings(objtool, vmlinux_args_x86(d), vmlinux, cwd=d, fatal=fatal):
                    theirs[rule].add(("vmlinux.o", loc))
                if fatal:
                    out(f"(objtool stopped: `{fatal[0]}`; what it would have said after is not known)")
                    out()
            elif not x86:
                out("(no objtool on arm64: objlint only)")
                out()
            compare(out, ours, theirs, a.examples)
    if a.markdown:
        with open(a.markdown, "w") as fh:
            fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
