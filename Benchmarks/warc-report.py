#!/usr/bin/env python3
"""Prints mirror-bench.sh --warc's "Archive output" table from its work folder (stdlib only).

Usage: python3 Benchmarks/warc-report.py --work DIR --runs N --network TEXT

The runs of mtls-mirror and `mtls-mirror --warc` (and of wget and `wget --warc-file`) alternate
in every round of the same invocation, so each round gives a paired ratio; the table shows the
medians, the range of the paired ratios, and the archives of the last round: their size, and
their records (counted in the decompressed files).
"""
import argparse
import glob
import gzip
import os
import statistics


def load(work):
    rows = []
    with open(os.path.join(work, "runs.tsv")) as tsv:
        for line in tsv:
            f = line.rstrip("\n").split("\t")
            if len(f) < 13 or f[2] != "mirror":
                continue
            rows.append(dict(label=f[0], run=int(f[1]), code=f[3], wall=float(f[4] or 0), rss=int(f[5] or 0),
                             requests=int(f[6]), cpu=float(f[11] or 0) + float(f[12] or 0)))
    return rows


def records(paths):
    counts = {}
    for path in paths:
        with gzip.open(path, "rb") as handle:
            for line in handle:
                if line.startswith(b"WARC-Type: "):
                    kind = line[11:].strip().decode("ascii", "replace")
                    counts[kind] = counts.get(kind, 0) + 1
    return counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--network", default="loopback")
    args = parser.parse_args()
    rows = load(args.work)
    by = {}
    for row in rows:
        by.setdefault(row["label"], {})[row["run"]] = row

    print("\n### Archive output (`--warc`), %s, %d rounds\n" % (args.network, args.runs))
    print("| | wall (median) | min–max | CPU (median) | peak RSS | requests | exit |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for label in ("mtls-mirror", "mtls-mirror-warc", "wget", "wget-warc"):
        runs = list(by.get(label, {}).values())
        if not runs:
            continue
        walls = [r["wall"] for r in runs]
        name = {"mtls-mirror-warc": "mtls-mirror --warc", "wget-warc": "wget --warc-file"}.get(label, label)
        print("| %s | %.2f s | %.2f–%.2f s | %.2f s | %.1f MiB | %d | %s |" % (
            name, statistics.median(walls), min(walls), max(walls), statistics.median(r["cpu"] for r in runs),
            max(r["rss"] for r in runs) / 1024, statistics.median(r["requests"] for r in runs),
            "/".join(sorted({r["code"] for r in runs}))))

    print()
    for plain, archived, name in (("mtls-mirror", "mtls-mirror-warc", "mtls-mirror"), ("wget", "wget-warc", "wget")):
        pairs = [(by[plain][n], by[archived][n]) for n in by.get(plain, {}) if n in by.get(archived, {})]
        if not pairs:
            continue
        wall = [b["wall"] / a["wall"] for a, b in pairs if a["wall"]]
        cpu = [b["cpu"] / a["cpu"] for a, b in pairs if a["cpu"]]
        print("- %s: with its archive / without, paired by round: wall **%.2f×** (median; %.2f–%.2f), CPU %.2f× (%.2f–%.2f)"
              % (name, statistics.median(wall), min(wall), max(wall), statistics.median(cpu), min(cpu), max(cpu)))

    last = args.runs
    ours = sorted(glob.glob(os.path.join(args.work, "out", "mtls-mirror-warc-%d" % last, "bench", "archive", "*.warc.gz")))
    index = sorted(glob.glob(os.path.join(args.work, "out", "mtls-mirror-warc-%d" % last, "bench", "archive", "indexes", "*.cdxj")))
    theirs = sorted(glob.glob(os.path.join(args.work, "out", "wget-warc-%d" % last, "*.warc.gz")))
    cdx = sorted(glob.glob(os.path.join(args.work, "out", "wget-warc-%d" % last, "*.cdx")))
    if ours or theirs:
        print("\n| archive (last round) | files | bytes | index bytes | records |")
        print("|---|---:|---:|---:|---|")
        for name, files, indexes in (("mtls-mirror --warc (WARC 1.1)", ours, index), ("wget --warc-file (WARC 1.0)", theirs, cdx)):
            if not files:
                continue
            size = sum(os.path.getsize(p) for p in files)
            index_size = sum(os.path.getsize(p) for p in indexes)
            counts = records(files)
            print("| %s | %d | %d (%.1f MiB) | %d | %s |" % (name, len(files), size, size / 1048576, index_size,
                  ", ".join("%s %d" % (k, counts[k]) for k in sorted(counts))))
        if ours and theirs:
            print("\nmtls-mirror's archive is %.2f× the size of wget's."
                  % (sum(os.path.getsize(p) for p in ours) / max(1, sum(os.path.getsize(p) for p in theirs))))


if __name__ == "__main__":
    main()
