#!/usr/bin/env python3
"""A hostile mTLS origin for mtls-mirror's hardening tests (python3 standard library only).

Usage: scripts/hostile-origin.py --pki DIR [--port 0] [--host 127.0.0.1] [--log FILE]

Serves HTTPS with DIR/server-chain.pem and DIR/server.key and REQUIRES a client certificate
issued under DIR/client-root.pem (ssl.CERT_REQUIRED). HTTP/1.1 with keep-alive. When it
listens it prints its port on the first line of standard output. With --log FILE every request
is appended to FILE as one JSON line: {"target", "path", "client", "status"}.

The site: "/" links a small normal site (/normal/..., pages with CSS and images, which a
mirror must copy completely) and every hostile case below, each at its own path:

  crawl traps       /calendar/2026/11 (links the next month for ever), /s?sid=... (links sid+"x")
  redirects         /loop/a <-> /loop/b, /chain/0 .. /chain/50, /redirect/other-host,
                    /redirect/other-ip, /redirect/downgrade (http:), /redirect/file (file:///etc/passwd)
  unsafe names      /unsafe/ (traversal links in every encoding; every target is a file named
                    evil*), /download (Content-Disposition: attachment; filename="../../evil.txt"),
                    /long/<8000 bytes>, /longsegs/<30 segments of 250 bytes>, /Case.html + /case.html,
                    Windows-reserved names (/con, /aux.txt, /a:b, /a*b, /q?x, /a"b, /a<b, /a>b, /a|b),
                    /deep/<200 levels>/end.html
  hostile responses /huge.bin (Content-Length 1 GiB, streamed until the client leaves),
                    /short.html (shorter than its Content-Length), /stall.html (headers, then nothing),
                    /bomb.html (gzip expanding to 1 GiB), /wrongtype/html-as-png, /wrongtype/png-as-html,
                    /charset.html (charset=utf-16 on UTF-8 bytes), /error500, /error503 (503 with
                    Retry-After: 1 once, then 200), /trickle/headers (one header line every 2 s,
                    for ever), /trickle/body (Content-Length 1 MB, one byte a second)
  malformed         /malformed/unclosed.html, /malformed/nested.html (100,000 nested elements),
                    /malformed/invalid-utf8.html, /malformed/nul.html, /malformed/longline.html
                    (50 MB on one line, chunked), /malformed/imports.html (a.css <-> b.css @import)
"""

import argparse
import asyncio
import json
import logging
import os
import signal
import ssl
import struct
import sys
import urllib.parse
import zlib

GIB = 1 << 30
CHUNK = 64 * 1024


def png_bytes():
    """A valid 1x1 PNG."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00\xff")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def gzip_bomb():
    """A gzip stream of 1 GiB of zeros, compressed in 1 MiB chunks (about 1 MB: deflate's ratio tops out near 1000)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    parts = [compressor.compress(zeros) for _ in range(GIB >> 20)]
    parts.append(compressor.flush())
    return b"".join(parts)


PNG = png_bytes()

NORMAL_PAGES = {
    "/normal/": """<!doctype html><html><head><title>Normal</title>
<link rel="stylesheet" href="style.css"></head><body>
<h1>Normal section</h1><img src="img/logo.png" alt="logo">
<p><a href="a.html">A</a> <a href="b.html">B</a> <a href="sub/c.html">C</a></p>
<script src="app.js"></script></body></html>""",
    "/normal/a.html": """<!doctype html><html><head><link rel="stylesheet" href="style.css"></head>
<body><h1>A</h1><img src="img/logo.png" srcset="img/logo.png 1x, img/logo-2x.png 2x">
<a href="b.html">B</a> <a href="./">index</a></body></html>""",
    "/normal/b.html": """<!doctype html><html><head><link rel="stylesheet" href="/normal/style.css"></head>
<body style="background: url('img/bg.png')"><h1>B</h1><a href="a.html#top">A</a></body></html>""",
    "/normal/sub/c.html": """<!doctype html><html><head><link rel="stylesheet" href="../style.css"></head>
<body><h1>C</h1><img src="../img/bg.png"><a href="../a.html">A</a></body></html>""",
}
NORMAL_FILES = {
    "/normal/style.css": ("text/css", b"body { background: url(img/bg.png) no-repeat; }\nh1 { color: #333 }\n"),
    "/normal/app.js": ("text/javascript", b"document.title += ' (js)';\n"),
    "/normal/img/logo.png": ("image/png", PNG),
    "/normal/img/logo-2x.png": ("image/png", PNG + b"2x"),
    "/normal/img/bg.png": ("image/png", PNG + b"bg"),
}

LONG_PATH = "/long/" + "a" * 8000 + ".html"
LONG_SEGMENTS = "/longsegs/" + "/".join("b" * 250 for _ in range(30)) + "/end.html"
DEEP_PATH = "/deep/" + "level/" * 200 + "end.html"
RESERVED = ["/con", "/aux.txt", "/a:b", "/a*b", "/q?x", '/a"b', "/a<b", "/a>b", "/a|b", "/nul.html", "/com1"]
TRAVERSAL = [
    "../../../../evil-dots.txt",
    "%2e%2e/%2e%2e/%2e%2e/evil-pct.txt",
    "%2e%2e%2f%2e%2e%2fevil-pct-slash.txt",
    "%252e%252e%252fevil-double.txt",
    "..%5c..%5c..%5cevil-backslash-pct.txt",
    "..\\..\\..\\evil-backslash.txt",
    "..%2f..%2f..%2fevil-slash-pct.txt",
    "evil-nul.txt%00.html",
    "%00evil-nul-start.txt",
    "%c0%ae%c0%ae/%c0%ae%c0%ae/evil-overlong.txt",
    "/unsafe/..%252f..%252fevil-double-slash.txt",
    ".%2e/.%2e/evil-mixed.txt",
]

HOSTILE_LINKS = [
    "/calendar/2026/11", "/s?sid=a1",
    "/loop/a", "/chain/0", "/redirect/other-host", "/redirect/other-ip", "/redirect/downgrade", "/redirect/file",
    "/unsafe/", "/download", LONG_PATH, LONG_SEGMENTS, "/Case.html", "/case.html", DEEP_PATH,
    "/huge.bin", "/short.html", "/stall.html", "/bomb.html", "/wrongtype/html-as-png", "/wrongtype/png-as-html",
    "/charset.html", "/error500", "/error503", "/trickle/headers", "/trickle/body",
    "/malformed/unclosed.html", "/malformed/nested.html", "/malformed/invalid-utf8.html", "/malformed/nul.html",
    "/malformed/longline.html", "/malformed/imports.html",
]


def attr(value):
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def index_page():
    links = ['<a href="/normal/">normal</a>']
    links += ['<a href="%s">%s</a>' % (attr(link), attr(link[:60])) for link in HOSTILE_LINKS]
    links += ['<a href="%s">reserved</a>' % urllib.parse.quote(name, safe="/:*") for name in RESERVED]
    return ("<!doctype html><html><head><title>Hostile origin</title><link rel=\"stylesheet\" href=\"/normal/style.css\">"
            "</head><body><h1>Hostile origin</h1><ul>\n" + "\n".join("<li>%s</li>" % link for link in links)
            + "\n</ul></body></html>").encode()


def unsafe_page():
    parts = []
    for target in TRAVERSAL:
        parts.append('<a href="%s">a</a> <img src="%s">' % (attr(target), attr(target)))
    return ("<!doctype html><html><body><h1>Traversal</h1>\n" + "\n".join(parts) + "\n</body></html>").encode()


def month_page(year, month):
    nxt_year, nxt_month = (year + 1, 1) if month == 12 else (year, month + 1)
    return ('<!doctype html><html><body><h1>%d-%02d</h1><a href="/calendar/%d/%d">next</a></body></html>'
            % (year, month, nxt_year, nxt_month)).encode()


class Response:
    """Status, headers and a body: bytes, or an async generator of chunks (then `length` or chunked)."""

    def __init__(self, status, body=b"", content_type="text/html; charset=utf-8", headers=None):
        self.status = status
        self.body = body
        self.headers = [("Content-Type", content_type)] if content_type else []
        self.headers += headers or []
        self.length = len(body) if isinstance(body, bytes) else None
        self.chunked = False
        self.mode = None  # None, "stream", "stall", "short"


REASONS = {200: "OK", 302: "Found", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"}


class Origin:
    def __init__(self, port_holder, log):
        self.port_holder = port_holder
        self.log = log
        self.bomb = gzip_bomb()
        self.seen_503 = False

    def route(self, target):
        path, _, query = target.partition("?")
        decoded = urllib.parse.unquote(urllib.parse.unquote(path))
        port = self.port_holder[0]
        if path in ("/", "/index.html"):
            return Response(200, index_page())
        if path == "/robots.txt":
            return Response(200, b"User-agent: *\nAllow: /\n", "text/plain")
        if path in NORMAL_PAGES:
            return Response(200, NORMAL_PAGES[path].encode())
        if path in NORMAL_FILES:
            kind, body = NORMAL_FILES[path]
            return Response(200, body, kind)
        # Crawl traps.
        if path.startswith("/calendar/"):
            parts = path.split("/")
            try:
                return Response(200, month_page(int(parts[2]), int(parts[3])))
            except (IndexError, ValueError):
                return Response(404, b"no such month")
        if path == "/s":
            sid = urllib.parse.parse_qs(query).get("sid", ["a"])[0]
            return Response(200, ('<!doctype html><html><body><a href="/s?sid=%sx">more</a></body></html>' % attr(sid)).encode())
        # Redirects.
        redirects = {
            "/loop/a": "/loop/b", "/loop/b": "/loop/a",
            "/redirect/other-host": "https://other.invalid/stolen",
            "/redirect/other-ip": "https://127.0.0.2:%d/normal/a.html" % port,
            "/redirect/downgrade": "http://127.0.0.1:%d/normal/a.html" % port,
            "/redirect/file": "file:///etc/passwd",
        }
        if path in redirects:
            return Response(302, b"", None, [("Location", redirects[path])])
        if path.startswith("/chain/"):
            try:
                hop = int(path[len("/chain/"):])
            except ValueError:
                return Response(404, b"")
            if hop < 50:
                return Response(302, b"", None, [("Location", "/chain/%d" % (hop + 1))])
            return Response(200, b"<p>end of the chain</p>")
        # Unsafe names.
        if path == "/unsafe/":
            return Response(200, unsafe_page())
        if "evil" in decoded.lower():
            return Response(200, ("evil file for %s\n" % target).encode(), "text/plain")
        if path == "/download":
            return Response(200, b"evil by content-disposition\n", "text/plain",
                            [("Content-Disposition", 'attachment; filename="../../evil.txt"')])
        if path.startswith("/long/") or path.startswith("/longsegs/") or path.startswith("/deep/"):
            return Response(200, ("<p>long path of %d bytes</p>" % len(path)).encode())
        if path == "/Case.html":
            return Response(200, b"<p>upper-case Case</p>")
        if path == "/case.html":
            return Response(200, b"<p>lower-case case</p>")
        if decoded in RESERVED:
            return Response(200, ("<p>reserved name %s</p>" % attr(decoded)).encode())
        # Hostile responses.
        if path == "/huge.bin":
            response = Response(200, None, "application/octet-stream")
            response.length = GIB
            response.mode = "stream"
            return response
        if path == "/short.html":
            response = Response(200, b"<p>" + b"x" * 100)
            response.length = 10000
            response.mode = "short"
            return response
        if path == "/stall.html":
            response = Response(200, None)
            response.length = 5000
            response.mode = "stall"
            return response
        if path == "/bomb.html":
            return Response(200, self.bomb, "text/html", [("Content-Encoding", "gzip")])
        if path == "/wrongtype/html-as-png":
            return Response(200, b'<!doctype html><html><body><a href="/normal/a.html">html as png</a></body></html>', "image/png")
        if path == "/wrongtype/png-as-html":
            return Response(200, PNG, "text/html")
        if path == "/charset.html":
            return Response(200, "<!doctype html><html><body><p>caf\u00e9 \u2014 na\u00efve</p><a href=\"/normal/b.html\">b</a></body></html>".encode(),
                            "text/html; charset=utf-16")
        if path == "/trickle/headers":
            response = Response(200, None)
            response.mode = "trickle-headers"
            return response
        if path == "/trickle/body":
            response = Response(200, None, "application/octet-stream")
            response.length = 1000 * 1000
            response.mode = "trickle-body"
            return response
        if path == "/error500":
            return Response(500, b"<p>internal error</p>")
        if path == "/error503":
            if not self.seen_503:
                self.seen_503 = True
                return Response(503, b"<p>busy</p>", headers=[("Retry-After", "1")])
            return Response(200, b"<p>recovered after 503</p>")
        # Malformed documents.
        if path == "/malformed/unclosed.html":
            return Response(200, b'<html><head><title>unclosed<body><div><p><a href="/normal/a.html">a<table><tr><td><b><i><img src="/normal/img/logo.png"')
        if path == "/malformed/nested.html":
            return Response(200, b"<!doctype html><html><body>" + b"<div>" * 100000 + b'<a href="/normal/b.html">deep</a>' + b"</div>" * 100000 + b"</body></html>")
        if path == "/malformed/invalid-utf8.html":
            return Response(200, b'<!doctype html><html><body><p>\xff\xfe\xc3\x28 \xed\xa0\x80 \xf8\x88\x80\x80\x80</p><a href="/normal/a.html?\xff">x</a></body></html>')
        if path == "/malformed/nul.html":
            return Response(200, b'<!doctype html><html><body>\x00<p>nul\x00bytes</p><a href="/normal/\x00a.html">x</a><img src="/normal/img/logo.png\x00"></body></html>')
        if path == "/malformed/longline.html":
            response = Response(200, None)
            response.chunked = True
            response.mode = "stream"
            response.length = 50 * 1000 * 1000
            return response
        if path == "/malformed/imports.html":
            return Response(200, b'<!doctype html><html><head><link rel="stylesheet" href="/css/a.css"></head><body>imports</body></html>')
        if path == "/css/a.css":
            return Response(200, b'@import "b.css";\n@import url(a.css);\nbody { color: red }\n', "text/css")
        if path == "/css/b.css":
            return Response(200, b'@import url("/css/a.css");\np { color: blue }\n', "text/css")
        return Response(404, b"<p>not found</p>")

    async def handle(self, reader, writer):
        certificate = writer.get_extra_info("peercert") or {}
        client = ""
        for rdn in certificate.get("subject", ()):
            for key, value in rdn:
                if key == "commonName":
                    client = value
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, target, _version = (lines[0].split(" ") + ["", ""])[:3]
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name:
                        headers[name.strip().lower()] = value.strip()
                response = self.route(target)
                self.record(target, client, response.status)
                keep = await self.send(writer, reader, method, response)
                if not keep or headers.get("connection", "").lower() == "close":
                    break
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ssl.SSLError, OSError):
            pass
        finally:
            try:
                writer.close()
            except Exception:  # noqa: BLE001 - closing a broken TLS stream may raise anything
                pass

    def record(self, target, client, status):
        if self.log is None:
            return
        path = target.partition("?")[0]
        self.log.write(json.dumps({"target": target[:300], "path": path[:300], "client": client, "status": status}) + "\n")
        self.log.flush()

    @staticmethod
    def gone(writer, reader):
        """Whether the client closed the connection (the TLS transport keeps accepting writes after that)."""
        return writer.transport.is_closing() or reader.at_eof() or reader.exception() is not None

    async def send(self, writer, reader, method, response):
        """Writes the response; returns whether the connection may be kept open."""
        if response.mode == "trickle-headers":
            # A status line, then one header line every 2 s: each line resets a plain idle timer.
            writer.write(b"HTTP/1.1 200 OK\r\n")
            count = 0
            while not self.gone(writer, reader):
                count += 1
                writer.write(b"X-Trickle-%d: %s\r\n" % (count, b"x" * 20))
                await writer.drain()
                await asyncio.sleep(2)
            return False
        head = ["HTTP/1.1 %d %s" % (response.status, REASONS.get(response.status, "Status"))]
        head += ["%s: %s" % pair for pair in response.headers]
        if response.chunked:
            head.append("Transfer-Encoding: chunked")
        else:
            head.append("Content-Length: %d" % response.length)
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
        if method == "HEAD":
            await writer.drain()
            return True
        if response.mode is None:
            writer.write(response.body)
            await writer.drain()
            return True
        if response.mode == "short":
            writer.write(response.body)
            await writer.drain()
            return False
        if response.mode == "trickle-body":
            sent = 0
            while sent < response.length and not self.gone(writer, reader):
                writer.write(b"x")
                sent += 1
                await writer.drain()
                await asyncio.sleep(1)
            return False
        if response.mode == "stall":
            await writer.drain()
            while await reader.read(4096):
                pass  # wait for the client to give up
            return False
        if response.chunked:  # 50 MB of markup on one line
            piece = b"<span>" + b"x" * 4000 + b"</span>"
            sent = 0
            prefix = b"<!doctype html><html><body>"
            writer.write(b"%x\r\n%s\r\n" % (len(prefix), prefix))
            while sent < response.length and not self.gone(writer, reader):
                data = piece * 16
                writer.write(b"%x\r\n%s\r\n" % (len(data), data))
                sent += len(data)
                await writer.drain()
                await asyncio.sleep(0)  # as below: let the other connections be served
            if self.gone(writer, reader):
                return False
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            return True
        zeros = bytes(CHUNK)
        sent = 0
        while sent < response.length and not self.gone(writer, reader):
            writer.write(zeros)
            sent += CHUNK
            await writer.drain()
            # drain() returns without yielding while the socket takes the data, and loopback's
            # buffers take megabytes: without this, one stream held the loop, and the other
            # connections' responses (the short and stalled ones) waited past the client's
            # idle timeout on a loaded machine.
            await asyncio.sleep(0)
        return not self.gone(writer, reader)


async def main():
    parser = argparse.ArgumentParser(description="A hostile mTLS origin for mtls-mirror's tests.")
    parser.add_argument("--pki", required=True, help="the directory made by scripts/gen-test-pki.sh")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--log", help="append one JSON line per request to this file")
    args = parser.parse_args()
    # After a client leaves, the TLS transport logs every further write; the send loops stop soon after.
    logging.getLogger("asyncio").setLevel(logging.ERROR)

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(args.pki, "server-chain.pem"), os.path.join(args.pki, "server.key"))
    context.load_verify_locations(os.path.join(args.pki, "client-root.pem"))
    context.verify_mode = ssl.CERT_REQUIRED
    context.set_alpn_protocols(["http/1.1"])

    log = open(args.log, "a", encoding="utf-8") if args.log else None
    port_holder = [args.port]
    origin = Origin(port_holder, log)
    server = await asyncio.start_server(origin.handle, args.host, args.port, ssl=context, limit=64 * 1024,
                                        ssl_handshake_timeout=10)
    port_holder[0] = server.sockets[0].getsockname()[1]
    print(port_holder[0], flush=True)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()
    if log:
        log.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
