#!/usr/bin/env python3
"""objtool against objlint on frames removed by hand, in a frame-pointer build.

Usage: scripts/frame-faults.py KBUILD_CONFIG_DIR [--objlint BIN] [--jobs N] [-- OBJLINT_ARGS...]

KBUILD_CONFIG_DIR is what ../shared/corpus/build-kernel-objects.sh leaves for one
configuration built with frame pointers, e.g.
  EXTRA_ENABLE="UNWINDER_FRAME_POINTER STACK_VALIDATION" EXTRA_DISABLE=UNWINDER_ORC \\
    build-kernel-objects.sh x86-gcc-noibt DIR     ->  DIR/x86-gcc-noibt
(objtool-invocations.tsv and every X.o.pre-objtool.o). In each object kbuild ran
objtool on, the first function that starts `push %rbp; mov %rsp,%rbp` loses the
`mov` (a 3-byte NOP); objtool (kbuild's own arguments, --dry-run) and objlint
(`--profile kernel` plus OBJLINT_ARGS, e.g. --frame-pointer) run on the faulted
copy. A function counts as found by a tool when a warning or finding new to the
copy names it. Prints: faulted functions found by both / only objtool / only
objlint / neither, and the warnings at the same place with the same message.
"""
import argparse, concurrent.futures as cf, json, os, re, subprocess, sys, tempfile

WARN = re.compile(r"warning: objtool: (\S+): (.*)$")


def sh(args):
    return subprocess.run(args, capture_output=True, text=True)


def objtool_warnings(objtool, args, path):
    r = sh([objtool] + args + ["--dry-run", path])
    return {WARN.search(l).groups() for l in (r.stderr + r.stdout).splitlines() if WARN.search(l)}


def objlint_findings(objlint, args, path):
    r = sh([objlint, "check", "--format", "json", "-q", "--profile", "kernel"] + args + [path])
    out = set()
    for l in r.stdout.splitlines():
        j = json.loads(l)
        if j.get("type") != "finding":
            continue
        loc = f"{j['symbol']}+{j['symbol_offset']:#x}" if j.get("symbol") else f"{j['section']}+{j['offset']:#x}"
        out.add((loc, j["message"]))
    return out


def exec_sections(path):
    """Executable PROGBITS sections: index -> file offset."""
    out = {}
    for l in sh(["readelf", "-SW", path]).stdout.splitlines():
        m = re.search(r"\[\s*(\d+)\]\s+\S+\s+PROGBITS\s+\w+\s+(\w+)\s+\w+\s+\w+\s+(\w*)", l)
        if m and "X" in m.group(3):
            out[m.group(1)] = int(m.group(2), 16)
    return out


def fault(src, dst):
    """Remove the frame setup of the first framed function: its name, or None."""
    data = bytearray(open(src, "rb").read())
    secs = exec_sections(src)
    for l in sh(["readelf", "-sW", src]).stdout.splitlines():
        p = l.split()
        if len(p) >= 8 and p[3] == "FUNC" and p[6] in secs:
            at = secs[p[6]] + int(p[1], 16)
            if data[at : at + 4] == b"\x55\x48\x89\xe5":
                data[at + 1 : at + 4] = b"\x0f\x1f\x00"
                open(dst, "wb").write(data)
                return p[7]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--objlint", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "objlint"))
    ap.add_argument("--objtool", default=os.path.join(os.environ.get("OBJCORPUS", os.path.expanduser("~/.cache/objcorpus")), "bin", "objtool"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("objlint_args", nargs="*")
    a = ap.parse_args()
    runs = []
    for l in open(os.path.join(a.dir, "objtool-invocations.tsv")):
        obj, args = l.rstrip("\n").split("\t")
        src = os.path.join(a.dir, obj + ".pre-objtool.o")
        if os.path.exists(src):
            runs.append((obj, args.split()[:-1], src))
    tmp = tempfile.mkdtemp(prefix="frame-faults-")

    def one(run):
        obj, args, src = run
        dst = os.path.join(tmp, obj.replace("/", "_"))
        func = fault(src, dst)
        if func is None:
            return None
        ot = objtool_warnings(a.objtool, args, dst) - objtool_warnings(a.objtool, args, src)
        ol = objlint_findings(a.objlint, a.objlint_args, dst) - objlint_findings(a.objlint, a.objlint_args, src)
        return obj, func, ot, ol

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        res = [r for r in ex.map(one, runs) if r]
    counts = {"both": 0, "only objtool": 0, "only objlint": 0, "neither": 0}
    same = total = 0
    for obj, func, ot, ol in res:
        t = any(func in loc for loc, _ in ot)
        o = any(func in loc for loc, _ in ol)
        counts["both" if t and o else "only objtool" if t else "only objlint" if o else "neither"] += 1
        same += len(ot & ol)
        total += len(ot)
        if t != o:
            print(f"{'objtool' if t else 'objlint'} only: {obj} {func}: {sorted(ot or ol)}")
    print(f"{len(res)} objects faulted; functions found by " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"objtool's new warnings at the same place with the same message in objlint: {same} of {total}")


if __name__ == "__main__":
    sys.exit(main())
