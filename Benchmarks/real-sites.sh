#!/usr/bin/env bash
# Mirrors real documentation sites, as Debian packages them, behind client-certificate TLS with
# mtls-mirror and wget2 in the same run, and prints a Markdown table for BENCHMARKS.md: wall
# time (median), peak RSS, requests, local references resolved, in-scope references left
# pointing at the origin. The generated site of mirror-bench.sh is one shape of site; these are
# others written by other tools (Sphinx, DocBook, AsciiDoc, SQLite's own, Apache's XSLT, node's, Publican, gtk-doc, vim2html, Texinfo, gi-docgen,
# Doxygen, qdoc, javadoc, rustdoc, mdBook, MkDocs, BoostBook, Erlang's and Go's own, xfpt, texi2html, hand-written
# HTML, the PyData Sphinx theme, pldoc, pydoctor, valadoc, GAPDoc, groovydoc, scaladoc): pages of up to 5.8 MB, tens of
# thousands of anchors per page, links that point above the mirrored folder.
#
# Usage: Benchmarks/real-sites.sh [options]
#   --sites LIST         comma-separated subset of python,postgresql,django,git,sqlite,cmake,apache,
#                        node,sphinx,libxml2,handbook,requests,glib,gtk3,reference,policy,devref,
#                        maint,vim,octave,gtk4,sdl2,cairo,qt,jdk,rust,rustbook,mkdocs,boost,erlang,
#                        golang,exim,postfix,zsh,haskell,scipy,rmanual,weechat,putty,docutils,faq,
#                        harden,fpdoc,sbcl,gnuplot,asy,imagick,haproxy,bind9,wireshark,eigen,kicad,
#                        gimp,dpdk,xapian,scons,graphviz,cppref,ffmpeg,valgrind,llvm,gmagick,ant,
#                        tomcat,swipl,maxima,doxygen,twisted,vala,gapref,mutt,groovy,scala,gnutls,
#                        fish,aptitude,history,postgis (default all)
#   --runs N             runs per tool and site; the table shows the median (default 3)
#   --wget2-threads N    wget2's --max-threads (default 2, as issue #27 compares; 16 in sessions 7-13)
#   --latency MS         round trip ≈ MS through Benchmarks/delay-proxy.c (MS/2 each way; default 0:
#                        straight to nginx; BENCH_DELAY_PROXY=python for Benchmarks/delay-proxy.py)
#   --no-build           use the release binary if it exists (default: scripts/build-release.sh)
#   --mtls-mirror-bin P  use this binary
#   --keep               keep the work folder and print its path
#   --work-parent DIR    make the work folder in DIR (default /tmp)
#
# Each site is served from its own folder (/python/, /postgresql/ …) and mirrored from its
# index page (index.html; index.en.html for the Debian Reference and the New Maintainers'
# Guide, std/index.html for Rust's standard library, go_spec.html for Go's, R-exts.html for R's) with --no-parent, so
# links above the start page's folder (Debian's /license.html, Django's /usr/share/doc/… links,
# rustdoc's core/ and alloc/ next to std/) are out of scope for both tools. "refs to origin"
# counts references to URLs inside that folder only: the ones a mirror should have made local.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

sites="python,postgresql,django,git,sqlite,cmake,apache,node,sphinx,libxml2,handbook,requests,glib,gtk3,reference,policy,devref,maint,vim,octave,gtk4,sdl2,cairo,qt,jdk,rust,rustbook,mkdocs,boost,erlang,golang,exim,postfix,zsh,haskell,scipy,rmanual,weechat,putty,docutils,faq,harden,fpdoc,sbcl,gnuplot,asy,imagick,haproxy,bind9,wireshark,eigen,kicad,gimp,dpdk,xapian,scons,graphviz,cppref,ffmpeg,valgrind,llvm,gmagick,ant,tomcat,swipl,maxima,doxygen,twisted,vala,gapref,mutt,groovy,scala,gnutls,fish,aptitude,history,postgis" runs=3 wget2_threads=2 latency=0 build=1 bin="" keep=0 work_parent=/tmp
while [ $# -gt 0 ]; do
    case "$1" in
        --sites) sites=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --wget2-threads) wget2_threads=$2; shift 2 ;;
        --latency) latency=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --mtls-mirror-bin) bin=$2; build=0; shift 2 ;;
        --keep) keep=1; shift ;;
        --work-parent) work_parent=$2; shift 2 ;;
        -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "real-sites: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ "$runs" -ge 1 ] 2>/dev/null || { echo "real-sites: --runs needs a positive number" >&2; exit 2; }
[ "$wget2_threads" -ge 1 ] 2>/dev/null || { echo "real-sites: --wget2-threads needs a positive number" >&2; exit 2; }
[ "$latency" -ge 0 ] 2>/dev/null || { echo "real-sites: --latency needs a whole number of milliseconds" >&2; exit 2; }
log() { echo "real-sites: $*" >&2; }

# site name → Debian package and the folder holding its start page
# (sqlite and cmake since session 23, apache, node, sphinx and libxml2 since session 25: sites
# the tool was not tuned on. Apache's manual is all its languages, linked from one index;
# node's API pages include all.html, 5.8 MB with 17,000 links, 70 % of them to its own anchors.
# The Debian Administrator's Handbook (Publican), requests' Sphinx pages, and GLib's and GTK 3's
# gtk-doc references since session 30. Since session 38: the Debian Reference (DocBook, 15 pages of
# up to 390 KB whose links mostly leave the site), Debian Policy (Sphinx), the Developer's
# Reference and the New Maintainers' Guide (small DocBook sites: 12 and 11 pages), Vim's help
# (vim2html: 150 pages dense with links), Octave's manual (Texinfo) and GTK 4's reference
# (gi-docgen, 9,000 pages). Since session 40: SDL 2's reference (Doxygen: its navigation is
# built by script, so 24 URLs are reachable from the index), cairo's (gtk-doc, 64 URLs), Qt 5
# Core's (qdoc, 800 URLs; the other Qt modules are above its folder) and the JDK 17 API
# (javadoc, 10,300 URLs, 270 MB). Since session 41: Rust's standard library (rustdoc, 1,900
# URLs with pages of up to 3 MB; its scripts and fonts live above std/, as page requisites), the
# Rust book (mdBook), MkDocs' own manual, Boost's BoostBook pages (4,800 URLs), Erlang/OTP's
# index (wget2 1.99.1 follows none of its links: its parser stops at the logo's `<img … "/ >`,
# a slash then a space; mtls-mirror follows its 118 URLs) and Go's specification (one page:
# what the start of a run costs). Since session 42: Exim's specification (xfpt, 65 chapters of
# up to 300 KB), Postfix's manual pages and READMEs (hand-written HTML, 136 pages), zsh's manual
# (texi2html), the Haskell 98 report (1990s HTML), SciPy's reference (the PyData Sphinx theme,
# 4,300 pages; wget2 1.99.1 makes about 200 requests of its 5,000) and Writing R Extensions
# (Texinfo, one page of 1 MB). Since session 45: WeeChat's user guide (Asciidoctor, pages of 1.1 MB), PuTTY's manual
# (Halibut), Docutils' documentation (Docutils itself), the Debian FAQ (DocBook), the Securing Debian Manual (Publican,
# eight languages), Free Pascal's reference (fpdoc, 16,000 pages), SBCL's manual (Texinfo, one page), gnuplot's
# (latex2html-style, 650 pages) and Asymptote's (Texinfo). Since session 46: ImageMagick's (XHTML pages with an
# `<iframe/>` before their content, 960 pages), HAProxy's configuration manual (one page of 2.6 MB), BIND 9's (Sphinx),
# Wireshark's user guide (AsciiDoc, chunked), Eigen's (Doxygen), KiCad's (Asciidoctor, one page and its images),
# GIMP's help (DocBook, 690 pages), DPDK's guides (Sphinx), Xapian's (hand-written and Doxygen), SCons' (DocBook),
# Graphviz's (hand-written, `<xmp>` examples) and cppreference (MediaWiki, 4,400 pages, 169 MB).)
declare -A package=([python]=python3.11-doc [postgresql]=postgresql-doc-15 [django]=python-django-doc [git]=git-doc
                    [sqlite]=sqlite3-doc [cmake]=cmake-doc [apache]=apache2-doc [node]=nodejs-doc
                    [sphinx]=sphinx-doc [libxml2]=libxml2-doc [handbook]=debian-handbook
                    [requests]=python-requests-doc [glib]=libglib2.0-doc [gtk3]=libgtk-3-doc
                    [reference]=debian-reference-en [policy]=debian-policy [devref]=developers-reference
                    [maint]=maint-guide [vim]=vim-doc [octave]=octave-doc [gtk4]=libgtk-4-doc
                    [sdl2]=libsdl2-doc [cairo]=libcairo2-doc [qt]=qtbase5-doc-html [jdk]=openjdk-17-doc
                    [rust]=rust-doc [rustbook]=rust-doc [mkdocs]=mkdocs-doc [boost]=libboost1.74-doc
                    [erlang]=erlang-doc [golang]=golang-1.19-doc [exim]=exim4-doc-html [postfix]=postfix-doc
                    [zsh]=zsh-doc [haskell]=haskell98-report [scipy]=python-scipy-doc [rmanual]=r-doc-html
                    [weechat]=weechat-doc [putty]=putty-doc [docutils]=docutils-doc [faq]=debian-faq [harden]=harden-doc
                    [fpdoc]=fp-docs-3.2.2 [sbcl]=sbcl-doc [gnuplot]=gnuplot-doc [asy]=asymptote-doc
                    [imagick]=imagemagick-6-doc [haproxy]=haproxy-doc [bind9]=bind9-doc [wireshark]=wireshark-doc
                    [eigen]=libeigen3-doc [kicad]=kicad-doc-en [gimp]=gimp-help-en [dpdk]=dpdk-doc [xapian]=xapian-doc
                    [scons]=scons-doc [graphviz]=graphviz-doc [cppref]=cppreference-doc-en-html
                    [ffmpeg]=ffmpeg-doc [valgrind]=valgrind [llvm]=llvm-14-doc [gmagick]=graphicsmagick [ant]=ant-doc
                    [tomcat]=tomcat10-docs [swipl]=swi-prolog-doc [maxima]=maxima-doc [doxygen]=doxygen-doc
                    [twisted]=twisted-doc [vala]=vala-0.56-doc [gapref]=gap-doc [mutt]=mutt [groovy]=groovy-doc
                    [scala]=scala-doc [gnutls]=gnutls-doc [fish]=fish-common [aptitude]=aptitude-doc-en
                    [history]=debian-history [postgis]=postgis-doc)
declare -A folder=([python]=/usr/share/doc/python3.11/html [postgresql]=/usr/share/doc/postgresql-doc-15/html
                   [django]=/usr/share/doc/python-django-doc/html [git]=/usr/share/doc/git-doc
                   [sqlite]=/usr/share/doc/sqlite3 [cmake]=/usr/share/doc/cmake-data/html
                   [apache]=/usr/share/doc/apache2-doc/manual [node]=/usr/share/doc/nodejs/api
                   [sphinx]=/usr/share/doc/sphinx-doc/html [libxml2]=/usr/share/doc/libxml2/html
                   [handbook]=/usr/share/doc/debian-handbook/html/en-US
                   [requests]=/usr/share/doc/python-requests-doc/html [glib]=/usr/share/gtk-doc/html/glib
                   [gtk3]=/usr/share/gtk-doc/html/gtk3 [reference]=/usr/share/debian-reference
                   [policy]=/usr/share/doc/debian-policy/policy.html [devref]=/usr/share/developers-reference
                   [maint]=/usr/share/doc/maint-guide/html [vim]=/usr/share/doc/vim/html
                   [octave]=/usr/share/doc/octave/octave.html [gtk4]=/usr/share/doc/libgtk-4-doc/gtk4
                   [sdl2]=/usr/share/doc/libsdl2-doc/html [cairo]=/usr/share/gtk-doc/html/cairo
                   [qt]=/usr/share/qt5/doc/qtcore [jdk]=/usr/share/doc/openjdk-17-jre-headless/api
                   [rust]=/usr/share/doc/rust-doc/html [rustbook]=/usr/share/doc/rust-doc/html/book
                   [mkdocs]=/usr/share/doc/mkdocs/html [boost]=/usr/share/doc/libboost1.74-doc/doc/html
                   [erlang]=/usr/share/doc/erlang-doc/doc [golang]=/usr/share/doc/golang-1.19-doc/html
                   [exim]=/usr/share/doc/exim4-doc-html/spec_html [postfix]=/usr/share/doc/postfix/html
                   [zsh]=/usr/share/doc/zsh-common/html [haskell]=/usr/share/doc/haskell98-report/html
                   [scipy]=/usr/share/doc/python-scipy-doc/html [rmanual]=/usr/share/R/doc/manual
                   [weechat]=/usr/share/doc/weechat-doc/html [putty]=/usr/share/doc/putty-doc
                   [docutils]=/usr/share/doc/docutils-doc [faq]=/usr/share/doc/debian/FAQ
                   [harden]=/usr/share/doc/harden-doc/html [fpdoc]=/usr/share/doc/fp-docs/3.2.2 [sbcl]=/usr/share/doc/sbcl
                   [gnuplot]=/usr/share/doc/gnuplot/htmldocs [asy]=/usr/share/doc/asymptote
                   [imagick]=/usr/share/doc/imagemagick-6-common/html [haproxy]=/usr/share/doc/haproxy
                   [bind9]=/usr/share/doc/bind9-doc [wireshark]=/usr/share/doc/wireshark
                   [eigen]=/usr/share/doc/libeigen3-dev/html [kicad]=/usr/share/doc/kicad/help/en
                   [gimp]=/usr/share/gimp/2.0/help/en [dpdk]=/usr/share/doc/dpdk [xapian]=/usr/share/doc/xapian-doc
                   [scons]=/usr/share/doc/scons [graphviz]=/usr/share/doc/graphviz/html [cppref]=/usr/share/cppreference/doc/html
                   [ffmpeg]=/usr/share/doc/ffmpeg/manual [valgrind]=/usr/share/doc/valgrind/html
                   [llvm]=/usr/share/doc/llvm-14-doc/html [gmagick]=/usr/share/doc/graphicsmagick/www
                   [ant]=/usr/share/doc/ant/manual [tomcat]=/usr/share/tomcat10-docs/docs
                   [swipl]=/usr/share/swi-prolog/doc/Manual [maxima]=/usr/share/doc/maxima-doc/html
                   [doxygen]=/usr/share/doc/doxygen/html [twisted]=/usr/share/doc/twisted-doc/html
                   [vala]=/usr/share/devhelp/books/vala-0.56 [gapref]=/usr/share/gap/doc/ref [mutt]=/usr/share/doc/mutt/html
                   [groovy]=/usr/share/doc/groovy/gapi [scala]=/usr/share/doc/scala-2.11/api/library
                   [gnutls]=/usr/share/doc/gnutls-doc/api-reference [fish]=/usr/share/doc/fish
                   [aptitude]=/usr/share/doc/aptitude/html/en [history]=/usr/share/doc/debian-history/docs
                   [postgis]=/usr/share/doc/postgis-doc)
# The start page, where it is not index.html.
declare -A start=([reference]=index.en.html [maint]=index.en.html [qt]=qtcore-index.html [rust]=std/index.html
                  [golang]=go_spec.html [rmanual]=R-exts.html [weechat]=weechat_user.en.html
                  [docutils]=docs/index.html [faq]=index.en.html [harden]=en-US/index.html [fpdoc]=fpctoc.html
                  [sbcl]=sbcl.html [asy]=html/index.html [haproxy]=html/configuration.html [bind9]=arm/index.html
                  [wireshark]=wsug_html_chunked/index.html [kicad]=kicad.html [dpdk]=guides/index.html [scons]=HTML/index.html
                  [cppref]=en/index.html [maxima]=maxima.html [gapref]=chap0.html [history]=index.en.html [postgis]=postgis.html)
start_page() { echo "${start[$1]:-index.html}"; }
# The folder --no-parent keeps the crawl in, below the site's: the start page's.
scope_prefix() { local dir; dir=$(dirname "$(start_page "$1")"); [ "$dir" = . ] && echo "$1/" || echo "$1/$dir/"; }
IFS=, read -r -a chosen <<<"$sites"
for site in "${chosen[@]}"; do
    [ -n "${package[$site]:-}" ] || { echo "real-sites: unknown site $site (python, postgresql, django, git, sqlite, cmake, apache, node, sphinx, libxml2, handbook, requests, glib, gtk3, reference, policy, devref, maint, vim, octave, gtk4, sdl2, cairo, qt, jdk, rust, rustbook, mkdocs, boost, erlang, golang, exim, postfix, zsh, haskell, scipy, rmanual, weechat, putty, docutils, faq, harden, fpdoc, sbcl, gnuplot, asy, imagick, haproxy, bind9, wireshark, eigen, kicad, gimp, dpdk, xapian, scons, graphviz, cppref, ffmpeg, valgrind, llvm, gmagick, ant, tomcat, swipl, maxima, doxygen, twisted, vala, gapref, mutt, groovy, scala, gnutls, fish, aptitude, history, postgis)" >&2; exit 2; }
done

bash scripts/install-deps.sh --bench
missing=()
for site in "${chosen[@]}"; do
    [ -f "${folder[$site]}/$(start_page "$site")" ] || missing+=("${package[$site]}")
done
if [ "${#missing[@]}" -gt 0 ]; then
    log "installing ${missing[*]}"
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ -z "$bin" ]; then
    if [ "$build" = 1 ]; then bin=$(bash scripts/build-release.sh | tail -n 1)
    else bin=$repo/.build/x86_64-unknown-linux-gnu/release/mtls-mirror; fi
fi
[ -x "$bin" ] || { echo "real-sites: no mtls-mirror binary at $bin" >&2; exit 1; }

work=$(mktemp -d "$work_parent/mtls-mirror-real.XXXXXX")
source Benchmarks/origin-lib.sh
cleanup() {
    origin_cleanup
    if [ "$keep" = 1 ]; then log "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The sites, copied with symbolic links followed (Debian links jQuery and friends from
# /usr/share/javascript; a dangling link stays missing, as on a real server).
mkdir -p "$work/www"
for site in "${chosen[@]}"; do
    cp -rL "${folder[$site]}" "$work/www/$site" 2>/dev/null || true
done
printf 'include /etc/nginx/mime.types;\ndefault_type application/octet-stream;\n' >"$work/www/_nginx-types.conf"
printf 'User-agent: *\nAllow: /\n' >"$work/www/robots.txt"
origin_start_loopback robots.txt || { log "nginx did not start"; cat "$work/logs/error.log" >&2; exit 1; }
export BENCH_P12_PASSWORD
BENCH_P12_PASSWORD=$(cat "$pki/password.txt")
# The port the tools connect to: nginx's, or a delay proxy's in front of it. The log offsets
# below still come from nginx's access log.
tool_port=$port
if [ "$latency" -gt 0 ]; then
    origin_start_proxy "127.0.0.1:$port" "$(python3 -c "print($latency / 2)")" || { log "$origin_proxy_name did not start"; exit 1; }
    tool_port=$origin_proxy_port
    log "$origin_proxy_name on port $tool_port, round trip ≈ $latency ms"
fi

# timed TOOL SITE RUN OUT: one mirror, timed; appends "tool site run wall maxrss requests" to runs.tsv.
: >"$work/runs.tsv"
timed() {
    local tool=$1 site=$2 run=$3 out=$4 start_url="https://127.0.0.1:$tool_port/$2/$(start_page "$2")" from to
    rm -rf "$out"
    sync
    from=$(origin_log_offset)
    case "$tool" in
        mtls-mirror) command=("$bin" mirror "$start_url" -o "$out" --name "$site" --no-parent --quiet
                              --cert "$pki/client.p12" --pass-env BENCH_P12_PASSWORD --cacert "$pki/server-root.pem") ;;
        wget2) command=(wget2 --mirror --page-requisites --convert-links --adjust-extension --no-parent --no-hsts
                        --certificate="$pki/client-chain.pem" --private-key="$pki/client.key"
                        --ca-certificate="$pki/server-root.pem" --max-threads="$wget2_threads" --no-verbose --progress=none
                        -P "$out" "$start_url") ;;
    esac
    # GNU time gives the peak RSS; the wall comes from the shell's clock, to the millisecond
    # (time's %e has two decimals, too coarse for a site mirrored in 60 ms).
    local started=$EPOCHREALTIME wall
    /usr/bin/time -f '%M' -o "$work/time.txt" "${command[@]}" >"$work/logs/$tool-$site-$run.log" 2>&1 || true
    wall=$(python3 -c "print('%.3f' % ($EPOCHREALTIME - $started))")
    to=$(origin_log_offset)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$site" "$run" "$wall" "$(tail -n 1 "$work/time.txt")" \
        "$(origin_log_summary "$from" "$to" | cut -d' ' -f1)" >>"$work/runs.tsv"
    log "$tool $site run $run: $wall s"
}

for site in "${chosen[@]}"; do
    for run in $(seq "$runs"); do
        timed mtls-mirror "$site" "$run" "$work/out/mtls-mirror-$site"
        timed wget2 "$site" "$run" "$work/out/wget2-$site"
    done
    python3 Benchmarks/linkcheck.py "$work/out/mtls-mirror-$site/$site/current" --exclude _mirror \
        --origin "https://127.0.0.1:$tool_port/$(scope_prefix "$site")" >"$work/mtls-mirror-$site.check"
    # wget2 names the folder after the host (with the port on some versions).
    wget2_root=$(compgen -G "$work/out/wget2-$site/127.0.0.1*" | head -n 1 || true)
    python3 Benchmarks/linkcheck.py "${wget2_root:-$work/out/wget2-$site}" \
        --origin "https://127.0.0.1:$tool_port/$(scope_prefix "$site")" >"$work/wget2-$site.check"
done

if [ "$latency" -gt 0 ]; then echo "Through $origin_proxy_name, round trip ≈ $latency ms."; else echo "Loopback, straight to nginx."; fi
echo
python3 - "$work" "${chosen[@]}" <<'PY'
import json, os, statistics, sys
work, sites = sys.argv[1], sys.argv[2:]
rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(work, "runs.tsv")) if line.strip()]
def runs(tool, site):
    return [(float(r[3]), int(r[4]) / 1024, int(r[5])) for r in rows if r[0] == tool and r[1] == site]
def html_megabytes(site):
    total = 0
    for folder, _, files in os.walk(os.path.join(work, "www", site)):
        total += sum(os.path.getsize(os.path.join(folder, f)) for f in files if f.endswith(".html"))
    return total / 1e6
print("| site | HTML | tool | wall s (median) | vs wget2 | peak RSS MiB | vs wget2 | requests | local refs resolved | in-scope refs to origin |")
print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
for site in sites:
    base = runs("wget2", site)
    base_wall = statistics.median(r[0] for r in base)
    base_rss = max(r[1] for r in base)
    for tool in ("mtls-mirror", "wget2"):
        measured = runs(tool, site)
        wall = statistics.median(r[0] for r in measured)
        rss = max(r[1] for r in measured)
        check = json.load(open(os.path.join(work, "%s-%s.check" % (tool, site))))
        print("| %s | %.1f MB | %s | %.3f | %.2f× | %.1f | %.2f× | %d | %.2f %% (%d/%d) | %d |" % (
            site, html_megabytes(site), tool, wall, wall / base_wall, rss, rss / base_rss, measured[-1][2],
            check["resolvedPercent"], check["resolved"], check["local"], check["origin"]))
PY
echo
echo "Wall times per run (s): $(awk -F'\t' '{printf "%s/%s %s; ", $1, $2, $4}' "$work/runs.tsv")"
