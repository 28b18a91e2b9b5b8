#!/usr/bin/env bash
# Checks the delay proxy (Benchmarks/delay-proxy.c; with --python Benchmarks/delay-proxy.py)
# against a real mTLS origin and prints Markdown: how many round trips a TLS request costs through
# the proxy (curl -w time_connect/time_appconnect/time_total), that the delay does not add up over
# a large body or a reused connection, and the proxy's own overhead (direct vs proxy with delay 0)
# with 32 parallel connections. See Benchmarks/README.md.
#
# Usage: Benchmarks/proxy-check.sh [--rtt MS] [--pages N] [--reps N] [--python]
#   --rtt MS     round trip to model (default 20; the proxy delays each direction by MS/2)
#   --pages N    size of the generated site for the overhead test (default 2000)
#   --reps N     repetitions of each measurement; medians are printed (default 5)
#   --python     check Benchmarks/delay-proxy.py instead of the C proxy (also BENCH_DELAY_PROXY=python)
set -euo pipefail
cd "$(dirname "$0")/.."
rtt=20 pages=2000 reps=5 impl=${BENCH_DELAY_PROXY:-c}
while [ $# -gt 0 ]; do
    case "$1" in
        --rtt) rtt=$2; shift 2 ;;
        --pages) pages=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --python) impl=python; shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "proxy-check: unknown option $1" >&2; exit 2 ;;
    esac
done
log() { echo "proxy-check: $*" >&2; }
work=$(mktemp -d /tmp/mtls-mirror-proxycheck.XXXXXX)
source Benchmarks/origin-lib.sh
origin_proxy_impl=$impl
trap 'origin_cleanup; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

python3 scripts/gen-site.py "$work/www" --pages "$pages" >/dev/null
head -c 8388608 /dev/urandom >"$work/www/big.pdf"
origin_start_loopback || { log "nginx did not start"; exit 1; }
half=$(python3 -c "print($rtt / 2)")
origin_start_proxy "127.0.0.1:$port" "$half" || { log "proxy did not start"; exit 1; }
delayed=$origin_proxy_port
origin_start_proxy "127.0.0.1:$port" 0 || { log "proxy did not start"; exit 1; }
zero=$origin_proxy_port
proxy_zero_pid=${origin_proxy_pids[1]}

median() { python3 -c 'import statistics,sys; print("%.4f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

# timing PORT CURL-ARGS...: medians of connect, appconnect, total over $reps fresh connections.
timing() {
    local p=$1 c=() a=() t=() line
    shift
    for _ in $(seq "$reps"); do
        line=$(curl -s -o /dev/null --max-time 30 "${tls[@]}" "$@" -w '%{time_connect} %{time_appconnect} %{time_total}' \
            "https://127.0.0.1:$p/docs/")
        read -r ci ai ti <<<"$line"
        c+=("$ci") a+=("$ai") t+=("$ti")
    done
    echo "$(median "${c[@]}") $(median "${a[@]}") $(median "${t[@]}")"
}
direct_total=0
row() { # label port expected-rtts curl-args...
    local label=$1 p=$2 expect=$3
    shift 3
    read -r c a t < <(timing "$p" "$@")
    [ "$p" = "$port" ] && direct_total=$t
    python3 -c '
import sys
label, c, a, t, rtt, base, expect = sys.argv[1], *map(float, sys.argv[2:7]), sys.argv[7]
r = rtt / 1000
print("| %s | %.1f | %.1f | %.1f | %s |" % (label, c * 1000, a * 1000, t * 1000,
      "%.2f (expected %s)" % ((t - base) / r, expect) if r and expect != "–" else "–"))' \
        "$label" "$c" "$a" "$t" "$rtt" "$direct_total" "$expect"
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "### $origin_proxy_name checks (modelled round trip ${rtt} ms)"
echo
echo "Machine: $cpu, $(nproc) CPUs, $(uname -sr). Medians of $reps runs; one request for /docs/ on a new"
echo "connection. The proxy accepts at once and charges the TCP handshake to the first client bytes, so"
echo "*connect* stays ~0 and *TLS done* carries that round trip; the last column subtracts the direct total."
echo
echo "| path | connect ms | TLS done ms | total ms | (total − direct) ÷ RTT |"
echo "|---|---:|---:|---:|---:|"
row "direct, TLS 1.3, HTTP/2" "$port" "–"
row "proxy 0 ms, TLS 1.3, HTTP/2" "$zero" "–"
row "proxy ${half}+${half} ms, TLS 1.3, HTTP/2" "$delayed" "3: TCP, TLS, request"
row "proxy ${half}+${half} ms, TLS 1.2, HTTP/1.1" "$delayed" "4: TCP, 2 TLS, request" --tlsv1.2 --tls-max 1.2 --http1.1
echo
# Two requests on one connection: the second costs one round trip.
second=$(curl -s --max-time 30 "${tls[@]}" -o /dev/null -o /dev/null -w '%{time_total}\n' \
    "https://127.0.0.1:$delayed/docs/" "https://127.0.0.1:$delayed/about" | tail -n 1)
# An 8 MiB body: three round trips plus the transfer, not a delay per chunk.
big_direct=$(curl -s --max-time 60 "${tls[@]}" -o /dev/null -w '%{time_total}' "https://127.0.0.1:$port/big.pdf")
big_delayed=$(curl -s --max-time 60 "${tls[@]}" -o /dev/null -w '%{time_total}' "https://127.0.0.1:$delayed/big.pdf")
python3 -c '
import sys
second, direct, delayed, rtt = map(float, sys.argv[1:5])
print("- A second request on the same connection: %.1f ms (%.2f RTT; expected 1)." % (second * 1000, second * 1000 / rtt))
print("- An 8 MiB body: %.1f ms direct, %.1f ms through the delay proxy (%.2f RTT more; expected 3 for a fresh"
      " connection, the delay does not add up per chunk)." % (direct * 1000, delayed * 1000, (delayed - direct) * 1000 / rtt))
' "$second" "$big_direct" "$big_delayed" "$rtt"

# Overhead: every URL of the site, 32 transfers at a time, direct and through the 0 ms proxy.
python3 - "$work/www/_expected.json" "$work/urls" <<'PY'
import json, sys
paths = json.load(open(sys.argv[1]))["paths"]
with open(sys.argv[2], "w") as out:
    out.write("\n".join(paths) + "\n")
PY
nurls=$(wc -l <"$work/urls")
config() { # port -> curl config listing every URL
    sed "s|^\(.*\)$|url = \"https://127.0.0.1:$1\1\"\noutput = \"/dev/null\"|" "$work/urls" >"$work/curl-$1.cfg"
    echo "$work/curl-$1.cfg"
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
pass() { # port curl-args... -> wall seconds
    local p=$1 cfg start end
    shift
    cfg=$(config "$p")
    start=$(date +%s.%N)
    curl -s --no-progress-meter --max-time 300 --parallel --parallel-max 32 "${tls[@]}" "$@" -K "$cfg" \
        2>>"$work/logs/curl.err" || log "curl exit $? on port $p"
    end=$(date +%s.%N)
    python3 -c "print('%.4f' % ($end - $start))"
}
echo
echo "Proxy overhead: all $nurls URLs of a $pages-page site, \`curl --parallel --parallel-max 32\`, median of $reps."
echo
echo "| transport | direct s | through proxy (0 ms) s | overhead | proxy CPU s per pass |"
echo "|---|---:|---:|---:|---:|"
for mode in "HTTP/1.1 (32 connections)|--http1.1" "HTTP/2 (multiplexed)|--http2"; do
    label=${mode%%|*} flag=${mode#*|}
    d=() z=()
    ticks0=$(cpu_ticks "$proxy_zero_pid")
    for _ in $(seq "$reps"); do
        d+=("$(pass "$port" "$flag")")
        z+=("$(pass "$zero" "$flag")")
    done
    ticks1=$(cpu_ticks "$proxy_zero_pid")
    python3 -c '
import statistics, sys, os
label, reps, ticks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
n = len(sys.argv[4:]) // 2
d = statistics.median(map(float, sys.argv[4:4 + n])); z = statistics.median(map(float, sys.argv[4 + n:]))
hz = os.sysconf("SC_CLK_TCK")
print("| %s | %.3f | %.3f | %+.1f %% | %.2f |" % (label, d, z, (z / d - 1) * 100, ticks / hz / reps))
' "$label" "$reps" "$((ticks1 - ticks0))" "${d[@]}" "${z[@]}"
done
