#!/usr/bin/env bash
# The README's first command: builds mtls-mirror, starts a throwaway origin that requires a
# client certificate (nginx with ssl_verify_client on, on a free loopback port, with a fresh
# PKI), and shows `mtls-mirror inspect` and `mtls-mirror fetch` against it. Idempotent: it
# installs only what is missing, and removes everything it started when it ends.
#
# Usage: scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release >/dev/null
bin=$(swift build -c release --show-bin-path)/mtls-mirror

work=$(mktemp -d /tmp/mtls-mirror-demo.XXXXXX)
nginx_pid=""
cleanup() {
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

bash scripts/gen-test-pki.sh "$work/pki" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/www" "$work/logs"
cat >"$work/www/index.html" <<HTML
<!doctype html><html><head><meta charset="utf-8"><title>Demo intranet</title></head>
<body><h1>Hello from a site that requires a client certificate</h1></body></html>
HTML
user_line=""
[ "$(id -u)" -eq 0 ] && user_line="user root;"
cat >"$work/nginx.conf" <<CONF
$user_line
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 64; }
http {
    access_log $work/logs/access.log;
    client_body_temp_path $work/tmp-body; proxy_temp_path $work/tmp-proxy;
    fastcgi_temp_path $work/tmp-fcgi; uwsgi_temp_path $work/tmp-uwsgi; scgi_temp_path $work/tmp-scgi;
    server {
        listen 127.0.0.1:$port ssl http2;
        server_name localhost;
        ssl_certificate $work/pki/server-chain.pem;
        ssl_certificate_key $work/pki/server.key;
        ssl_client_certificate $work/pki/client-root.pem;
        ssl_verify_client on;
        ssl_verify_depth 2;
        ssl_protocols TLSv1.2 TLSv1.3;
        root $work/www;
    }
}
CONF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log" &
nginx_pid=$!
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done

url="https://localhost:$port/"
export DEMO_P12_PASSWORD
DEMO_P12_PASSWORD=$(cat "$work/pki/password.txt")
echo "== Origin $url requires a client certificate (nginx ssl_verify_client on)."
echo
echo "== mtls-mirror inspect $url --cacert server-root.pem --cert client.p12 --pass-env DEMO_P12_PASSWORD"
"$bin" inspect "$url" --cacert "$work/pki/server-root.pem" --cert "$work/pki/client.p12" --pass-env DEMO_P12_PASSWORD
echo
echo "== Without a client certificate, the server refuses (exit code 5):"
set +e
"$bin" fetch "$url" --cacert "$work/pki/server-root.pem"
echo "exit code $?"
set -e
echo
echo "== mtls-mirror fetch $url --cacert server-root.pem --cert client.p12 --pass-env DEMO_P12_PASSWORD"
"$bin" fetch "$url" --cacert "$work/pki/server-root.pem" --cert "$work/pki/client.p12" --pass-env DEMO_P12_PASSWORD
