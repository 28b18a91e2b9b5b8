#!/usr/bin/env python3
"""Checks the links of a mirror folder offline (stdlib only); a small cousin of MirrorVerifier.

Usage: python3 Benchmarks/linkcheck.py ROOT --origin PREFIX [--origin PREFIX...]
                                          [--expected _expected.json] [--exclude DIR]

Reads every .html/.htm/.css file (and extensionless files that start like HTML), extracts the
references of HTML attributes (href, src, srcset, poster, data, background, xlink:href, meta
refresh), <style> blocks, style attributes and CSS files (url(), @import, image-set strings), but
not tags inside raw text (<textarea>, <title>, <xmp>, <iframe>, <noembed>, <noframes>, as browsers
read them, up to their closing tag; a self-closed `<iframe …/>` has none), and classifies each
with file:// semantics: fragment dropped; a query makes a local reference broken (a browser drops
it when opening a file); percent-decoded; `/x` and `../` past ROOT escape it; an absolute URL
with a scheme other than http(s) (ftp:, news:, file:) counts as external.
With --expected (gen-site.py's _expected.json) it also reports how many reachable origin URLs have
a local file (trying the names mirrors use: the path decoded, as sent, and with `@` as `^40`; each
as is, index.html for `dir/`, with `.html` and `@.html` suffixes, and `name?…`/`name@…`/`name%3F…`
for a URL fetched only with a query).

Prints one JSON object: files, references, local, resolved, resolvedPercent, broken, escapes,
origin (absolute references to an origin prefix), external, coverage, coveragePercent, samples.
"""
import argparse
import html.parser
import json
import os
import re
import sys
import urllib.parse

SKIP_SCHEMES = ("mailto:", "javascript:", "data:", "tel:", "about:", "blob:")
URL_ATTRIBUTES = {"href", "src", "poster", "data", "background", "xlink:href", "action", "formaction"}
CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s"']*))\s*\)""", re.I)
CSS_IMPORT = re.compile(r"""@import\s+(?:"([^"]*)"|'([^']*)')""", re.I)
CSS_IMAGE_SET = re.compile(r"""image-set\(((?:[^()]|\([^()]*\))*)\)""", re.I)
CSS_STRING = re.compile(r""""([^"]*)"|'([^']*)'""")
REFRESH = re.compile(r"""^\s*\d+(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.*?)\1\s*$""", re.I | re.S)


CSS_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.S)


def css_references(text):
    text = CSS_COMMENT.sub(" ", text)
    out = [next(g for g in m.groups() if g is not None) for m in CSS_URL.finditer(text)]
    out += [m.group(1) if m.group(1) is not None else m.group(2) for m in CSS_IMPORT.finditer(text)]
    for m in CSS_IMAGE_SET.finditer(text):
        out += [s.group(1) if s.group(1) is not None else s.group(2) for s in CSS_STRING.finditer(m.group(1))]
    return [u for u in out if u]


def srcset_urls(value):
    """The URLs of a srcset (WHATWG parsing: a URL is a run of non-spaces minus trailing commas)."""
    urls, i, n = [], 0, len(value)
    while i < n:
        while i < n and (value[i].isspace() or value[i] == ","):
            i += 1
        start = i
        while i < n and not value[i].isspace():
            i += 1
        url = value[start:i]
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            depth = 0
            while i < n and (depth or value[i] != ","):
                depth += {"(": 1, ")": -1}.get(value[i], 0)
                i += 1
        if url:
            urls.append(url)
    return urls


class Extractor(html.parser.HTMLParser):
    # Elements whose content a browser reads as text (WHATWG raw text and RCDATA): a tag
    # quoted inside `<xmp>` or `<textarea>` is no reference (graphviz's output.html).
    CDATA_CONTENT_ELEMENTS = ("script", "style", "xmp", "textarea", "title", "iframe", "noembed", "noframes")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs, self.base, self.in_style = [], None, False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "base" and attributes.get("href") and self.base is None:
            self.base = attributes["href"]
            return
        for name, value in attrs:
            if value is None:
                continue
            if name in URL_ATTRIBUTES and not (tag == "form" and name == "action"):
                self.refs.append(value)
            elif name in ("srcset", "imagesrcset"):
                self.refs += srcset_urls(value)
            elif name == "style":
                self.refs += css_references(value)
        if tag == "meta" and (attributes.get("http-equiv") or "").lower() == "refresh":
            m = REFRESH.match(attributes.get("content") or "")
            if m and m.group(2):
                self.refs.append(m.group(2))
        self.in_style = tag == "style"

    def handle_endtag(self, tag):
        self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.refs += css_references(data)


def looks_like_html(path):
    with open(path, "rb") as f:
        head = f.read(512).lstrip(b"\xef\xbb\xbf").lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body"))


def classify(ref, directory, origins):
    """('skip'|'external'|'origin'|'escape'|'broken'|'local', segments)."""
    ref = ref.strip()
    low = ref.lower()
    if not ref or ref.startswith("#") or low.startswith(SKIP_SCHEMES):
        return "skip", None
    if low.startswith("//"):
        low = "https:" + low
    if re.match(r"^[a-z][a-z0-9+.-]*:", low):
        if low.startswith(("http:", "https:")):
            return ("origin" if any(low.startswith(o.lower()) for o in origins) else "external"), None
        # ftp:, news:, file:… name no file of the mirror (and no origin URL): a mirror leaves them.
        return "external", None
    path = ref.split("#", 1)[0]
    if "?" in path:
        return "broken", None
    if path.startswith("/"):
        return "escape", None
    segments = list(directory)
    parts = path.split("/")
    for k, part in enumerate(parts):
        try:
            name = urllib.parse.unquote(part, errors="strict")
        except UnicodeDecodeError:
            return "broken", None
        if name in (".", ""):
            if k == len(parts) - 1:
                segments.append("")
        elif name == "..":
            if not segments:
                return "escape", None
            segments.pop()
            if k == len(parts) - 1:
                segments.append("")
        else:
            segments.append(name)
    return "local", segments


def target_exists(root, segments):
    if segments and segments[-1] == "":
        return os.path.isfile(os.path.join(root, *segments[:-1], "index.html"))
    return os.path.isfile(os.path.join(root, *segments)) if segments else False


def documents(root, exclude):
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if os.path.relpath(os.path.join(folder, d), root) not in exclude]
        for name in files:
            path = os.path.join(folder, name)
            ext = os.path.splitext(name)[1].lower()
            if ext in (".html", ".htm", ".css") or (ext == "" and looks_like_html(path)):
                yield path


def query_variant(root, local, _listing={}):
    """True when the folder holds `name?…`, `name@…` or `name%3F…`: the URL was fetched with a query."""
    folder, name = os.path.split(os.path.join(root, local))
    if not name:
        return False
    if folder not in _listing:
        _listing[folder] = os.listdir(folder) if os.path.isdir(folder) else []
    return any(entry.startswith((name + "?", name + "@", name + "%3F", name + "%3f")) for entry in _listing[folder])


def coverage(root, expected_file):
    with open(expected_file) as f:
        expected = json.load(f)
    found, missing = 0, []
    for path in expected["paths"]:
        found_one = False
        # Decoded (wget, wget2), as sent (mtls-mirror keeps `%20` in a name), and with `@` as
        # `^40` (mtls-mirror keeps `@` for the names it adds).
        for local in dict.fromkeys(name.lstrip("/") for name in (urllib.parse.unquote(path), path,
                                                                  path.replace("@", "^40"))):
            candidates = [local + "index.html"] if local.endswith("/") or not local else [
                local, local + ".html", local + "@.html", local + "/index.html"]
            if any(os.path.isfile(os.path.join(root, c)) for c in candidates) or query_variant(root, local):
                found_one = True
                break
        if found_one:
            found += 1
        else:
            missing.append(path)
    return found, len(expected["paths"]), missing


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--origin", action="append", default=[])
    parser.add_argument("--expected")
    parser.add_argument("--exclude", action="append", default=[], help="folder (relative to ROOT) to skip")
    args = parser.parse_args(argv)
    root = os.path.realpath(args.root)
    counts = dict(files=0, references=0, local=0, resolved=0, broken=0, escapes=0, origin=0, external=0)
    samples = {"broken": [], "escapes": [], "origin": []}
    for path in documents(root, set(args.exclude)):
        rel_dir = os.path.relpath(os.path.dirname(path), root)
        directory = [] if rel_dir == "." else rel_dir.split(os.sep)
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        counts["files"] += 1
        if path.lower().endswith(".css"):
            refs, base = css_references(text), None
        else:
            extractor = Extractor()
            extractor.feed(text)
            extractor.close()
            refs, base = extractor.refs, extractor.base
        if base is not None:
            kind, segments = classify(base, directory, args.origin)
            if kind == "local":
                directory = segments[:-1]
        for ref in refs:
            counts["references"] += 1
            kind, segments = classify(ref, directory, args.origin)
            where = "%s: %s" % (os.path.relpath(path, root), ref)
            if kind == "local":
                counts["local"] += 1
                if target_exists(root, segments):
                    counts["resolved"] += 1
                    continue
                kind = "broken"
            if kind in ("broken", "escape"):
                counts["local"] += 1
            key = {"broken": "broken", "escape": "escapes", "origin": "origin"}.get(kind)
            if key:
                counts[key] += 1
                if len(samples[key]) < 5:
                    samples[key].append(where)
            elif kind == "external":
                counts["external"] += 1
    counts["resolvedPercent"] = round(100.0 * counts["resolved"] / counts["local"], 2) if counts["local"] else 0.0
    if args.expected:
        found, total, missing = coverage(root, args.expected)
        counts.update(coverage=found, expectedURLs=total, coveragePercent=round(100.0 * found / total, 2) if total else 0.0)
        samples["missing"] = missing[:5]
    counts["samples"] = samples
    json.dump(counts, sys.stdout)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
