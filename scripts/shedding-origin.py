#!/usr/bin/env python3
"""An mTLS origin that sheds load, for mtls-mirror's politeness tests (python3 standard library only).

Usage: scripts/shedding-origin.py --pki DIR --root SITE-DIR --log FILE [--every N] [--retry-after S] [--port 0]

Serves the files under SITE-DIR over HTTPS with DIR/server-chain.pem and DIR/server.key, and
REQUIRES a client certificate issued under DIR/client-root.pem. HTTP/1.1 with keep-alive, one
thread per connection. Every N-th request (counted over all connections, N = --every, default 4)
is answered "429 Too Many Requests" with "Retry-After: S" (default 1) instead of the file.
Every request is appended to FILE as one JSON line: {"time", "path", "status", "client"}.
When it listens it prints its port on the first line of standard output.
"""

import argparse
import http.server
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse

TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css", ".png": "image/png", ".js": "application/javascript",
         ".txt": "text/plain", ".xml": "application/xml", ".svg": "image/svg+xml"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pki", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--retry-after", default="1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    lock = threading.Lock()
    state = {"count": 0}
    log = open(args.log, "a", buffering=1)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def record(self, status):
            cert = self.connection.getpeercert() or {}
            subject = ",".join("=".join(pair) for rdn in cert.get("subject", ()) for pair in rdn)
            with lock:
                log.write(json.dumps({"time": time.time(), "path": self.path, "status": status, "client": subject}) + "\n")

        def send(self, status, body, content_type="text/plain", extra=()):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in extra:
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            self.record(status)

        def do_GET(self):
            with lock:
                state["count"] += 1
                shed = args.every > 0 and state["count"] % args.every == 0
            if shed:
                return self.send(429, b"slow down\n", extra=[("Retry-After", args.retry_after)])
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
            if path.endswith("/"):
                path += "index.html"
            full = os.path.realpath(os.path.join(args.root, path.lstrip("/")))
            if not full.startswith(os.path.realpath(args.root) + os.sep) or not os.path.isfile(full):
                return self.send(404, b"not found\n")
            with open(full, "rb") as handle:
                body = handle.read()
            self.send(200, body, TYPES.get(os.path.splitext(full)[1], "application/octet-stream"))

        do_HEAD = do_GET

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(args.pki, "server-chain.pem"), os.path.join(args.pki, "server.key"))
    context.load_verify_locations(os.path.join(args.pki, "client-root.pem"))
    context.verify_mode = ssl.CERT_REQUIRED
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
