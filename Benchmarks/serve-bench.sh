#!/usr/bin/env bash
# Throughput of `mtls-mirror serve` against nginx (1 worker) serving the same mirror folder,
# measured with wrk in one run: a small page and a large file, 50 connections each.
#
# Usage: Benchmarks/serve-bench.sh [--pages N] [--duration S] [--connections C] [--no-build]
# Prints a Markdown table ready for BENCHMARKS.md. Needs wrk (scripts/install-deps.sh --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
pages=200 duration=10 connections=50 build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --pages) pages=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
        *) echo "serve-bench: unknown option $1" >&2; exit 2 ;;
    esac
done
bash scripts/install-deps.sh --bench >/dev/null
if [ "$build" = 1 ]; then bin=$(bash scripts/build-release.sh 2>/dev/null); else bin="$repo/.build/release/mtls-mirror"; fi
work=$(mktemp -d /tmp/mtls-mirror-serve-bench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT INT TERM
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# A mirror to serve: a generated site, copied as a snapshot (no origin needed to serve it).
python3 scripts/gen-site.py "$work/site" --pages "$pages" >/dev/null
snapshot="$work/out/site/snapshots/1"
mkdir -p "$snapshot/_mirror"
cp -r "$work/site/." "$snapshot/"
head -c $((20 * 1024 * 1024)) /dev/urandom > "$snapshot/large.bin"
ln -s snapshots/1 "$work/out/site/current"
small=$(cd "$snapshot" && ls -S about* index.html 2>/dev/null | tail -1)
small_size=$(stat -c %s "$snapshot/$small")

mport=$(freeport); nport=$(freeport)
"$bin" serve -o "$work/out" --port "$mport" --quiet >/dev/null 2>&1 &
pids+=($!)
user_line=""; [ "$(id -u)" -eq 0 ] && user_line="user root;"
cat > "$work/nginx.conf" <<CONF
$user_line
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    client_body_temp_path $work/t1; proxy_temp_path $work/t2; fastcgi_temp_path $work/t3; uwsgi_temp_path $work/t4; scgi_temp_path $work/t5;
    include /etc/nginx/mime.types;
    server { listen 127.0.0.1:$nport; root $snapshot; }
}
CONF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log" &
pids+=($!)
for port in "$mport" "$nport"; do
    for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.05; done
done

rps() { wrk -t2 -c"$connections" -d"${duration}s" "$1" | awk '/Requests\/sec/ {print $2}'; }
tput() { wrk -t2 -c"$connections" -d"${duration}s" "$1" | awk '/Transfer\/sec/ {print $2}'; }
ms=$(rps "http://127.0.0.1:$mport/$small"); ns=$(rps "http://127.0.0.1:$nport/$small")
ml=$(tput "http://127.0.0.1:$mport/large.bin"); nl=$(tput "http://127.0.0.1:$nport/large.bin")
ratio() { python3 -c "print(f'{float(\"$1\")/float(\"$2\"):.2f}')"; }
to_mib() { python3 -c "
v='$1'; u={'B':1/1048576,'KB':1/1024,'MB':1,'GB':1024}
import re; m=re.match(r'([0-9.]+)([KMG]?B)',v); print(f'{float(m.group(1))*u[m.group(2)]:.0f}')"; }
echo
echo "### serve vs nginx (1 worker), wrk -t2 -c$connections -d${duration}s, loopback"
echo
echo "Machine: $(nproc) CPUs, $(uname -r). Small file: $small ($small_size bytes); large file: 20 MiB."
echo
echo "| test | mtls-mirror serve | nginx (1 worker) | serve / nginx |"
echo "|---|---:|---:|---:|"
echo "| small page, requests/s | $ms | $ns | $(ratio "$ms" "$ns")× |"
echo "| 20 MiB file, MiB/s | $(to_mib "$ml") | $(to_mib "$nl") | $(ratio "$(to_mib "$ml")" "$(to_mib "$nl")")× |"
