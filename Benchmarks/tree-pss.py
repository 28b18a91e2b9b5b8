#!/usr/bin/env python3
"""Samples the proportional memory (Pss) of a process and all its descendants until it exits.

Usage: Benchmarks/tree-pss.py PID [--interval SECONDS] [--out FILE]

Every INTERVAL (default 0.2 s) it lists the descendants of PID (by parent pid, from
/proc/*/stat), reads `Pss:` from each one's /proc/PID/smaps_rollup and sums them. Pss counts a
shared page once over all the processes that map it, so the sum is the tree's real footprint
(summed RSS would count Chromium's shared pages many times). Prints `peak_mib samples max_procs`
when PID is gone; with --out, also one `seconds pss_mib procs` line per sample.
"""
import argparse
import os
import time


def children_map():
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            kids.setdefault(int(fields[1]), []).append(int(name))
        except (OSError, IndexError, ValueError):
            pass
    return kids


def tree(root):
    kids = children_map()
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(kids.get(pid, []))
    return found


def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pid", type=int)
    parser.add_argument("--interval", type=float, default=0.2)
    parser.add_argument("--out")
    args = parser.parse_args()
    start = time.monotonic()
    peak, samples, max_procs = 0, 0, 0
    out = open(args.out, "w") if args.out else None
    while os.path.exists(f"/proc/{args.pid}"):
        pids = tree(args.pid)
        total = sum(pss_kib(pid) for pid in pids)
        peak = max(peak, total)
        max_procs = max(max_procs, len(pids))
        samples += 1
        if out:
            out.write(f"{time.monotonic() - start:.2f} {total / 1024:.1f} {len(pids)}\n")
        time.sleep(args.interval)
    print(f"{peak / 1024:.1f} {samples} {max_procs}")


if __name__ == "__main__":
    main()
