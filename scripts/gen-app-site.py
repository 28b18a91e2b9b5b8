#!/usr/bin/env python3
"""Writes a deterministic *application* site for mtls-mirror's render-mode tests and benchmark
(stdlib only).

Usage: python3 scripts/gen-app-site.py OUTDIR --pages N [--seed S]

Every page is the same empty shell: a title, a stylesheet, one script, and "Loading…". The
content, the navigation and the images exist only after the script has fetched JSON:

  /static/app.js        fetches /api/menu.json (the menu: links to the first pages), then
                        /api/pages/ID.json (the page: heading, text, an image, a lazy image,
                        links to related pages), then POSTs {"q": ID} to /api/search
  /api/pages/ID.json    page ID's data; "related" links make every page reachable from /
                        through script-built links only (ID's children are 2*ID and 2*ID+1)
  /img/ID.svg           the page's image; /img/lazy-ID.svg its lazy image (loading="lazy")
  /static/app.css       with a url() background image (/img/bg.svg) and an @font-face (/static/app.woff2)
  /static/boot.mjs      a module script importing /static/lib.mjs, which writes the footer
  /widget.html          a same-origin frame the home page's script adds; its own script builds it

Also written (not linked from any page):
  OUTDIR/_expected.json   {"pages": [paths], "texts": {path: text}, "tokens": {path: token}}
  OUTDIR/_nginx.conf      the server-block lines the site needs (the POST endpoint, types)
"""
import argparse
import json
import os
import random

SHELL = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>App shell</title>
<link rel="stylesheet" href="/static/app.css">
<script src="/static/app.js" defer></script>
<script type="module" src="/static/boot.mjs"></script>
</head><body>
<nav id="menu">Loading menu…</nav>
<main id="content">Loading…</main>
<p id="search"></p>
<footer id="footer"></footer>
</body></html>
"""

SCRIPT = """(function () {
  'use strict';
  const match = location.pathname.match(/\\/pages\\/(\\d+)\\.html$/);
  const id = match ? match[1] : 'home';
  const el = (tag, attrs, text) => {
    const node = document.createElement(tag);
    for (const key in attrs || {}) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  fetch('/api/menu.json').then(r => r.json()).then(menu => {
    const nav = document.getElementById('menu');
    nav.textContent = '';
    for (const item of menu.items) nav.appendChild(el('a', { href: item.href, class: 'menu' }, item.label));
  });
  fetch('/api/pages/' + id + '.json').then(r => r.json()).then(page => {
    const main = document.getElementById('content');
    main.textContent = '';
    document.title = page.title;
    main.appendChild(el('h1', {}, page.title));
    main.appendChild(el('p', { class: 'text' }, page.text));
    main.appendChild(el('img', { src: page.image, alt: page.title }));
    main.appendChild(el('img', { src: page.lazy, loading: 'lazy', alt: 'lazy ' + page.title, style: 'margin-top: 3000px' }));
    const list = el('ul', { class: 'related' });
    for (const related of page.related) {
      const entry = el('li');
      entry.appendChild(el('a', { href: '/pages/' + related + '.html' }, 'Page ' + related));
      list.appendChild(entry);
    }
    main.appendChild(list);
    if (id === 'home') main.appendChild(el('iframe', { src: '/widget.html', title: 'widget' }));
  });
  fetch('/api/search', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ q: id }) })
    .then(r => r.json()).then(answer => { document.getElementById('search').textContent = 'Search: ' + answer.hits.join(', '); });
})();
"""

WIDGET = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Widget</title></head><body><p id="widget">Loading widget…</p>
<script>document.getElementById('widget').textContent = 'Widget built by its own script';</script>
</body></html>
"""

BOOT = """import { footer } from '/static/lib.mjs';
document.getElementById('footer').textContent = footer();
"""

LIB = """export function footer() { return 'Built by a module script'; }
"""

STYLE = """@font-face { font-family: AppFont; src: url(/static/app.woff2) format("woff2"); }
body { font: 16px AppFont, sans-serif; background: #fff url(/img/bg.svg) no-repeat right top; }
nav a { margin-right: 1em; }
"""

NGINX = """location = /api/search { default_type application/json; return 200 '{"hits":["search-hit"]}'; }
types { text/html html; text/css css; application/javascript js mjs; application/json json; image/svg+xml svg; font/woff2 woff2; }
"""


def svg(label, colour):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
            f'<rect width="40" height="20" fill="{colour}"/><title>{label}</title></svg>\n')


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as handle:
        handle.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    root = args.outdir
    count = max(1, args.pages)
    write(root, "index.html", SHELL)
    write(root, "static/app.js", SCRIPT)
    write(root, "static/app.css", STYLE)
    write(root, "widget.html", WIDGET)
    write(root, "static/boot.mjs", BOOT)
    write(root, "static/lib.mjs", LIB)
    # Not a real font (the browser asks for it, then ignores it): what matters is the request.
    write(root, "static/app.woff2", "wOF2 placeholder font for the render-mode fixture\n")
    write(root, "img/bg.svg", svg("background", "#eee"))
    menu = {"items": [{"href": "/", "label": "Home"}] + [
        {"href": f"/pages/{i}.html", "label": f"Section {i}"} for i in range(1, min(count, 4) + 1)]}
    write(root, "api/menu.json", json.dumps(menu))
    expected = {"pages": ["/"], "texts": {}, "tokens": {}}
    home_token = "token-home-%08x" % rng.getrandbits(32)
    home = {"title": "Home of the application", "text": f"Rendered home text {home_token}", "image": "/img/home.svg",
            "lazy": "/img/lazy-home.svg", "related": [1]}
    write(root, "api/pages/home.json", json.dumps(home))
    write(root, "img/home.svg", svg("home", "#369"))
    write(root, "img/lazy-home.svg", svg("lazy home", "#963"))
    expected["texts"]["/"] = home["text"]
    expected["tokens"]["/"] = home_token
    for i in range(1, count + 1):
        write(root, f"pages/{i}.html", SHELL)
        token = "token-%d-%08x" % (i, rng.getrandbits(32))
        related = [child for child in (2 * i, 2 * i + 1) if child <= count]
        page = {"title": f"Page {i} of the application", "text": f"Rendered text of page {i}: {token} — ünïcode ✓",
                "image": f"/img/{i}.svg", "lazy": f"/img/lazy-{i}.svg", "related": related}
        write(root, f"api/pages/{i}.json", json.dumps(page, ensure_ascii=False))
        write(root, f"img/{i}.svg", svg(f"page {i}", "#%06x" % rng.getrandbits(24)))
        write(root, f"img/lazy-{i}.svg", svg(f"lazy {i}", "#%06x" % rng.getrandbits(24)))
        path = f"/pages/{i}.html"
        expected["pages"].append(path)
        expected["texts"][path] = page["text"]
        expected["tokens"][path] = token
    write(root, "_expected.json", json.dumps(expected, ensure_ascii=False, indent=1))
    write(root, "_nginx.conf", NGINX)
    print(NGINX, end="")


if __name__ == "__main__":
    main()
