#!/usr/bin/env python3
"""Writes a deterministic static site for mtls-mirror's fixtures and benchmarks (stdlib only).

Usage: python3 scripts/gen-site.py OUTDIR --pages N [--seed S] [--cdn-host HOST:PORT]

OUTDIR becomes an nginx document root holding at least N HTML pages in nested directories
(docs/sNN/tMM/pNNNNN.html), directory indexes, extensionless pages served as text/html, and the
subresources a real site has: images (tiny valid PNG, JPEG, GIF, SVG, WebP, ICO), stylesheets with
quoted and unquoted url(), a two-level @import chain, @font-face with `font.eot?#iefix`,
image-set(), fonts, scripts (one with a real `integrity` hash), media, a web app manifest. The
pages under /kitchen/ use every kind of HTML reference that mirrors must handle (see README in
Benchmarks/). With --cdn-host some requisites point at https://HOST:PORT/ and are written to
OUTDIR/_cdn/, to be served as that host's root.

Also written (not linked from any page):
  OUTDIR/_expected.json      every URL reachable from / (pages and requisites), computed by a
                             breadth-first walk over the references the generator emitted
  OUTDIR/_nginx-types.conf   the nginx `types` + `default_type` lines this site needs

The site needs this in nginx's server block (extensionless pages must be text/html; no other
MIME type may fall back to it, so every extension the site uses is listed):
    include OUTDIR/_nginx-types.conf;
The same snippet is printed on standard output.
"""
import argparse
import base64
import hashlib
import json
import os
import posixpath
import random
import struct
import sys
import urllib.parse
import zlib
from collections import deque

PAGES_PER_DIR = 25
DIRS_PER_SECTION = 8
EXTERNAL = "https://example.invalid/x"
SAFE = "/,@:!$&'()*+;=-._~"  # what stays unescaped in a generated URL path

TYPES = {
    "html": "text/html", "css": "text/css", "js": "application/javascript", "mjs": "application/javascript",
    "json": "application/json", "webmanifest": "application/manifest+json", "png": "image/png",
    "jpg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml", "webp": "image/webp",
    "ico": "image/x-icon", "woff2": "font/woff2", "woff": "font/woff", "eot": "application/vnd.ms-fontobject",
    "mp4": "video/mp4", "webm": "video/webm", "ogg": "audio/ogg", "mp3": "audio/mpeg", "vtt": "text/vtt",
    "pdf": "application/pdf", "txt": "text/plain",
}
WORDS = ("mirror certificate origin request snapshot crawler archive intranet policy client server "
         "handbook release quarterly report network storage library schedule rotation review team "
         "budget project travel onboarding security audit backup manual index page").split()


# MARK: tiny valid binary files

def png(seed):
    """A 1x1 RGB PNG whose colour depends on `seed`."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rgb = bytes(((seed * 53) & 255, (seed * 97) & 255, (seed * 193) & 255))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" + rgb)) + chunk(b"IEND", b""))


def jpeg(seed):
    """A 1x1 grey baseline JPEG (one-code Huffman tables; all coefficients zero); a COM varies it."""
    def seg(marker, data):
        return b"\xff" + bytes([marker]) + struct.pack(">H", len(data) + 2) + data
    comment = ("gen-site %d" % seed).encode()
    return (b"\xff\xd8" + seg(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00") + seg(0xFE, comment)
            + seg(0xDB, b"\x00" + b"\x01" * 64) + seg(0xC0, b"\x08\x00\x01\x00\x01\x01\x01\x11\x00")
            + seg(0xC4, b"\x00" + b"\x01" + b"\x00" * 15 + b"\x00")
            + seg(0xC4, b"\x10" + b"\x01" + b"\x00" * 15 + b"\x00")
            + seg(0xDA, b"\x01\x01\x00\x00\x3f\x00") + b"\x3f" + b"\xff\xd9")


def gif(seed):
    """A 1x1 GIF89a whose palette colour depends on `seed`."""
    colour = bytes(((seed * 31) & 255, (seed * 7) & 255, (seed * 11) & 255))
    return (b"GIF89a\x01\x00\x01\x00\x80\x00\x00" + colour + b"\x00\x00\x00"
            + b"\x2c\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02\x44\x01\x00\x3b")


WEBP = base64.b64decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")  # 1x1 lossless


def svg(seed, body=""):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">'
            '<rect width="16" height="16" fill="#%06x"/>%s</svg>\n' % ((seed * 7919) & 0xFFFFFF, body)).encode()


def ico():
    image = png(1)
    return struct.pack("<HHHBBBBHHII", 0, 1, 1, 1, 1, 0, 0, 1, 32, len(image), 22) + image


def blob(magic, seed, size=48):
    """Bytes that start like the real format (fonts, media) followed by deterministic filler."""
    return magic + bytes((seed * 131 + i * 17) & 255 for i in range(size))


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


class Site:
    """The files of the site plus every reference between them, recorded as hrefs are made."""

    def __init__(self, seed, cdn_host):
        self.rng = random.Random(seed)
        self.seed = seed
        self.cdn_host = cdn_host
        self.files = {}       # (host, path) -> bytes; host "" is the origin, "cdn" the CDN
        self.edges = {}       # (host, path) -> set of (host, path) it references
        self.queries = set()  # "path?query" strings of in-scope references
        self.external = set()

    # MARK: references

    def href(self, src, target, base=None, query=None, fragment=None, rooted=False):
        """The href for `target` as written in file `src`; records the edge.

        `target` is a decoded URL path (a trailing "/" names a directory index) or ("cdn", path).
        """
        host, path = target if isinstance(target, tuple) else ("", target)
        self.edges.setdefault(src, set()).add((host, path))
        if host == "cdn" and src[0] != "cdn":
            text = "https://%s%s" % (self.cdn_host, quote(path))
        elif rooted:
            text = quote(path)
        else:
            text = quote(relative(base or posixpath.dirname(src[1]) + "/", path))
        if query is not None:
            text += "?" + query
            if query and host == "":
                self.queries.add(quote(path) + "?" + query)
        if fragment is not None:
            text += "#" + fragment
        return text

    def add(self, path, data, host=""):
        self.files[(host, path)] = data if isinstance(data, bytes) else data.encode()

    # MARK: reachability

    def reachable(self):
        """Breadth-first walk from "/" over the recorded edges; directory URLs map to index.html."""
        seen, queue = set(), deque([("", "/")])
        while queue:
            node = queue.popleft()
            if node in seen:
                continue
            seen.add(node)
            file_node = self.file_for(node)
            if file_node not in self.files:
                raise SystemExit("gen-site: internal error: %s%s is referenced but not written" % node)
            queue.extend(self.edges.get(file_node, ()))
        return seen

    @staticmethod
    def file_for(node):
        host, path = node
        return (host, path + "index.html") if path.endswith("/") else node


def relative(from_dir, target):
    is_dir = target.endswith("/")
    start = from_dir.rstrip("/") or "/"
    rel = posixpath.relpath(target.rstrip("/") or "/", start)
    if is_dir:
        return "./" if rel == "." else rel + "/"
    return rel


def quote(path):
    return urllib.parse.quote(path, safe=SAFE)


def content_type(path):
    name = posixpath.basename(path)
    if path.endswith("/") or "." not in name:
        return "text/html"
    return TYPES[name.rsplit(".", 1)[1]]


# MARK: shared assets

def shared_assets(site):
    """Stylesheets (with the @import chain and @font-face), fonts, scripts, icons, images, media."""
    for name, data in {
        "/favicon.ico": ico(), "/img/logo.svg": svg(1), "/img/icon.svg": svg(2), "/img/touch-icon.png": png(3),
        "/img/a,b.png": png(4), "/img/logo@2x.png": png(5), "/img/photo-small.jpg": jpeg(6),
        "/img/photo-medium.jpg": jpeg(7), "/img/photo-large.webp": WEBP, "/img/pic.webp": WEBP,
        "/img/pic@2x.webp": WEBP + b"", "/img/pic.gif": gif(8), "/img/pic.png": png(9), "/img/poster.jpg": jpeg(10),
        "/img/bg.gif": gif(11), "/img/submit.png": png(12), "/img/table-bg.png": png(13), "/img/cell-bg.png": png(14),
        "/img/map.png": png(15), "/img/inline.png": png(16), "/img/quote-single.png": png(17),
        "/img/quote-double.png": png(18), "/img/unquoted.png": png(19), "/img/café.png": png(20),
        "/img/two words.png": png(21), "/img/rooted.png": png(22), "/img/hero.jpg": jpeg(23),
        "/img/bg-main.png": png(24), "/img/hero-1x.webp": WEBP, "/img/hero-2x.png": png(25),
        "/img/cursor.png": png(26), "/img/print-logo.gif": gif(27), "/img/theme-1x.png": png(28),
        "/img/theme-2x.jpg": jpeg(29), "/img/stripe.png": png(30), "/img/based.png": png(31),
        "/img/diagram.svg": svg(32), "/css/icons/sprite.png": png(33), "/media/clip.mp4": blob(b"\x00\x00\x00\x18ftypmp42", 1),
        "/media/clip.webm": blob(b"\x1a\x45\xdf\xa3", 2), "/media/sound.ogg": blob(b"OggS\x00\x02", 3),
        "/media/sound.mp3": blob(b"ID3\x03\x00", 4), "/media/captions.vtt": "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n",
        "/media/doc.pdf": b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
        "/fonts/body.eot": blob(b"\x00\x00\x01\x00LP", 5), "/fonts/body.woff2": blob(b"wOF2\x00\x01\x00\x00", 6),
        "/fonts/body.woff": blob(b"wOFF\x00\x01\x00\x00", 7), "/js/module.mjs": "export const ready = true;\n",
        "/js/app.js": "document.documentElement.classList.add('js');\n",
        "/img/sprite.svg": svg(34, '<symbol id="icon-home" viewBox="0 0 16 16"><path d="M0 8 8 0 16 8z"/></symbol>'
                              '<symbol id="icon-gear" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6"/></symbol>'),
    }.items():
        site.add(name, data)
    css = ("", "/css/main.css")
    site.add(css[1], '@import "%s";\n' % site.href(css, "/css/base.css")
             + "@font-face {\n  font-family: Body;\n  src: url(%s);\n" % site.href(css, "/fonts/body.eot")
             + "  src: url(%s) format('embedded-opentype'),\n" % site.href(css, "/fonts/body.eot", query="", fragment="iefix")
             + "       url(%s) format('woff2'),\n" % site.href(css, "/fonts/body.woff2")
             + '       url("%s") format("woff");\n}\n' % site.href(css, "/fonts/body.woff")
             + 'body { font-family: Body, sans-serif; background: #fff url("%s") repeat-x; }\n' % site.href(css, "/img/bg-main.png")
             + ".logo { background-image: url('%s'); }\n" % site.href(css, "/img/logo.svg")
             + '.hero { background-image: image-set("%s" 1x, url(%s) 2x); }\n'
             % (site.href(css, "/img/hero-1x.webp"), site.href(css, "/img/hero-2x.png"))
             + ".hero-legacy { background-image: -webkit-image-set(url(%s) 1x); }\n" % site.href(css, "/img/hero-1x.webp"))
    css = ("", "/css/base.css")
    site.add(css[1], "@import url(%s);\n.icon { background: url(%s) no-repeat; }\n"
             % (site.href(css, "/css/reset.css"), site.href(css, "/css/icons/sprite.png")))
    css = ("", "/css/reset.css")
    site.add(css[1], "html { margin: 0; cursor: url(%s), auto; }\n" % site.href(css, "/img/cursor.png"))
    css = ("", "/css/theme.css")
    site.add(css[1], ".theme { background-image: image-set('%s' 1x, '%s' 2x); }\n"
             % (site.href(css, "/img/theme-1x.png"), site.href(css, "/img/theme-2x.jpg")))
    css = ("", "/css/print.css")
    site.add(css[1], "@media print { .logo { background: url(%s); } }\n" % site.href(css, "/img/print-logo.gif"))
    site.add("/site.webmanifest", json.dumps({
        "name": "gen-site", "start_url": "/", "icons": [{"src": "/img/touch-icon.png", "sizes": "1x1", "type": "image/png"}],
    }, indent=1) + "\n")


def head(site, src, title, extra=""):
    h = lambda target, **kw: site.href(src, target, **kw)  # noqa: E731
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n<title>%s</title>\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<link rel="stylesheet" href="%s">\n<link rel="icon" href="%s">\n<script src="%s" defer></script>\n%s'
            '</head>\n' % (title, h("/css/main.css", query="v=3"), h("/favicon.ico", rooted=True), h("/js/app.js"), extra))


def page(site, path, title, body, extra_head="", rng=None):
    """Writes a page: head, a styled header with navigation, `body`, a footer."""
    src = ("", path)
    rng = rng or site.rng
    h = lambda target, **kw: site.href(src, target, **kw)  # noqa: E731
    text = (head(site, src, title, extra_head)
            + '<body id="top">\n<header class="logo" style="background: url(%s) repeat-x">\n' % h("/img/stripe.png")
            + '<nav><a href="%s">Home</a> · <a href="%s">Docs</a> · <a href="%s">About</a></nav></header>\n'
            % (h("/"), h("/docs/"), h("/about"))
            + "<main>\n<h1>%s</h1>\n%s\n<p>%s.</p>\n</main>\n" % (title, body, words(rng, 60))
            + '<footer><a href="#top">Top</a> · <a href="%s">Elsewhere</a> · <a href="mailto:web@example.invalid">Mail</a>'
            "</footer>\n</body></html>\n" % EXTERNAL)
    site.external.add(EXTERNAL)
    site.add(path, text)


# MARK: the page tree

def page_path(i):
    d = i // PAGES_PER_DIR
    return "/docs/s%02d/t%02d/p%05d.html" % (d // DIRS_PER_SECTION, d % DIRS_PER_SECTION, i)


def figure(i):
    ext = ("png", "jpg", "gif", "webp", "svg")[i % 5]
    maker = {"png": png, "jpg": jpeg, "gif": gif, "webp": lambda _: WEBP, "svg": svg}[ext]
    return "/media/figs/%02d/p%05d.%s" % (i // 100 % 100, i, ext), maker(i)


def content_pages(site, count):
    for i in range(count):
        path = page_path(i)
        src = ("", path)
        rng = random.Random(site.seed * 1_000_003 + i)
        h = lambda target, **kw: site.href(src, target, **kw)  # noqa: E731
        fig, data = figure(i)
        site.add(fig, data)
        nav = ['<a href="%s">Section</a>' % h(posixpath.dirname(path) + "/")]
        if i > 0:
            nav.append('<a href="%s" rel="prev">Previous</a>' % h(page_path(i - 1)))
        if i + 1 < count:
            nav.append('<a href="%s" rel="next">Next</a>' % h(page_path(i + 1)))
        for k in range(3):
            j = rng.randrange(count)
            fragment = "part-%d" % rng.randrange(1, 4) if k == 0 and rng.random() < 0.4 else None
            query = "ref=p%d" % i if k == 1 and rng.random() < 0.25 else None
            nav.append('<a href="%s">%s</a>' % (h(page_path(j), fragment=fragment, query=query), words(rng, 2)))
        extra = ""
        if i % 7 == 0:
            extra = '<link rel="stylesheet" href="%s">\n' % h(posixpath.dirname(posixpath.dirname(path)) + "/section.css")
        cdn = ""
        if site.cdn_host and i % 20 == 0:
            cdn = '<img src="%s" alt="">\n' % h(("cdn", "/img/cdn-%d.png" % (i % 3)))
        paragraphs = "\n".join('<h2 id="part-%d">Part %d</h2>\n<p>%s.</p>' % (n, n, words(rng, 80)) for n in (1, 2, 3))
        body = ('<p class="nav">%s</p>\n<figure><img src="%s" alt="Figure %d" width="1" height="1"></figure>\n%s\n%s'
                % (" · ".join(nav), h(fig), i, paragraphs, cdn))
        page(site, path, "Page %d" % i, body, extra, rng)


def indexes(site, count):
    dirs = (count + PAGES_PER_DIR - 1) // PAGES_PER_DIR
    sections = (dirs + DIRS_PER_SECTION - 1) // DIRS_PER_SECTION
    src = ("", "/index.html")
    h = lambda target, **kw: site.href(src, target, **kw)  # noqa: E731
    links = "".join('<li><a href="%s">Section %d</a></li>\n' % (h("/docs/s%02d/" % s), s) for s in range(sections))
    page(site, "/index.html", "gen-site home",
         '<img src="%s" srcset="%s 2x" alt="logo">\n<ul>\n<li><a href="%s">Every reference kind</a></li>\n%s</ul>'
         % (h("/img/logo.svg"), h("/img/logo@2x.png"), h("/kitchen/"), links))
    src = ("", "/docs/index.html")
    page(site, "/docs/index.html", "Docs", "<ul>\n%s</ul>" % "".join(
        '<li><a href="%s">Section %d</a></li>\n' % (site.href(src, "/docs/s%02d/" % s), s) for s in range(sections)))
    page(site, "/about", "About (an extensionless page)", '<p><a href="%s">Kitchen</a></p>' % site.href(("", "/about"), "/kitchen/"))
    for s in range(sections):
        base = "/docs/s%02d/" % s
        src = ("", base + "index.html")
        subs = [d for d in range(s * DIRS_PER_SECTION, min(dirs, (s + 1) * DIRS_PER_SECTION))]
        items = "".join('<li><a href="%s">Part %d</a></li>\n' % (site.href(src, base + "t%02d/" % (d % DIRS_PER_SECTION)), d)
                        for d in subs)
        page(site, base + "index.html", "Section %d" % s,
             '<p><a href="%s">Overview</a></p>\n<ul>\n%s</ul>' % (site.href(src, base + "overview"), items),
             '<link rel="stylesheet" href="%s">\n' % site.href(src, base + "section.css"))
        css = ("", base + "section.css")
        site.add(base + "banner.png", png(100 + s))
        site.add(css[1], ".section { background: url('%s'); }\n" % site.href(css, base + "banner.png"))
        page(site, base + "overview", "Overview of section %d" % s,
             '<p><a href="%s">Back</a></p>' % site.href(("", base + "overview"), base))
        for d in subs:
            sub = base + "t%02d/" % (d % DIRS_PER_SECTION)
            src = ("", sub + "index.html")
            pages = range(d * PAGES_PER_DIR, min(count, (d + 1) * PAGES_PER_DIR))
            page(site, sub + "index.html", "Part %d" % d, "<ol>\n%s</ol>" % "".join(
                '<li><a href="%s">Page %d</a></li>\n' % (site.href(src, page_path(i)), i) for i in pages))


# MARK: every reference kind

def kitchen(site):
    """/kitchen/: one page with every HTML reference kind, plus frames, refresh and <base> pages."""
    path = "/kitchen/index.html"
    src = ("", path)
    h = lambda target, **kw: site.href(src, target, **kw)  # noqa: E731
    app_js = site.files[("", "/js/app.js")]
    integrity = "sha384-" + base64.b64encode(hashlib.sha384(app_js).digest()).decode()
    site.add("/kitchen/next-data.json", '{"next": true}\n')
    head_extra = (
        '<link rel="stylesheet" href="%s" media="print">\n' % h("/css/print.css")
        + '<link rel="icon" type="image/svg+xml" href="%s">\n' % h("/img/icon.svg")
        + '<link rel="apple-touch-icon" href="%s">\n' % h("/img/touch-icon.png")
        + '<link rel="preload" href="%s" as="font" type="font/woff2" crossorigin>\n' % h("/fonts/body.woff2")
        + '<link rel="modulepreload" href="%s">\n' % h("/js/module.mjs")
        + '<link rel="prefetch" href="%s">\n' % h("/kitchen/next-data.json")
        + '<link rel="manifest" href="%s">\n' % h("/site.webmanifest")
        + '<style>\n@import url("%s");\n.hero { background: url(%s) no-repeat; }\n</style>\n'
        % (h("/css/theme.css"), h("/img/hero.jpg"))
        + '<script src="%s" integrity="%s" crossorigin="anonymous"></script>\n' % (h("/js/app.js"), integrity)
        + '<script type="module" src="%s"></script>\n' % h("/js/module.mjs"))
    cdn = ""
    if site.cdn_host:
        head_extra += '<link rel="stylesheet" href="%s">\n' % h(("cdn", "/css/cdn.css"))
        cdn = ('<img src="%s" alt="">\n<script src="%s"></script>\n'
               % (h(("cdn", "/img/cdn-0.png")), h(("cdn", "/js/cdn.js")).replace("https:", "", 1)))
    site.external.update(("http://example.invalid/y?z=1#w", "https://example.invalid/pixel.png"))
    body = (
        '<p><a href="%s">Home</a> · <a href="%s">About</a> · <a href="%s">Frames</a> · <a href="%s">Refresh</a> · '
        % (h("/"), h("/about"), h("/kitchen/frames.html"), h("/kitchen/refresh.html"))
        + '<a href="%s">Base</a> · <a href="%s">All docs</a> · <a href="#part-2">Part 2</a></p>\n'
        % (h("/kitchen/base.html"), h("/docs/", query="tab=all"))
        + '<p><a href="mailto:someone@example.invalid">mail</a> <a href="javascript:void(0)">js</a> '
        '<a href="data:text/plain,hello">data</a> <a href="tel:+15550100">tel</a> '
        '<a href="%s">out of scope</a> <a href="http://example.invalid/y?z=1#w">out of scope 2</a></p>\n' % EXTERNAL
        + '<div class="hero theme"></div>\n'
        + '<img src="%s" srcset="%s 1x, %s 2x" alt="comma">\n' % (h("/img/a,b.png"), h("/img/a,b.png"), h("/img/logo@2x.png"))
        + '<img src="%s" sizes="(max-width: 600px) 480px, 800px"\n     srcset="%s 480w,\n             %s 800w,\n'
          '             %s 1600w" alt="multi-line srcset">\n'
        % (h("/img/photo-small.jpg"), h("/img/photo-small.jpg"), h("/img/photo-medium.jpg"), h("/img/photo-large.webp"))
        + '<picture>\n<source type="image/webp" srcset="%s 1x, %s 2x">\n<source srcset="%s">\n<img src="%s" alt="">\n</picture>\n'
        % (h("/img/pic.webp"), h("/img/pic@2x.webp"), h("/img/pic.gif"), h("/img/pic.png"))
        + '<video src="%s" poster="%s" controls>\n<source src="%s" type="video/webm">\n'
          '<track src="%s" kind="captions" srclang="en" label="English">\n</video>\n'
        % (h("/media/clip.mp4"), h("/img/poster.jpg"), h("/media/clip.webm"), h("/media/captions.vtt"))
        + '<audio src="%s" controls><source src="%s" type="audio/mpeg"></audio>\n' % (h("/media/sound.ogg"), h("/media/sound.mp3"))
        + '<iframe src="%s" title="inner"></iframe>\n' % h("/kitchen/iframe.html")
        + '<embed src="%s" type="application/pdf">\n' % h("/media/doc.pdf")
        + '<object data="%s" type="image/svg+xml"></object>\n' % h("/img/diagram.svg")
        + '<form><input type="image" src="%s" alt="Go"></form>\n' % h("/img/submit.png")
        + '<table background="%s"><tr><td background="%s">cell</td></tr></table>\n' % (h("/img/table-bg.png"), h("/img/cell-bg.png"))
        + '<img src="%s" usemap="#m" alt="map"><map name="m"><area shape="rect" coords="0,0,1,1" href="%s" alt="docs"></map>\n'
        % (h("/img/map.png"), h("/docs/"))
        + '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="48" height="16">\n'
          '<use href="%s"></use>\n<use xlink:href="%s" x="16"></use>\n<image href="%s" x="32" width="16" height="16"/>\n</svg>\n'
        % (h("/img/sprite.svg", fragment="icon-home"), h("/img/sprite.svg", fragment="icon-gear"), h("/img/inline.png"))
        + '<div style="background-image: url(\'%s\')">single</div>\n' % h("/img/quote-single.png")
        + "<div style='background: url(\"%s\")'>double</div>\n" % h("/img/quote-double.png")
        + '<span style="background:url(%s)">unquoted</span>\n' % h("/img/unquoted.png")
        + '<img src="%s" alt="percent-encoded"> <img src="%s" alt="space">\n' % (h("/img/café.png"), h("/img/two words.png"))
        + '<img src="%s" alt="root-relative">\n' % h("/img/rooted.png", rooted=True)
        + '<img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=" alt="data">\n'
        + '<img src="https://example.invalid/pixel.png" alt="out of scope">\n' + cdn)
    page(site, path, "Every reference kind", body, head_extra, random.Random(site.seed))
    # The body carries a legacy background attribute: patch it into this page's <body> tag.
    text = site.files[src].decode().replace('<body id="top">', '<body id="top" background="%s">' % h("/img/bg.gif"), 1)
    site.add(path, text)

    src = ("", "/kitchen/frames.html")
    site.add(src[1], '<!doctype html>\n<html><head><meta charset="utf-8"><title>Frames</title></head>\n'
             '<frameset cols="50%%,50%%">\n<frame src="%s">\n<frame src="%s">\n</frameset></html>\n'
             % (site.href(src, "/kitchen/frame-a.html"), site.href(src, "/kitchen/frame-b.html")))
    for name in ("frame-a", "frame-b", "iframe", "refresh-target"):
        page(site, "/kitchen/%s.html" % name, name, "<p>%s</p>" % name)
    src = ("", "/kitchen/refresh.html")
    site.add(src[1], '<!doctype html>\n<html><head><meta charset="utf-8">\n'
             '<meta http-equiv="refresh" content="30; URL=\'%s\'">\n<title>Refresh</title></head>\n'
             "<body><p>Moving on.</p></body></html>\n" % site.href(src, "/kitchen/refresh-target.html"))
    src = ("", "/kitchen/base.html")
    site.add(src[1], '<!doctype html>\n<html><head><meta charset="utf-8">\n<base href="../img/">\n<title>Base</title></head>\n'
             '<body><img src="%s" alt="via base"> <a href="%s">Back</a></body></html>\n'
             % (site.href(src, "/img/based.png", base="/img/"), site.href(src, "/kitchen/", base="/img/")))


def cdn_files(site):
    css = ("cdn", "/css/cdn.css")
    site.add("/css/cdn.css", "@font-face { font-family: Cdn; src: url(%s) format('woff2'); }\n"
             ".cdn { background: url('%s'); }\n" % (site.href(css, ("cdn", "/fonts/cdn.woff2")), site.href(css, ("cdn", "/img/cdn-bg.png"))),
             host="cdn")
    site.add("/fonts/cdn.woff2", blob(b"wOF2\x00\x01\x00\x00", 99), host="cdn")
    site.add("/img/cdn-bg.png", png(200), host="cdn")
    site.add("/js/cdn.js", "window.cdn = true;\n", host="cdn")
    for k in range(3):
        site.add("/img/cdn-%d.png" % k, png(201 + k), host="cdn")


# MARK: output

def types_snippet(site):
    used = sorted({posixpath.basename(p).rsplit(".", 1)[1] for (_, p) in site.files if "." in posixpath.basename(p)})
    unknown = [e for e in used if e not in TYPES]
    if unknown:
        raise SystemExit("gen-site: internal error: no MIME type for %s" % unknown)
    by_type = {}
    for ext in used:
        by_type.setdefault(TYPES[ext], []).append(ext)
    lines = ["types {"] + ["    %s %s;" % (t, " ".join(exts)) for t, exts in sorted(by_type.items())] + ["}"]
    return "\n".join(lines) + "\n# Extensionless pages (/about, /docs/sNN/overview) are HTML.\ndefault_type text/html;\n"


def expected(site, reachable, args):
    origin = sorted(p for (host, p) in reachable if host == "")
    resources = [{"path": quote(p), "file": Site.file_for(("", p))[1].lstrip("/"), "type": content_type(p)} for p in origin]
    cdn = sorted(quote(p) for (host, p) in reachable if host == "cdn")
    reachable_files = {Site.file_for(n) for n in reachable}
    unreachable = sorted(p for (host, p) in site.files if (host, p) not in reachable_files and host == "")
    return {
        "generator": "scripts/gen-site.py", "seed": args.seed, "pagesRequested": args.pages,
        "htmlPages": sum(1 for r in resources if r["type"] == "text/html"),
        "paths": [r["path"] for r in resources],
        "resources": resources,
        "withQuery": sorted(site.queries),
        "cdn": {"host": args.cdn_host, "paths": cdn} if args.cdn_host else None,
        "external": sorted(site.external),
        "notLinked": unreachable,
    }


def write(outdir, site, reachable, args):
    made = set()
    for (host, path), data in site.files.items():
        target = os.path.join(outdir, "_cdn" if host == "cdn" else "", path.lstrip("/"))
        folder = os.path.dirname(target)
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        with open(target, "wb") as f:
            f.write(data)
    snippet = types_snippet(site)
    with open(os.path.join(outdir, "_nginx-types.conf"), "w") as f:
        f.write(snippet)
    with open(os.path.join(outdir, "_expected.json"), "w") as f:
        json.dump(expected(site, reachable, args), f, indent=1, ensure_ascii=False)
        f.write("\n")
    return snippet


def main(argv):
    parser = argparse.ArgumentParser(description="Write a deterministic static test site.")
    parser.add_argument("outdir")
    parser.add_argument("--pages", type=int, required=True, help="minimum number of HTML pages")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cdn-host", metavar="HOST:PORT", help="put some requisites on https://HOST:PORT/ (OUTDIR/_cdn)")
    args = parser.parse_args(argv)
    if args.pages < 1:
        parser.error("--pages must be at least 1")
    site = Site(args.seed, args.cdn_host)
    shared_assets(site)
    content_pages(site, args.pages)
    indexes(site, args.pages)
    kitchen(site)
    if args.cdn_host:
        cdn_files(site)
    reachable = site.reachable()
    os.makedirs(args.outdir, exist_ok=True)
    snippet = write(args.outdir, site, reachable, args)
    print("gen-site: wrote %d files (%d reachable URLs) to %s" % (len(site.files), len(reachable), args.outdir), file=sys.stderr)
    print("# nginx: add inside the server block (or include %s/_nginx-types.conf)" % args.outdir)
    print(snippet, end="")


if __name__ == "__main__":
    main(sys.argv[1:])
