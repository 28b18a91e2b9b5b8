#!/usr/bin/env python3
"""Prints mirror-bench.sh's Markdown tables from its work folder (stdlib only).

Usage: python3 Benchmarks/bench-report.py --work DIR --pages N --expected-urls N --network TEXT
           --jobs N --runs N --refresh 0|1 --parallel-max N [--floor-jobs N] --latency MS [--note TEXT] [--connect TEXT]

Reads DIR/runs.tsv (one line per timed run: label, run, phase, exit, wall s, peak RSS KiB,
requests, body bytes, 2xx, 304, other statuses, user s, system s, from GNU time and nginx's
access log; older files without the two CPU columns are read too),
DIR/TOOL.check (files, bytes, linkcheck.py JSON, extra note: the last run's output) and, in
refresh mode, DIR/mtls-mirror.refresh-bytes.RUN (the `bytes` of mtls-mirror's report.json).
"""
import argparse
import json
import os
import platform
import statistics


def load_runs(work):
    rows = []
    with open(os.path.join(work, "runs.tsv")) as tsv:
        for line in tsv:
            f = line.rstrip("\n").split("\t")
            if len(f) < 11:
                continue
            cpu = float(f[11] or 0) + float(f[12] or 0) if len(f) >= 13 else None
            rows.append(dict(label=f[0], run=int(f[1]), phase=f[2], code=f[3], wall=float(f[4] or 0),
                             rss=int(f[5] or 0), requests=int(f[6]), body=int(f[7]), ok=int(f[8]),
                             not_modified=int(f[9]), other=int(f[10]), cpu=cpu))
    return rows


def load_check(work, tool):
    try:
        with open(os.path.join(work, tool + ".check")) as handle:
            files, size, check, extra = (handle.read().split("\n") + ["", "", "{}", ""])[:4]
        return int(files or 0), int(size or 0), json.loads(check or "{}"), extra
    except (OSError, ValueError):
        return 0, 0, {}, ""


def machine():
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next((l.split(":", 1)[1].strip() for l in info if l.startswith("model name")), cpu)
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as info:
            kib = int(next(l.split()[1] for l in info if l.startswith("MemTotal")))
            mem = ", %.0f GiB RAM" % (kib / 1048576)
    except (OSError, StopIteration, ValueError):
        pass
    load = os.getloadavg()[0]
    return "%s, %d CPUs%s, %s (1-min load average %.1f at the end)" % (
        cpu, os.cpu_count(), mem, platform.platform(terse=True), load)


def summary(runs, label, phase):
    mine = [r for r in runs if r["label"] == label and r["phase"] == phase]
    if not mine:
        return None
    walls = [r["wall"] for r in mine]
    last = max(mine, key=lambda r: r["run"])
    codes = sorted({r["code"] for r in mine})
    cpus = [r["cpu"] for r in mine if r["cpu"] is not None]
    return dict(wall=statistics.median(walls), lo=min(walls), hi=max(walls), n=len(walls),
                cpu=statistics.median(cpus) if cpus else None,
                rss=max(r["rss"] for r in mine), codes="/".join(codes), last=last,
                requests=statistics.median(r["requests"] for r in mine),
                body=statistics.median(r["body"] for r in mine))


def ratio(value, reference):
    return "%.2f×" % (value / reference) if reference else "–"


def mirror_table(args, runs):
    tools = [t for t in ("mtls-mirror", "wget", "wget2") if summary(runs, t, "mirror")]
    stats = {t: summary(runs, t, "mirror") for t in tools}
    ref = stats.get("wget2")
    print("| tool | exit | wall s (median) | vs wget2 | CPU s (median) | vs wget2 | peak RSS MiB (max) | vs wget2 "
          "| requests | MiB sent | files | MiB | local refs resolved | refs to origin | URLs covered |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for tool in tools:
        s = stats[tool]
        files, size, c, _ = load_check(args.work, tool)
        cpu = "%.2f" % s["cpu"] if s["cpu"] is not None else "–"
        cpu_ratio = ratio(s["cpu"], ref and ref["cpu"]) if s["cpu"] is not None else "–"
        print("| %s | %s | %.2f | %s | %s | %s | %.1f | %s | %d | %.1f | %d | %.1f | %s | %s | %s |" % (
            tool, s["codes"], s["wall"], ratio(s["wall"], ref and ref["wall"]), cpu, cpu_ratio, s["rss"] / 1024,
            ratio(s["rss"], ref and ref["rss"]), s["requests"], s["body"] / 1048576, files, size / 1048576,
            "%.2f %% (%d/%d)" % (c["resolvedPercent"], c["resolved"], c["local"]) if "local" in c else "–",
            c.get("origin", "–"),
            "%.2f %% (%d/%d)" % (c["coveragePercent"], c["coverage"], c["expectedURLs"]) if "coverage" in c else "–"))
    print()
    spread = "; ".join("%s %.2f–%.2f s" % (t, stats[t]["lo"], stats[t]["hi"]) for t in tools)
    print("Wall time over %d runs (min–max): %s. *CPU s* is user plus system time of the tool's process tree "
          "(GNU time), the origin's and the delay proxy's not included. Peak RSS is the largest of the runs. "
          "*requests* and *MiB sent* come from nginx's access log (`$body_bytes_sent`); files and link columns describe the last "
          "run's output." % (args.runs, spread))
    mine = stats.get("mtls-mirror")
    for label, name in (("engine-floor", "mtls-mirror's HTTP engine (Benchmarks/fetch-floor), %d at a time" % args.floor_jobs),
                        ("curl-floor", "curl --parallel --parallel-max %d --http2" % args.floor_jobs)):
        floor = summary(runs, label, "mirror")
        if floor:
            print("- Fetching alone, every reachable URL given in advance (nothing to discover, parse or write), "
                  "with %s: %.2f s (median; %.2f–%.2f s, exit %s, %d requests), %s wget2's wall time, "
                  "%s mtls-mirror's." % (
                      name, floor["wall"], floor["lo"], floor["hi"], floor["codes"], floor["requests"],
                      ratio(floor["wall"], ref and ref["wall"]), ratio(floor["wall"], mine and mine["wall"])))
    for tool in tools:
        _, _, c, extra = load_check(args.work, tool)
        samples = c.get("samples", {})
        bits = ["%s e.g. %s" % (k, "; ".join(v[:2])) for k, v in samples.items() if v]
        if bits or extra:
            print("- %s: %s" % (tool, " | ".join(([extra] if extra else []) + bits)))


def refresh_table(args, runs):
    curl = summary(runs, "curl", "refresh")
    tools = [t for t in ("mtls-mirror", "wget", "wget2") if summary(runs, t, "refresh")]
    print("| tool | exit | refresh wall s (median) | vs curl baseline | requests | 304 | 200 | other | body bytes "
          "sent | peak RSS MiB | initial mirror s (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    if curl:
        rows.append(("curl --parallel-max %d --http1.1, If-None-Match" % args.parallel_max, curl, None))
    curl_h2 = summary(runs, "curl-h2", "refresh")
    if curl_h2:
        rows.append(("curl --parallel-max %d --http2 (stalls, see below)" % args.parallel_max, curl_h2, None))
    for tool in tools:
        rows.append((tool, summary(runs, tool, "refresh"), summary(runs, tool, "initial")))
    for name, s, initial in rows:
        last = s["last"]
        print("| %s | %s | %.2f | %s | %d | %d | %d | %d | %d | %.1f | %s |" % (
            name, s["codes"], s["wall"], ratio(s["wall"], curl and curl["wall"]), s["requests"],
            last["not_modified"], last["ok"], last["other"], s["body"], s["rss"] / 1024,
            "%.2f" % initial["wall"] if initial else "–"))
    print()
    spread = "; ".join("%s %.2f–%.2f s" % (s["last"]["label"], s["lo"], s["hi"]) for _, s, _ in rows)
    print("Refresh wall time over %d runs (min–max): %s. Requests, statuses and body bytes come from nginx's "
          "access log for the refresh run only (304/200/other: the last run)." % (args.runs, spread))
    for run in range(1, args.runs + 1):
        path = os.path.join(args.work, "mtls-mirror.refresh-bytes.%d" % run)
        if os.path.exists(path):
            value = open(path).read().strip()
            print("- mtls-mirror run %d: report.json `bytes` of the new snapshot: %s" % (run, value or "not found"))
    for run in range(1, args.runs + 1):
        for tool in ("mtls-mirror", "wget", "wget2"):
            path = os.path.join(args.work, "%s.change-check.%d" % (tool, run))
            if os.path.exists(path):
                print("- %s run %d: %s" % (tool, run, open(path).read().strip()))
    kills = os.path.join(args.work, "mtls-mirror.kills")
    if os.path.exists(kills):
        print("- mtls-mirror kill test: %s" % open(kills).read().strip())
    target = "1.2× a %d-way curl revalidation at ~%s ms RTT" % (args.parallel_max, args.latency) \
        if float(args.latency) else "1.5× a bare curl --parallel revalidation on loopback"
    print("- Target for mtls-mirror's unchanged refresh: ≤ %s." % target)
    print("- The curl baseline fetches the URLs mtls-mirror revalidates (its manifest's 200 entries and "
          "robots.txt; without an mtls-mirror run, every URL of `_expected.json`) once to learn their ETags "
          "(not timed), then "
          "times conditional GETs with `If-None-Match`. Its HTTP/2 row is informational: curl 7.88's "
          "`--parallel` over one multiplexed connection sometimes stalls for about a second (the same command "
          "takes 0.05 s or 1.05 s), so the ratios use the HTTP/1.1 row (up to %d connections)." % args.parallel_max)
    if any(r["label"] == "wget" for r in runs):
        print("- wget 1.21 sends `If-Modified-Since` for the start page, gets 304 and stops: it does not parse "
              "its local copy for links, so its \"refresh\" checks one URL (the exit code is 0).")
    if args.note:
        print("- mtls-mirror not measured: %s." % args.note)


def main():
    parser = argparse.ArgumentParser()
    for name in ("work", "pages", "expected-urls", "network", "jobs", "mtls-jobs", "latency", "note", "connect"):
        parser.add_argument("--" + name, default="")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--refresh", type=int, default=0)
    parser.add_argument("--change", type=float, default=0)
    parser.add_argument("--parallel-max", type=int, default=32)
    parser.add_argument("--floor-jobs", type=int, default=256)
    args = parser.parse_args()
    runs = load_runs(args.work)
    kind = ("Refresh after changing %g %% of the HTML files" % args.change if args.change else "Unchanged refresh") \
        if args.refresh else "Mirror"
    print()
    print("### %s of a generated site (%s pages, %s reachable URLs), %s" % (
        kind, args.pages, args.expected_urls, args.network))
    print()
    mtls = "--jobs %s" % args.mtls_jobs if args.mtls_jobs else "with its defaults"
    print("Machine: %s. mtls-mirror %s, wget2 --max-threads %s, wget single-threaded; "
          "%d run(s) per tool. One request on a new connection (curl connect / TLS done / total): %s s."
          % (machine(), mtls, args.jobs, args.runs, args.connect))
    if args.note and not args.refresh:
        print("mtls-mirror not measured: %s." % args.note)
    print()
    if args.refresh:
        refresh_table(args, runs)
    else:
        mirror_table(args, runs)


if __name__ == "__main__":
    main()
