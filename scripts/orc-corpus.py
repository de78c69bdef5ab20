#!/usr/bin/env python3
"""Unwind ground truth: objlint's computed unwind table against the one
objtool wrote (ORC), and its stack states against the compiler's DWARF CFI,
object by object.

kbuild corpus (build-kernel-objects.sh x86-gcc-noibt): for every object
objtool ran on, compute from `<obj>.pre-objtool.o` (the object as the
compiler left it) and compare with the ORC objtool wrote into `<obj>`, with
objtool's own --prefix from objtool-invocations.tsv.

Module corpus (fetch-corpus.sh): every shipped .ko carries the ORC objtool
wrote at build time; compute from the .ko itself and compare.

DWARF CFI (--cfi DIR): every object under DIR with .eh_frame/.debug_frame
(a kbuild tree built with KCFLAGS=-fasynchronous-unwind-tables: the objects
as the compiler left them, `*.pre-objtool.o` where objtool ran), compared at
every instruction a row covers.

Usage: orc-corpus.py [--objlint BIN] [--jobs N] [--json OUT] [--examples N]
                     (--kbuild DIR | --modules DIR | --cfi DIR)
"""
import argparse, collections, concurrent.futures as cf, json, os, re, subprocess, sys


def write_records(path, records):
    """Every object's record as JSON Lines, when --json asks for it."""
    if path:
        with open(path, "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")

def run(objlint, target, ref, prefix, examples, kernel=None):
    cmd = [objlint, "unwind", "--format", "json", "--examples", str(examples), "--reference", ref]
    if prefix:
        cmd += ["--prefix", str(prefix)]
    if kernel:
        cmd += ["--kernel", kernel]
    cmd.append(target)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        return {"file": target, "error": p.stderr.strip() or f"exit {p.returncode}"}
    return json.loads(p.stdout)

def run_cfi(objlint, target, examples):
    cmd = [objlint, "unwind", "--cfi", "--format", "json", "--examples", str(examples), target]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        return {"file": target, "error": p.stderr.strip() or f"exit {p.returncode}"}
    return json.loads(p.stdout)

def cfi_jobs(d):
    for root, _, files in os.walk(d):
        names = set(files)
        for f in sorted(files):
            if not f.endswith(".o") or f.endswith(".orc.o"):
                continue
            # The compiler's object: X.o.pre-objtool.o where objtool ran on X.o.
            if f + ".pre-objtool.o" in names:
                continue
            if any(part in ("tools", "scripts") for part in root.split(os.sep)):
                continue
            yield os.path.join(root, f)

def asynchronous(obj):
    """Whether kbuild compiled `obj` with asynchronous unwind tables (its
    .cmd file's last -f[no-]asynchronous-unwind-tables), None if unknown.
    Without them the compiler's CFI is exact only at calls (clang writes a
    function's prologue in one row and leaves epilogues out)."""
    base = obj[: -len(".pre-objtool.o")] if obj.endswith(".pre-objtool.o") else obj
    cmd = os.path.join(os.path.dirname(base), "." + os.path.basename(base) + ".cmd")
    try:
        text = open(cmd, errors="replace").read().split("\n", 1)[0]
    except OSError:
        return None
    flags = re.findall(r"-f(no-)?asynchronous-unwind-tables\b", text)
    return bool(flags) and flags[-1] == ""

def cfi_main(a):
    jobs = list(cfi_jobs(a.cfi))
    totals = collections.Counter()
    classes = collections.Counter()
    unwalked = collections.Counter()
    errors, examples, records, unwalked_examples = [], [], [], []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for rec in ex.map(lambda j: run_cfi(a.objlint, j, a.examples), jobs):
            if "error" in rec:
                errors.append(f"{rec['file']}: {rec['error']}")
                continue
            c = rec["cfi"]
            if not c.get("source"):
                totals["without_cfi"] += 1
                continue
            records.append(rec)
            if asynchronous(rec["file"]) is False:
                totals["sync_objects"] += 1
                for k in ("compared", "agree", "disagree"):
                    totals["sync_" + k] += c[k]
                continue
            totals["objects"] += 1
            for k in ("fdes", "compared", "agree", "disagree", "not_comparable", "not_walked"):
                totals[k] += c[k]
            totals["fde_errors"] += len(c["errors"])
            classes.update(c["classes"])
            unwalked.update(c.get("not_walked_classes", {}))
            examples.extend(f"{os.path.basename(rec['file'])}: {e}" for e in c["examples"])
            unwalked_examples.extend(f"{os.path.basename(rec['file'])}: {e}" for e in c.get("not_walked_examples", []))
    print(f"objects with DWARF CFI: {totals['objects']} (without: {totals['without_cfi']}, unreadable: {len(errors)}), FDEs: {totals['fdes']}, FDE errors: {totals['fde_errors']}")
    cmp_ = totals["compared"]
    pct = 100.0 * totals["agree"] / cmp_ if cmp_ else 100.0
    print(f"instructions compared: {cmp_}, agree: {totals['agree']} ({pct:.3f}%), disagree: {totals['disagree']}, not comparable: {totals['not_comparable']}, covered but not walked: {totals['not_walked']}")
    for k, v in classes.most_common():
        print(f"  {v:>8}  {k}")
    if totals["sync_objects"]:
        print(f"apart: {totals['sync_objects']} objects built without -fasynchronous-unwind-tables (CFI exact only at calls): "
              f"{totals['sync_compared']} compared, {totals['sync_agree']} agree, {totals['sync_disagree']} disagree")
    for k, v in unwalked.most_common():
        print(f"  {v:>8}  not walked: {k}")
    for e in errors[:10]:
        print("error:", e)
    for e in examples[:40]:
        print("  ", e)
    for e in unwalked_examples[:20]:
        print("   not walked:", e)
    write_records(a.json, records)
    return 0

def kbuild_jobs(d):
    prefixes = {}
    tsv = os.path.join(d, "objtool-invocations.tsv")
    for line in open(tsv):
        obj, _, args = line.rstrip("\n").partition("\t")
        # Only objects objtool wrote ORC into (Linux 7.x also runs it as
        # `--dry-run --noabs` on arch/x86/boot/startup/, which writes none).
        if "--orc" not in args.split() or "--dry-run" in args.split():
            continue
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
    g.add_argument("--cfi")
    a = ap.parse_args()
    if a.cfi:
        return cfi_main(a)
    jobs = list(kbuild_jobs(a.kbuild) if a.kbuild else module_jobs(a.modules))
    # A kbuild tree says its kernel (how its objtool lays out ORC: Linux 7.x
    # gives padding a state only before patchable entries); a module says it
    # itself (vermagic).
    kernel = None
    if a.kbuild:
        try:
            kernel = open(os.path.join(a.kbuild, "include", "config", "kernel.release")).read().strip()
        except OSError:
            pass
    totals = collections.Counter()
    classes = collections.Counter()
    errors, examples, records = [], [], []
    objects_disagreeing = 0
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for rec in ex.map(lambda j: run(a.objlint, j[0], j[1], j[2], a.examples, kernel), jobs):
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
    write_records(a.json, records)
    return 0

if __name__ == "__main__":
    sys.exit(main())
