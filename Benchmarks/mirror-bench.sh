#!/usr/bin/env bash
# Mirrors one generated site behind client-certificate TLS with mtls-mirror, wget and wget2,
# and prints a Markdown table (wall time, peak RSS, files, link quality, ratios vs wget2) ready
# to paste into BENCHMARKS.md. See Benchmarks/README.md.
#
# Usage: Benchmarks/mirror-bench.sh [options]
#   --pages N            pages in the generated site (default 2000)
#   --jobs N             mtls-mirror --jobs and wget2 --max-threads (default 16)
#   --latency MS         run the origin in a network namespace behind a veth pair with
#                        `tc netem` delay MS/2 on each end (round trip ≈ MS); needs root and sch_netem
#   --netns              use the network namespace without added delay
#   --tools LIST         comma-separated subset of mtls-mirror,wget,wget2 (default all three)
#   --timeout S          wall-clock limit per tool (default 900)
#   --mtls-mirror-bin P  use this binary instead of building `swift build -c release`
#   --no-build           do not build; use .build/release/mtls-mirror if it exists
#   --meta-dir NAME      mtls-mirror's bookkeeping folder in a snapshot (default _mirror)
#   --manifest NAME      its manifest file (default manifest.tsv)
#   --report NAME        its JSON report (default report.json)
#   --keep               keep the work folder (site, PKI, mirrors, logs) and print its path
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

pages=2000 jobs=16 latency=0 netns=0 timeout_s=900 keep=0 build=1 bin=""
tools="mtls-mirror,wget,wget2" meta_dir=_mirror manifest_name=manifest.tsv report_name=report.json
while [ $# -gt 0 ]; do
    case "$1" in
        --pages) pages=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --latency) latency=$2; netns=1; shift 2 ;;
        --netns) netns=1; shift ;;
        --tools) tools=$2; shift 2 ;;
        --timeout) timeout_s=$2; shift 2 ;;
        --mtls-mirror-bin) bin=$2; build=0; shift 2 ;;
        --no-build) build=0; shift ;;
        --meta-dir) meta_dir=$2; shift 2 ;;
        --manifest) manifest_name=$2; shift 2 ;;
        --report) report_name=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "mirror-bench: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
log() { echo "mirror-bench: $*" >&2; }
has_tool() { case ",$tools," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

bash scripts/install-deps.sh --bench

work=$(mktemp -d /tmp/mtls-mirror-bench.XXXXXX)
ns="mbench$$" veth_host="mbh$$" veth_ns="mbn$$"
nginx_pid="" ns_made=0
cleanup() {
    set +e
    if [ -n "$nginx_pid" ]; then
        kill "$nginx_pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$nginx_pid" 2>/dev/null
        wait "$nginx_pid" 2>/dev/null
    fi
    if [ "$ns_made" = 1 ]; then
        ip link del "$veth_host" 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    fi
    if [ "$keep" = 1 ]; then log "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# MARK: the site and the PKI
log "generating a site of $pages pages"
python3 scripts/gen-site.py "$work/www" --pages "$pages" >/dev/null
printf 'User-agent: *\nAllow: /\n' >"$work/www/robots.txt"
bash scripts/gen-test-pki.sh "$work/pki" >/dev/null
pki=$work/pki

# MARK: the network
nsexec=()
if [ "$netns" = 1 ]; then
    [ "$(id -u)" -eq 0 ] || { log "--latency/--netns need root"; exit 2; }
    host=10.213.0.2
    port=8443
    ip netns add "$ns"
    ns_made=1
    ip link add "$veth_host" type veth peer name "$veth_ns"
    ip link set "$veth_ns" netns "$ns"
    ip addr add 10.213.0.1/30 dev "$veth_host"
    ip link set "$veth_host" up
    ip netns exec "$ns" ip addr add "$host/30" dev "$veth_ns"
    ip netns exec "$ns" ip link set "$veth_ns" up
    ip netns exec "$ns" ip link set lo up
    if [ "$latency" != 0 ]; then
        half=$(python3 -c "print($latency / 2)")
        if ! tc qdisc add dev "$veth_host" root netem delay "${half}ms" 2>"$work/tc.err" ||
            ! ip netns exec "$ns" tc qdisc add dev "$veth_ns" root netem delay "${half}ms" 2>>"$work/tc.err"; then
            log "tc netem failed ($(tr '\n' ' ' <"$work/tc.err")): this kernel lacks sch_netem; try --netns without --latency"
            exit 3
        fi
    fi
    nsexec=(ip netns exec "$ns")
    # A server certificate for the namespace address, signed by the test PKI's server-int CA.
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$pki/bench-server.key" 2>/dev/null
    openssl req -new -key "$pki/bench-server.key" -subj "/CN=$host" -out "$work/bench-server.csr" 2>/dev/null
    printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:%s\n' \
        "$host" >"$work/bench-server.ext"
    openssl x509 -req -in "$work/bench-server.csr" -CA "$pki/server-int.pem" -CAkey "$pki/server-int.key" \
        -CAcreateserial -CAserial "$work/bench-server.srl" -days 30 -sha256 -extfile "$work/bench-server.ext" \
        -out "$pki/bench-server.pem" 2>/dev/null
    cat "$pki/bench-server.pem" "$pki/server-int.pem" >"$pki/bench-server-chain.pem"
    server_chain=$pki/bench-server-chain.pem server_key=$pki/bench-server.key
else
    host=127.0.0.1
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    server_chain=$pki/server-chain.pem server_key=$pki/server.key
fi
origin="https://$host:$port/"

# MARK: nginx
mkdir -p "$work/logs"
user_line=""
[ "$(id -u)" -eq 0 ] && user_line="user root;"
cat >"$work/nginx.conf" <<CONF
$user_line
daemon off;
worker_processes 2;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $work/tmp-body; proxy_temp_path $work/tmp-proxy;
    fastcgi_temp_path $work/tmp-fcgi; uwsgi_temp_path $work/tmp-uwsgi; scgi_temp_path $work/tmp-scgi;
    server {
        listen $host:$port ssl http2;
        server_name localhost;
        ssl_certificate $server_chain;
        ssl_certificate_key $server_key;
        ssl_client_certificate $pki/client-root.pem;
        ssl_verify_client on;
        ssl_verify_depth 2;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:bench:10m;
        root $work/www;
        include $work/www/_nginx-types.conf;
    }
}
CONF
"${nsexec[@]}" nginx -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log" &
nginx_pid=$!
tls=(--cacert "$pki/server-root.pem" --cert "$pki/client-chain.pem" --key "$pki/client.key")
for _ in $(seq 100); do curl -s -o /dev/null --max-time 2 "${tls[@]}" "$origin" && break; sleep 0.1; done
status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "${tls[@]}" "$origin" || true)
[ "$status" = 200 ] || { log "nginx did not answer $origin (status $status); see $work/logs/error.log"; keep=1; exit 1; }
rtt=$(curl -s -o /dev/null -w '%{time_connect}' --max-time 5 "${tls[@]}" "$origin" || echo 0)
log "origin $origin is up (TCP connect $(python3 -c "print(round($rtt * 1000, 2))") ms)"

# MARK: the mirror tools
mtls_ready=0 mtls_note=""
if has_tool mtls-mirror; then
    if [ -z "$bin" ]; then
        if [ "$build" = 1 ]; then
            log "building mtls-mirror (swift build -c release)"
            swift build -c release >"$work/logs/swift-build.log" 2>&1 || { log "release build failed; see the log"; keep=1; exit 1; }
        fi
        bin=$repo/.build/release/mtls-mirror
    fi
    if [ ! -x "$bin" ]; then
        mtls_note="no binary at $bin"
    elif ! "$bin" mirror --help >/dev/null 2>&1; then
        mtls_note="$bin has no 'mirror' command yet"
    else
        mtls_ready=1
    fi
    [ "$mtls_ready" = 1 ] || log "skipping mtls-mirror: $mtls_note"
fi

common_wget=(--mirror --page-requisites --convert-links --adjust-extension --no-parent --no-hsts
    --certificate="$pki/client-chain.pem" --private-key="$pki/client.key" --ca-certificate="$pki/server-root.pem")
results=()
# run NAME OUTDIR ROOT-GLOB COMMAND...: times COMMAND, then counts and checks what it wrote.
run() {
    local name=$1 out=$2 root_hint=$3
    shift 3
    mkdir -p "$out"
    log "running $name"
    set +e
    /usr/bin/time -f '%e %M' -o "$work/$name.time" \
        timeout -k 10 "$timeout_s" "$@" >"$work/logs/$name.out" 2>"$work/logs/$name.err"
    local code=$?
    set -e
    local elapsed rss
    read -r elapsed rss < <(tail -n 1 "$work/$name.time")
    [ "$code" = 124 ] && log "$name timed out after ${timeout_s}s"
    # The mirror root: the given folder, or the shallowest folder holding index.html.
    local root
    root=$(compgen -G "$root_hint" | head -n 1 || true)
    [ -n "$root" ] || root=$(find "$out" -name index.html -printf '%d %h\n' 2>/dev/null | sort -n | head -n 1 | cut -d' ' -f2-)
    local files=0 bytes=0 check='{}'
    if [ -n "$root" ] && [ -d "$root" ]; then
        files=$(find -L "$root" -path "$root/$meta_dir" -prune -o -type f -print | wc -l)
        bytes=$(du -sbL --exclude="$meta_dir" "$root" | cut -f1)
        check=$(timeout 300 python3 Benchmarks/linkcheck.py "$root" --origin "$origin" --exclude "$meta_dir" \
            --expected "$work/www/_expected.json" || echo '{}')
    fi
    local extra=""
    [ -f "$root/$meta_dir/$manifest_name" ] && extra="manifest $(wc -l <"$root/$meta_dir/$manifest_name") lines"
    [ -f "$root/$meta_dir/$report_name" ] && extra="$extra, report $report_name"
    echo "$check" >"$work/$name.check.json"
    results+=("$name|$code|$elapsed|$rss|$files|$bytes|$work/$name.check.json|$extra")
}

if [ "$mtls_ready" = 1 ]; then
    export BENCH_P12_PASSWORD
    BENCH_P12_PASSWORD=$(cat "$pki/password.txt")
    site_name=$host
    [ "$port" != 443 ] && site_name="${host}_$port"
    run mtls-mirror "$work/out/mtls-mirror" "$work/out/mtls-mirror/$site_name/current" \
        "$bin" mirror "$origin" -o "$work/out/mtls-mirror" --cert "$pki/client.p12" --pass-env BENCH_P12_PASSWORD \
        --cacert "$pki/server-root.pem" --jobs "$jobs"
fi
if has_tool wget; then
    run wget "$work/out/wget" "$work/out/wget/$host*" \
        wget "${common_wget[@]}" --no-verbose -P "$work/out/wget" "$origin"
fi
if has_tool wget2; then
    run wget2 "$work/out/wget2" "$work/out/wget2/$host*" \
        wget2 "${common_wget[@]}" --max-threads="$jobs" --no-verbose --progress=none -P "$work/out/wget2" "$origin"
fi

# MARK: the table
expected_urls=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['paths']))" "$work/www/_expected.json")
network="loopback"
[ "$netns" = 1 ] && network="network namespace, no added delay"
[ "$latency" != 0 ] && network="network namespace, netem round trip ≈ ${latency} ms"
python3 - "$pages" "$expected_urls" "$network" "$jobs" "$mtls_note" "${results[@]}" <<'PY'
import json, os, platform, subprocess, sys
pages, expected, network, jobs, note = sys.argv[1:6]
rows = []
for line in sys.argv[6:]:
    name, code, elapsed, rss, files, size, check_file, extra = line.split("|", 7)
    try:
        check = json.load(open(check_file))
    except ValueError:
        check = {}
    rows.append(dict(name=name, code=code, elapsed=float(elapsed or 0), rss=int(rss or 0), files=int(files),
                     size=int(size), check=check, extra=extra))
ref = next((r for r in rows if r["name"] == "wget2"), None)
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
print()
print("### Mirror of a generated site (%s pages, %s reachable URLs), %s" % (pages, expected, network))
print()
print("Machine: %s, %d CPUs, %s. mtls-mirror --jobs %s, wget2 --max-threads %s, wget single-threaded."
      % (cpu, os.cpu_count(), platform.platform(terse=True), jobs, jobs))
if note:
    print("mtls-mirror not measured: %s." % note)
print()
print("| tool | exit | wall s | vs wget2 | peak RSS MiB | vs wget2 | files | MiB | local refs resolved | refs to origin | URLs covered |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    c = r["check"]
    ratio_t = "%.2f×" % (r["elapsed"] / ref["elapsed"]) if ref and ref["elapsed"] else "–"
    ratio_m = "%.2f×" % (r["rss"] / ref["rss"]) if ref and ref["rss"] else "–"
    print("| %s | %s | %.2f | %s | %.1f | %s | %d | %.1f | %s | %s | %s |" % (
        r["name"], r["code"], r["elapsed"], ratio_t, r["rss"] / 1024, ratio_m, r["files"], r["size"] / 1048576,
        "%.2f %% (%d/%d)" % (c["resolvedPercent"], c["resolved"], c["local"]) if "local" in c else "–",
        c.get("origin", "–"),
        "%.2f %% (%d/%d)" % (c["coveragePercent"], c["coverage"], c["expectedURLs"]) if "coverage" in c else "–"))
print()
for r in rows:
    c = r["check"]
    samples = c.get("samples", {})
    bits = ["%s e.g. %s" % (k, "; ".join(v[:2])) for k, v in samples.items() if v]
    if bits or r["extra"]:
        print("- %s: %s" % (r["name"], " | ".join(([r["extra"]] if r["extra"] else []) + bits)))
PY
