#!/usr/bin/env bash
# Render mode against the simplest alternative, in one run: a generated *application* site
# (every page an empty shell whose script builds the content from JSON) behind client-certificate
# TLS (nginx, ssl_verify_client on), mirrored by `mtls-mirror mirror --render`; then, on an
# unauthenticated copy of the same site, one `chromium --headless --dump-dom URL` per page.
# Prints a Markdown table: pages per second, wall time, CPU time, the peak memory of each whole
# process tree (browsers included; the sum of Pss from /proc/PID/smaps_rollup, sampled), whether
# each page's script-built text is in the result, and the ratio. See Benchmarks/README.md.
#
# Usage: Benchmarks/render-bench.sh [options]
#   --pages N            pages of the generated application (default 500; at least 500 for the issue's figures)
#   --render-jobs N      mtls-mirror --render-jobs (default: none given, so the tool's default)
#   --runs N             mtls-mirror runs; the table shows the median (default 3)
#   --peer-pages N       pages the dump-dom loop loads, spread over the site (default 60; "all" for every page)
#   --mtls-mirror-bin P  use this binary instead of building with scripts/build-release.sh
#   --no-build           do not build; use the release binary if it exists
#   --keep               keep the work folder and print its path
#
# The machine's other load changes every figure: the ratio of the two, measured in the same run,
# is what to compare across machines and sessions.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

pages=500 render_jobs="" runs=3 peer_pages=60 bin="" build=1 keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --pages) pages=$2; shift 2 ;;
        --render-jobs) render_jobs=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --peer-pages) peer_pages=$2; shift 2 ;;
        --mtls-mirror-bin) bin=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "render-bench: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

log() { echo "render-bench: $*" >&2; }
bash scripts/install-deps.sh >&2
for tool in nginx curl python3 chromium /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "render-bench: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
if [ -z "$bin" ]; then
    if [ "$build" = 1 ]; then bin=$(bash scripts/build-release.sh); else bin=$(swift build -c release --show-bin-path)/mtls-mirror; fi
fi
[ -x "$bin" ] || { echo "render-bench: no mtls-mirror binary at $bin" >&2; exit 1; }

work=$(mktemp -d /tmp/render-bench-XXXXXX)
source Benchmarks/origin-lib.sh
cleanup() {
    origin_cleanup
    if [ "$keep" = 1 ]; then log "work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

log "generating an application of $pages pages"
python3 scripts/gen-app-site.py "$work/www" --pages "$pages" >/dev/null
bash scripts/gen-test-pki.sh "$work/pki" >/dev/null
pki=$work/pki
mtls_port=$(origin_free_port)
plain_port=$(origin_free_port)
user_line=""
[ "$(id -u)" -eq 0 ] && user_line="user root;"
mkdir -p "$work/logs"
cat >"$work/nginx.conf" <<CONF
$user_line
daemon off;
worker_processes 2;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 1024; }
http {
    types { text/html html; text/css css; application/javascript js mjs; application/json json; image/svg+xml svg; font/woff2 woff2; }
    log_format bench '\$server_port \$status "\$request" "\$ssl_client_s_dn" \$msec';
    access_log $work/logs/access.log bench;
    keepalive_requests 100000;
    client_body_temp_path $work/tmp-body; proxy_temp_path $work/tmp-proxy;
    fastcgi_temp_path $work/tmp-fcgi; uwsgi_temp_path $work/tmp-uwsgi; scgi_temp_path $work/tmp-scgi;
    # The site behind mutual TLS, for mtls-mirror.
    server {
        listen 127.0.0.1:$mtls_port ssl http2;
        server_name localhost;
        ssl_certificate $pki/server-chain.pem;
        ssl_certificate_key $pki/server.key;
        ssl_client_certificate $pki/client-root.pem;
        ssl_verify_client on;
        ssl_verify_depth 2;
        ssl_protocols TLSv1.2 TLSv1.3;
        root $work/www;
        $(head -1 "$work/www/_nginx.conf")
    }
    # The same site unauthenticated, for the dump-dom loop (it cannot present a certificate).
    server {
        listen 127.0.0.1:$plain_port;
        root $work/www;
        $(head -1 "$work/www/_nginx.conf")
    }
}
CONF
origin_start_nginx
tls=(--cacert "$pki/server-root.pem" --cert "$pki/client-chain.pem" --key "$pki/client.key")
origin_wait_ready "https://localhost:$mtls_port/" "${tls[@]}" || { echo "render-bench: nginx did not start" >&2; exit 1; }
origin_wait_ready "http://127.0.0.1:$plain_port/" || { echo "render-bench: nginx did not start" >&2; exit 1; }

# measure NAME COMMAND...: runs COMMAND under GNU time with the Pss sampler on its tree; appends
# "NAME wall cpu peak_mib" to $work/results.
measure() {
    local name=$1
    shift
    /usr/bin/time -f '%e %U %S' -o "$work/time-$name" "$@" &
    local pid=$!
    python3 Benchmarks/tree-pss.py "$pid" --interval 0.2 >"$work/pss-$name" &
    local sampler=$!
    wait "$pid" || log "$name exited with $?"
    wait "$sampler" || true
    read -r wall user sys <"$work/time-$name"
    read -r peak _ procs <"$work/pss-$name"
    echo "$name $wall $(python3 -c "print(round($user + $sys, 2))") $peak $procs" >>"$work/results"
}

expected=$(python3 -c "import json; print(len(json.load(open('$work/www/_expected.json'))['pages']))")
export BENCH_PASS
BENCH_PASS=$(cat "$pki/password.txt")
jobs_flag=()
[ -n "$render_jobs" ] && jobs_flag=(--render-jobs "$render_jobs")
: >"$work/results"
for run in $(seq "$runs"); do
    log "mtls-mirror --render, run $run of $runs"
    sync
    before=$(wc -l <"$work/logs/access.log")
    measure "mtls-mirror-$run" "$bin" --quiet mirror "https://localhost:$mtls_port/" -o "$work/out-$run" --name app --render \
        "${jobs_flag[@]}" --cacert "$pki/server-root.pem" --cert "$pki/client.p12" --pass-env BENCH_PASS
    tail -n +"$((before + 1))" "$work/logs/access.log" >"$work/access-$run.log"
done

# The dump-dom loop over a sample of the pages (every k-th), one browser process per page.
python3 - "$work/www/_expected.json" "$peer_pages" >"$work/peer-paths" <<'PY'
import json, sys
pages = json.load(open(sys.argv[1]))["pages"]
n = len(pages) if sys.argv[2] == "all" else min(len(pages), int(sys.argv[2]))
step = len(pages) / n
print("\n".join(pages[int(i * step)] for i in range(n)))
PY
peer_count=$(wc -l <"$work/peer-paths")
sandbox=()
[ "$(id -u)" -eq 0 ] && sandbox=(--no-sandbox)
mkdir -p "$work/peer"
cat >"$work/peer.sh" <<PEER
#!/usr/bin/env bash
i=0
while read -r path; do
    i=\$((i + 1))
    timeout 60 chromium --headless ${sandbox[*]} --user-data-dir="$work/peer-profile-\$i" --dump-dom "http://127.0.0.1:$plain_port\$path" \
        >"$work/peer/\$i.html" 2>/dev/null
    rm -rf "$work/peer-profile-\$i"
done <"$work/peer-paths"
PEER
log "chromium --headless --dump-dom, one process per page, $peer_count pages"
measure peer bash "$work/peer.sh"

python3 - "$work" "$expected" "$peer_count" "$mtls_port" "$runs" <<'PY'
import json, os, statistics, sys
work, expected, peer_count, port, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
rows = {}
for line in open(os.path.join(work, "results")):
    name, wall, cpu, peak, procs = line.split()
    rows[name] = (float(wall), float(cpu), float(peak), int(procs))
site = json.load(open(os.path.join(work, "www/_expected.json")))
mirror_runs = [rows[f"mtls-mirror-{r}"] for r in range(1, runs + 1) if f"mtls-mirror-{r}" in rows]
median_wall = statistics.median(r[0] for r in mirror_runs)
median_cpu = statistics.median(r[1] for r in mirror_runs)
peak = max(r[2] for r in mirror_runs)
last = runs
snapshot = os.path.join(work, f"out-{last}/app/current")
report = json.load(open(os.path.join(snapshot, "_mirror/report.json")))
render = report.get("render", {})
def file_of(path):
    return os.path.join(snapshot, "index.html" if path == "/" else path.lstrip("/"))
have = sum(1 for p in site["pages"] if os.path.exists(file_of(p)) and site["tokens"][p] in open(file_of(p), encoding="utf-8").read())
origin_refs = 0
for root, _, files in os.walk(snapshot):
    if "/_mirror" in root:
        continue
    for name in files:
        if name.endswith(".html"):
            origin_refs += open(os.path.join(root, name), encoding="utf-8", errors="replace").read().count(f"localhost:{port}")
log = [l for l in open(os.path.join(work, f"access-{last}.log")) if l.startswith(port + " ")]
with_cert = sum(1 for l in log if "mirror-client-1" in l)
peer_wall, peer_cpu, peer_peak, peer_procs = rows["peer"]
paths = open(os.path.join(work, "peer-paths")).read().split()
peer_have = 0
for i, path in enumerate(paths, 1):
    try:
        if site["tokens"][path] in open(os.path.join(work, f"peer/{i}.html"), encoding="utf-8").read():
            peer_have += 1
    except OSError:
        pass
ours = expected / median_wall
theirs = peer_count / peer_wall
print(f"Render mode, {expected} pages ({expected - 1} + the home page), {runs} run(s) of mtls-mirror (median), "
      f"{peer_count} pages for the dump-dom loop\n")
print("| | pages | wall s | pages/s | CPU s | CPU s/page | peak tree memory (Pss) | processes | script-built text present |")
print("|---|---|---|---|---|---|---|---|---|")
print(f"| mtls-mirror `mirror --render` (mTLS) | {expected} | {median_wall:.1f} | **{ours:.1f}** | {median_cpu:.1f} | "
      f"{median_cpu / expected:.3f} | **{peak:.0f} MiB** | {mirror_runs[-1][3]} | {have} / {expected} |")
print(f"| `chromium --headless --dump-dom URL` per page (no TLS) | {peer_count} | {peer_wall:.1f} | {theirs:.2f} | {peer_cpu:.1f} | "
      f"{peer_cpu / peer_count:.3f} | {peer_peak:.0f} MiB | {peer_procs} | {peer_have} / {peer_count} |")
print(f"\nRatio of pages per second: **{ours / theirs:.1f}x** (target at least 5x); "
      f"{ours:.1f} rendered pages/s (target at least 10); peak tree {peak:.0f} MiB (target under 1024 MiB).")
print(f"mtls-mirror runs (wall s): {', '.join(f'{r[0]:.1f}' for r in mirror_runs)}; rendered {render.get('rendered')}, "
      f"budget-cut {len(render.get('budgetCut', []))}, failed {render.get('failed')}, cache hits {render.get('cacheHits')}, "
      f"browser starts {render.get('browserStarts')}; {report['fetched']} URLs, {report['failed']} failed.")
print(f"Origin's log, last run: {len(log)} requests, {with_cert} with the client certificate; references to the origin left "
      f"in the mirror's pages: {origin_refs}.")
PY
