#!/usr/bin/env python3
"""Run objlint (and objtool on x86) over the real-module corpus and compare.

Usage:
  scripts/corpus.py [--corpus DIR] [--objlint BIN] [--jobs N] [--no-objtool] [--markdown OUT]

The corpus is what ../shared/corpus/fetch-corpus.sh builds (default
$OBJCORPUS or ~/.cache/objcorpus): x86_64/ and arm64/ module trees, objtool in
bin/, kbuild's module arguments in objtool-args-x86_64-module.txt.

Shipped modules were already processed by objtool at build time, so before
objtool sees them again the sections it generated are removed (objcopy -R) into
a cache folder; objtool runs with kbuild's arguments plus --dry-run (it never
writes). objlint reads the shipped files as they are.

Prints per arch and per rule: objects, functions, findings; for x86 objtool's
warnings mapped to rule ids and a per-finding comparison (both / only objlint /
only objtool), keyed by (module, rule, location).
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# Sections objtool generated when the module was built; a second run would
# refuse or duplicate them.
OBJTOOL_GENERATED = [
    ".return_sites", ".call_sites", ".retpoline_sites", ".static_call_sites",
    ".ibt_endbr_seal", ".orc_unwind", ".orc_unwind_ip", ".orc_header",
    ".static_call_tramp_key", "__mcount_loc", ".cfi_sites",
]

# objtool message -> objlint rule id
OBJTOOL_RULES = [
    (re.compile(r"falls through to next function|unexpected end of section"), "fallthrough"),
    (re.compile(r"call to .* with UACCESS enabled"), "uaccess-call"),
    (re.compile(r"return with UACCESS enabled"), "uaccess-return"),
    (re.compile(r"redundant UACCESS disable"), "uaccess-redundant"),
    (re.compile(r"relocation to !ENDBR"), "ibt-missing-endbr"),
    (re.compile(r"leaves \.noinstr\.text section"), "noinstr-call"),
]
# `sym+0xoff: message`, or `sym() falls through to next function next()`;
# objtool 7.x makes some of 6.12's warnings errors, and stops at the first.
WARN = re.compile(
    r"^(?P<file>\S+): (?P<level>warning|error): objtool: (?:(?P<loc>\S+): (?P<msg>.*)|(?P<func>\S+)\(\) (?P<fmsg>falls through .*))$"
)


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def prepare_objtool_inputs(corpus, files, cache, jobs):
    """Copies of the x86 modules without objtool's generated sections."""
    os.makedirs(cache, exist_ok=True)
    removes = []
    for s in OBJTOOL_GENERATED:
        removes += ["-R", s, "-R", ".rela" + s]

    def one(rel):
        dst = os.path.join(cache, rel)
        if os.path.exists(dst):
            return
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        tmp = dst + ".tmp"
        r = sh(["objcopy"] + removes + [os.path.join(corpus, "x86_64", rel), tmp])
        if r.returncode == 0:
            os.replace(tmp, dst)
        else:
            shutil.copy(os.path.join(corpus, "x86_64", rel), dst)

    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(one, files))


def objtool_warnings(objtool, args, path, cwd=None, fatal=None):
    """objtool's warnings on one object, as (rule id or "other:CLASS", location, message).
    Lines where objtool refused to run (`Error: objtool: --cfi requires
    --prefix`) or stopped at an error go to `fatal` when given: what it did
    not say then is no verdict."""
    r = sh([objtool] + args + ["--dry-run", path], cwd=cwd)
    out = []
    for line in r.stderr.splitlines() + r.stdout.splitlines():
        if fatal is not None and line.startswith("Error: objtool:"):
            fatal.append(line)
        m = WARN.match(line)
        if not m:
            continue
        if fatal is not None and m["level"] == "error":
            fatal.append(line)
        msg = m["msg"] or m["fmsg"]
        loc = m["loc"] or m["func"] + "+0x0"
        rule = next((rid for rx, rid in OBJTOOL_RULES if rx.search(msg)), None)
        out.append((rule or "other:" + re.sub(r"[0-9a-fx+]+$", "", msg).split(":")[0], loc, msg))
    return out


def run_objtool(corpus, cache, files, jobs):
    objtool = os.path.join(corpus, "bin", "objtool")
    args = open(os.path.join(corpus, "objtool-args-x86_64-module.txt")).read().split()

    def one(rel):
        return [(rel,) + w for w in objtool_warnings(objtool, args, os.path.join(cache, rel))]

    t0 = time.time()
    with ThreadPoolExecutor(jobs) as ex:
        res = [w for ws in ex.map(one, files) for w in ws]
    return res, time.time() - t0


def objlint_json(binary, args, paths, cwd=None):
    """objlint's findings (JSON Lines), and the objects and functions it read."""
    r = sh([binary, "check", "--format", "json"] + args + paths, cwd=cwd)
    if r.returncode not in (0, 1):
        print(r.stderr, file=sys.stderr)
    records = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    findings = [f for f in records if f.get("type") == "finding"]
    m = re.search(r"(\d+) objects?, (\d+) functions?", r.stderr)
    return findings, (int(m[1]), int(m[2])) if m else (0, 0)


def location(f):
    """A finding's place as objtool writes it: sym+0xoff, or section+0xoff."""
    if f.get("symbol"):
        return f"{f['symbol']}+{f['symbol_offset']:#x}"
    return f"{f['section']}+{f['offset']:#x}"


def run_objlint(binary, root, jobs):
    t0 = time.time()
    findings, (objs, funcs) = objlint_json(binary, ["-j", str(jobs)], [root])
    return findings, objs, funcs, time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("OBJCORPUS", os.path.expanduser("~/.cache/objcorpus")))
    ap.add_argument("--objlint", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "objlint"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--no-objtool", action="store_true")
    ap.add_argument("--markdown", help="write the tables as markdown to this file")
    ap.add_argument("--examples", type=int, default=3, help="examples per class of finding")
    a = ap.parse_args()

    lines = []
    def out(s=""):
        print(s)
        lines.append(s)

    per_rule_examples = {}
    for arch in ("x86_64", "arm64"):
        root = os.path.join(a.corpus, arch)
        findings, objs, funcs, dt = run_objlint(a.objlint, root, a.jobs)
        by_rule = collections.Counter(f["rule"] for f in findings)
        by_rule_objs = collections.defaultdict(set)
        for f in findings:
            by_rule_objs[f["rule"]].add(f["file"])
            per_rule_examples.setdefault((arch, f["rule"]), []).append(f)
        out(f"### {arch}: {objs} objects, {funcs} functions, objlint {dt:.1f}s (-j {a.jobs})")
        out()
        out("| rule | findings | objects |")
        out("|---|---:|---:|")
        for rule, n in sorted(by_rule.items()):
            out(f"| {rule} | {n} | {len(by_rule_objs[rule])} |")
        if not by_rule:
            out("| (none) | 0 | 0 |")
        out()
        if arch != "x86_64" or a.no_objtool:
            continue
        files = [l.strip() for l in open(os.path.join(a.corpus, "x86_64.list")) if l.strip()]
        cache = os.path.join(a.corpus, "objtool-input")
        prepare_objtool_inputs(a.corpus, files, cache, a.jobs)
        warnings, odt = run_objtool(a.corpus, cache, files, a.jobs)
        obj_by_rule = collections.Counter(w[1] for w in warnings)
        try:
            kver = ".".join(open(os.path.join(a.corpus, "kernel-release-x86_64")).read().split(".")[:2])
        except OSError:
            kver = "(version unknown)"
        out(f"objtool {kver} (kbuild module arguments + --dry-run, {a.jobs} parallel): {odt:.1f}s, {len(warnings)} warnings")
        out()
        out("| objtool warning class | count |")
        out("|---|---:|")
        for rule, n in sorted(obj_by_rule.items()):
            out(f"| {rule} | {n} |")
        out()
        # Per-finding comparison on the rules both tools have.
        ours = collections.defaultdict(set)
        for f in findings:
            rel = os.path.relpath(f["file"], root)
            ours[f["rule"]].add((rel, location(f)))
        theirs = collections.defaultdict(set)
        for rel, rule, loc, _ in warnings:
            theirs[rule].add((rel, loc))
        out("| rule | both | only objlint | only objtool |")
        out("|---|---:|---:|---:|")
        for rule in sorted(set(ours) | {r for r in theirs if not r.startswith("other:")}):
            b = ours[rule] & theirs[rule]
            out(f"| {rule} | {len(b)} | {len(ours[rule] - b)} | {len(theirs[rule] - b)} |")
            for x in sorted(theirs[rule] - b)[: a.examples]:
                out(f"|  e.g. only objtool | {x[0]} {x[1]} | | |")
            for x in sorted(ours[rule] - b)[: a.examples]:
                out(f"|  e.g. only objlint | {x[0]} {x[1]} | | |")
        out()
    out("### examples per rule")
    for (arch, rule), fs in sorted(per_rule_examples.items()):
        for f in fs[: a.examples]:
            # Object-wide findings (analysis-incomplete) have no place.
            where = (f"{f['symbol']}+{f['symbol_offset']:#x}" if f.get('symbol_offset') is not None
                     else f"{f.get('section') or '(object)'}")
            out(f"- {arch} {rule}: {os.path.basename(f['file'])}: {where}: {f['message']}")
    if a.markdown:
        with open(a.markdown, "w") as fh:
            fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
