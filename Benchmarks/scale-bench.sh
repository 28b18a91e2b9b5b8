#!/usr/bin/env bash
# Memory and time as the site grows (issue #27): mirrors generated sites of several sizes with
# mtls-mirror and wget2 in the same run (Benchmarks/mirror-bench.sh for each size), and prints
# one Markdown table: URLs, wall time and time per URL, peak RSS and bytes of peak RSS per URL
# over the smallest size, each against wget2. mtls-mirror keeps its per-URL state on disk and in
# a few compact columns, so its peak RSS should stay nearly flat.
#
# Usage: Benchmarks/scale-bench.sh [options]
#   --sizes LIST         comma-separated page counts (default 2000,20000,100000; 100,000 pages is
#                        about 230,000 URLs and 900 MB of site)
#   --runs N             runs per tool and size (default 1)
#   --wget2-threads N    wget2's --max-threads (default 2, as issue #27 compares)
#   --no-build           use the release binary if it exists (default: scripts/build-release.sh)
#   --mtls-mirror-bin P  use this binary
#   --work-parent DIR    where the work folders go (default /tmp; a freshly made ext4 file system
#                        is better: see Benchmarks/README.md)
set -euo pipefail
cd "$(dirname "$0")/.."

sizes="2000,20000,100000" runs=1 threads=2 work_parent=/tmp pass=()
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) sizes=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --wget2-threads) threads=$2; shift 2 ;;
        --no-build) pass+=(--no-build); shift ;;
        --mtls-mirror-bin) pass+=(--mtls-mirror-bin "$2"); shift 2 ;;
        --work-parent) work_parent=$2; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "scale-bench: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ "$runs" -ge 1 ] 2>/dev/null || { echo "scale-bench: --runs needs a positive number" >&2; exit 2; }
[ "$threads" -ge 1 ] 2>/dev/null || { echo "scale-bench: --wget2-threads needs a positive number" >&2; exit 2; }

out=$(mktemp -d "$work_parent/mtls-mirror-scale.XXXXXX")
trap 'rm -rf "$out"' EXIT
IFS=, read -r -a chosen <<<"$sizes"
built=0
for pages in "${chosen[@]}"; do
    [ "$pages" -ge 1 ] 2>/dev/null || { echo "scale-bench: bad size $pages" >&2; exit 2; }
    echo "scale-bench: $pages pages" >&2
    extra=("${pass[@]}")
    # Build once: the later sizes reuse the binary.
    [ "$built" = 1 ] && extra+=(--no-build)
    Benchmarks/mirror-bench.sh --pages "$pages" --runs "$runs" --jobs "$threads" --tools mtls-mirror,wget2 \
        --work-parent "$work_parent" "${extra[@]}" >"$out/$pages.md"
    built=1
done

python3 - "$out" "${chosen[@]}" <<'PY'
import sys, re, os
folder, sizes = sys.argv[1], sys.argv[2:]
rows = {}
for pages in sizes:
    text = open(os.path.join(folder, pages + ".md")).read()
    header = None
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "tool":
            header = cells
            continue
        if header and cells and cells[0] in ("mtls-mirror", "wget2") and len(cells) == len(header):
            row = dict(zip(header, cells))
            urls = re.search(r"\((\d+)/(\d+)\)", row.get("URLs covered", ""))
            rows[(pages, cells[0])] = {
                "wall": float(row["wall s (median)"]),
                "rss": float(row["peak RSS MiB (max)"]),
                "requests": int(row["requests"]),
                "urls": int(urls.group(2)) if urls else int(row["requests"]),
            }
print("| pages | URLs | tool | wall s | ms per URL | vs wget2 | peak RSS MiB | vs wget2 | RSS vs the smallest size |")
print("|---:|---:|---|---:|---:|---:|---:|---:|---:|")
base = {tool: rows.get((sizes[0], tool)) for tool in ("mtls-mirror", "wget2")}
for pages in sizes:
    for tool in ("mtls-mirror", "wget2"):
        r = rows.get((pages, tool))
        peer = rows.get((pages, "wget2"))
        if not r:
            print(f"| {pages} | | {tool} | (no result) | | | | | |")
            continue
        per = 1000 * r["wall"] / max(r["urls"], 1)
        grow = r["rss"] / base[tool]["rss"] if base.get(tool) else float("nan")
        print(f"| {pages} | {r['urls']} | {tool} | {r['wall']:.2f} | {per:.3f} | {r['wall'] / peer['wall']:.2f}× "
              f"| {r['rss']:.1f} | {r['rss'] / peer['rss']:.2f}× | {grow:.2f}× |")
PY
