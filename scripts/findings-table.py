#!/usr/bin/env python3
"""Findings per rule of objlint runs (JSON Lines), as markdown tables: one per
NAME, from OUT/NAME.json, and with --before beside OUT/NAME.before.json.
Used by scripts/userspace-corpus.sh and scripts/rust-corpus.sh.

Usage: findings-table.py OUT [--before] NAME...
"""
import collections, json, sys

args = sys.argv[1:]
before = "--before" in args
args = [a for a in args if a != "--before"]
out, names = args[0], args[1:]

def tally(path):
    c, objects, functions = collections.Counter(), 0, 0
    for line in open(path):
        d = json.loads(line)
        if d["type"] == "finding":
            key = d["rule"]
            if d.get("cause"):
                key += " (" + d["cause"] + ")"
            if d["severity"] != "error":
                key += " [" + d["severity"] + "]"
            c[key] += 1
        elif d["type"] == "object":
            objects += 1
            functions += d.get("functions", 0)
    return c, objects, functions

for name in names:
    after, objs, funcs = tally(f"{out}/{name}.json")
    prev = tally(f"{out}/{name}.before.json")[0] if before else None
    print(f"\n### {name}: {objs} objects, {funcs} functions\n")
    if before:
        print("| rule | before | after |\n|---|---:|---:|")
        for k in sorted(set(after) | set(prev)):
            print(f"| {k} | {prev[k]} | {after[k]} |")
        print(f"| **all** | **{sum(prev.values())}** | **{sum(after.values())}** |")
    else:
        print("| rule | findings |\n|---|---:|")
        for k in sorted(after):
            print(f"| {k} | {after[k]} |")
        print(f"| **all** | **{sum(after.values())}** |")
