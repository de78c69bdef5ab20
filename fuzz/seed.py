#!/usr/bin/env python3
"""Write a fuzz target's seed corpus from objects, in the layout the target
reads: check_bytes, seal and x86_decode take the object as it is; load takes an options
byte first (each seed a different one); stats_symdiff takes two objects, the
first's length as 4 little-endian bytes before them (each object paired with
the next).

Usage: fuzz/seed.py TARGET OUTDIR OBJECT...
"""
import os
import struct
import sys


def main():
    target, out, objs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    datas = [open(p, "rb").read() for p in objs]
    for i, (p, d) in enumerate(zip(objs, datas)):
        if target in ("check_bytes", "seal", "x86_decode"):
            seed = d
        elif target == "load":
            seed = bytes([i % 32]) + d
        elif target == "stats_symdiff":
            other = datas[(i + 1) % len(datas)]
            seed = struct.pack("<I", len(d)) + d + other
        else:
            sys.exit(f"unknown target {target}")
        name = p.replace("/", "_")
        with open(os.path.join(out, name), "wb") as f:
            f.write(seed)


if __name__ == "__main__":
    main()
