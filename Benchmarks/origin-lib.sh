# Shared by the benchmark scripts (source it): a throwaway mTLS origin (nginx with
# ssl_verify_client on) serving a gen-site.py site, optional delay proxies in front of it, and
# one cleanup that stops everything they started. Needs `work` (a temporary folder) and `log`.
#
#   origin_free_port                      prints a free loopback TCP port
#   origin_write_nginx_conf HOST PORT CHAIN KEY PKI ROOT
#                                         writes $work/nginx.conf (access log $work/logs/access.log
#                                         with format `bench`: status, body bytes, request); HTTP/2
#                                         unless origin_http2 is set empty (HTTP/1.1 only)
#   origin_start_nginx [PREFIX-COMMAND...]  starts nginx in the foreground as a child; sets nginx_pid
#   origin_wait_ready URL CURL-TLS-ARGS...  waits until URL answers 200 (returns 1 after ~10 s)
#   origin_start_loopback [READY-PATH]    a fresh PKI in $work/pki and nginx on a free loopback port
#                                         serving $work/www; sets pki, port and tls (curl's TLS
#                                         arguments) and waits until /READY-PATH answers 200 (returns
#                                         1 if it never does)
#   origin_start_proxy TARGET ONE-WAY-MS  starts a delay proxy on a free port and sets
#                                         origin_proxy_port (not in a subshell: the pid is
#                                         remembered for cleanup): Benchmarks/delay-proxy.c, compiled
#                                         once per work folder to $work/delay-proxy, or
#                                         Benchmarks/delay-proxy.py without a C compiler or with
#                                         BENCH_DELAY_PROXY=python; sets origin_proxy_name to say which
#   origin_log_offset                     the access log's current size (to split it by run)
#   origin_log_summary FROM [TO]          "requests body-bytes 2xx 304 other" between two offsets
#   origin_cleanup                        stops the proxies and nginx (call from an EXIT trap)

origin_nginx_pid="" origin_proxy_pids=() origin_proxy_port="" origin_http2=${origin_http2-http2}
origin_proxy_impl=${BENCH_DELAY_PROXY:-c} origin_proxy_cmd=() origin_proxy_name=""
origin_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The real interpreter, not a version-manager shim, so that $! is the proxy's own pid.
origin_python=$(python3 -c 'import sys; print(sys.executable)')

origin_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

origin_write_nginx_conf() {
    local host=$1 port=$2 chain=$3 key=$4 pki=$5 root=$6 user_line=""
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
    log_format bench '\$status \$body_bytes_sent "\$request"';
    access_log $work/logs/access.log bench;
    sendfile on;
    keepalive_requests 100000;
    absolute_redirect off;
    client_body_temp_path $work/tmp-body; proxy_temp_path $work/tmp-proxy;
    fastcgi_temp_path $work/tmp-fcgi; uwsgi_temp_path $work/tmp-uwsgi; scgi_temp_path $work/tmp-scgi;
    server {
        listen $host:$port ssl${origin_http2:+ $origin_http2};
        server_name localhost;
        ssl_certificate $chain;
        ssl_certificate_key $key;
        ssl_client_certificate $pki/client-root.pem;
        ssl_verify_client on;
        ssl_verify_depth 2;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:bench:10m;
        root $root;
        include $root/_nginx-types.conf;
    }
}
CONF
}

origin_start_nginx() {
    "$@" nginx -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log" \
        >>"$work/logs/nginx.out" 2>&1 </dev/null &
    origin_nginx_pid=$!
}

origin_wait_ready() {
    local url=$1
    shift
    for _ in $(seq 100); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$@" "$url" || true)" = 200 ] && return 0
        sleep 0.1
    done
    return 1
}

origin_start_loopback() {
    bash "$origin_lib_dir/../scripts/gen-test-pki.sh" "$work/pki" >/dev/null
    pki=$work/pki
    port=$(origin_free_port)
    origin_write_nginx_conf 127.0.0.1 "$port" "$pki/server-chain.pem" "$pki/server.key" "$pki" "$work/www"
    origin_start_nginx
    tls=(--cacert "$pki/server-root.pem" --cert "$pki/client-chain.pem" --key "$pki/client.key")
    origin_wait_ready "https://127.0.0.1:$port/${1-}" "${tls[@]}"
}

# origin_proxy_command: sets origin_proxy_cmd and origin_proxy_name once per work folder: the C
# proxy (compiled to $work/delay-proxy), or the Python one when that is asked for or cannot be built.
origin_proxy_command() {
    [ "${#origin_proxy_cmd[@]}" -gt 0 ] && return 0
    mkdir -p "$work/logs"
    if [ "$origin_proxy_impl" != python ]; then
        if [ -x "$work/delay-proxy" ] || { command -v cc >/dev/null &&
            cc -O2 -o "$work/delay-proxy" "$origin_lib_dir/delay-proxy.c" 2>"$work/logs/delay-proxy-cc.log"; }; then
            origin_proxy_cmd=("$work/delay-proxy") origin_proxy_name="Benchmarks/delay-proxy.c"
            return 0
        fi
        if command -v cc >/dev/null; then
            log "Benchmarks/delay-proxy.c did not compile (see $work/logs/delay-proxy-cc.log): using delay-proxy.py"
        else
            log "no C compiler (cc) for Benchmarks/delay-proxy.c: using delay-proxy.py"
        fi
    fi
    origin_proxy_cmd=("$origin_python" "$origin_lib_dir/delay-proxy.py") origin_proxy_name="Benchmarks/delay-proxy.py"
}

origin_start_proxy() {
    local target=$1 one_way=$2 port pid
    origin_proxy_command
    for _ in 1 2 3; do
        port=$(origin_free_port)
        "${origin_proxy_cmd[@]}" "$port" "$target" --delay-ms "$one_way" \
            >"$work/logs/proxy-$port.out" 2>"$work/logs/proxy-$port.err" </dev/null &
        pid=$!
        for _ in $(seq 50); do
            grep -q listening "$work/logs/proxy-$port.out" 2>/dev/null && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if grep -q listening "$work/logs/proxy-$port.out" 2>/dev/null; then
            origin_proxy_pids+=("$pid")
            origin_proxy_port=$port
            return 0
        fi
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    return 1
}

origin_log_offset() {
    stat -c %s "$work/logs/access.log" 2>/dev/null || echo 0
}

origin_log_summary() {
    local from=$1 to=${2:-}
    [ -n "$to" ] || to=$(origin_log_offset)
    python3 - "$work/logs/access.log" "$from" "$to" <<'PY'
import sys
path, start, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
requests = body = ok = not_modified = other = 0
with open(path, "rb") as log:
    log.seek(start)
    for line in log.read(end - start).splitlines():
        parts = line.split(b" ", 2)
        if len(parts) < 2 or not parts[1].isdigit():
            continue
        requests += 1
        body += int(parts[1])
        status = parts[0]
        if status.startswith(b"2"):
            ok += 1
        elif status == b"304":
            not_modified += 1
        else:
            other += 1
print(requests, body, ok, not_modified, other)
PY
}

# kill_wait PID: SIGTERM, up to 5 s, then SIGKILL.
origin_kill_wait() {
    local pid=$1
    set +e
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return 0
}

origin_cleanup() {
    set +e  # runs from an EXIT trap: every step must run even if one fails
    local pid
    for pid in "${origin_proxy_pids[@]}"; do origin_kill_wait "$pid"; done
    origin_proxy_pids=()
    [ -n "$origin_nginx_pid" ] && origin_kill_wait "$origin_nginx_pid"
    origin_nginx_pid=""
}
