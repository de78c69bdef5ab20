#!/usr/bin/env python3
"""ORC ground truth: objlint's computed unwind table against the one objtool
wrote, object by object.

kbuild corpus (build-kernel-objects.sh x86-gcc-noibt): for every object
objtool ran on, compute from `<obj>.pre-objtool.o` (the object as the
compiler left it) and compare with the ORC objtool wrote into `<obj>`, with
objtool's own --prefix from objtool-invocations.tsv.

Module corpus (fetch-corpus.sh): every shipped .ko carries the ORC objtool
wrote at build time; compute from the .ko itself and compare.

Usage: orc-corpus.py [--objlint BIN] [--jobs N] [--json OUT] [--examples N]
                     (--kbuild DIR | --modules DIR)
"""
import argparse, collections, concurrent.futures as cf, json, os, re, subprocess, sys

def run(objlint, target, ref, prefix, examples):
    cmd = [objlint, "unwind", "--format", "json", "--examples", str(examples), "--reference", ref]
    if prefix:
        cmd += ["--prefix", str(prefix)]
    cmd.append(target)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        return {"file": target, "error": p.stderr.strip() or f"exit {p.returncode}"}
    return json.loads(p.stdout)

def kbuild_jobs(d):
    prefixes = {}
    tsv = os.path.join(d, "objtool-invocations.tsv")
    for line in open(tsv):
        obj, _, args = line.rstrip("\n").partition("\t")
        m = re.search(r"--prefix=(\d+)", args)
        path = obj if os.path.isabs(obj) else os.path.join(d, obj)
        prefixes[os.path.normpath(path)] = int(m.group(1)) if m else 0
    for obj, prefix in sorted(prefixes.items()):
        pre = obj + ".pre-objtool.o"
        if os.path.exists(pre) and os.path.exists(obj):
            yield pre, obj, prefix

def module_jobs(d):
    for root, _, files in os.walk(d):
        for f in sorted(files):
            if f.endswith(".ko"):
                p = os.path.join(root, f)
                yield p, p, 16

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objlint", default="target/release/objlint")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--json")
    ap.add_argument("--examples", type=int, default=3)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--kbuild")
    g.add_argument("--modules")
    a = ap.parse_args()
    jobs = list(kbuild_jobs(a.kbuild) if a.kbuild else module_jobs(a.modules))
    totals = collections.Counter()
    classes = collections.Counter()
    errors, examples, records = [], [], []
    objects_disagreeing = 0
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for rec in ex.map(lambda j: run(a.objlint, j[0], j[1], j[2], a.examples), jobs):
            records.append(rec)
            if "error" in rec:
                errors.append(f"{rec['file']}: {rec['error']}")
                continue
            o = rec["orc"]
            for k in ("compared", "agree", "disagree", "reference_rows", "computed_rows"):
                totals[k] += o[k]
            totals["unexpressible"] += rec["unexpressible"]
            classes.update(o["classes"])
            if o["disagree"]:
                objects_disagreeing += 1
                examples.extend(f"{os.path.basename(rec['file'])}: {e}" for e in o["examples"])
    n = len(jobs)
    print(f"objects: {n}, unreadable: {len(errors)}, with disagreements: {objects_disagreeing}")
    print(f"ORC rows: reference {totals['reference_rows']}, computed {totals['computed_rows']}")
    c = totals["compared"]
    pct = 100.0 * totals["agree"] / c if c else 100.0
    print(f"row addresses compared: {c}, agree: {totals['agree']} ({pct:.3f}%), disagree: {totals['disagree']}")
    for k, v in classes.most_common():
        print(f"  {v:>8}  {k}")
    for e in errors[:20]:
        print("error:", e)
    for e in examples[:60]:
        print("  ", e)
    if a.json:
        with open(a.json, "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    return 0

if __name__ == "__main__":
    sys.exit(main())
