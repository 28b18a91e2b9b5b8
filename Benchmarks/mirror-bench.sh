#!/usr/bin/env bash
# Mirrors one generated site behind client-certificate TLS with mtls-mirror, wget and wget2,
# N times each, and prints Markdown tables (median wall time, peak RSS, requests, files, link
# quality, ratios vs wget2) ready to paste into BENCHMARKS.md. See Benchmarks/README.md.
#
# Usage: Benchmarks/mirror-bench.sh [options]
#   --pages N            pages in the generated site (default 2000)
#   --seed N             the generator's seed: another site of the same kind (default: its own)
#   --runs N             runs per tool; the table shows the median wall time (default 3)
#   --jobs N             wget2 --max-threads (default 16)
#   --mtls-jobs N        mtls-mirror --jobs (default: none given, so mtls-mirror's own default)
#   --latency MS         origin round trip ≈ MS: tc netem in a network namespace when the kernel
#                        has sch_netem (needs root), otherwise a delay proxy: Benchmarks/delay-proxy.c
#                        (BENCH_DELAY_PROXY=python, or no C compiler: Benchmarks/delay-proxy.py)
#   --latency-proxy      always use the delay proxy (also with --latency 0: the proxy's overhead)
#   --netns              use the network namespace without added delay (needs root)
#   --http1              the origin speaks HTTP/1.1 only (no `http2` on nginx's listen line)
#   --refresh            time an unchanged refresh: each tool mirrors once (not timed), then runs
#                        again on the same output (timed); plus a curl --parallel revalidation baseline
#   --change PCT         with --refresh: before each refresh, change PCT % of the site's HTML
#                        files on the origin (a comment appended), then check in nginx's log that
#                        the refresh downloaded exactly the URLs of those files again (200) and
#                        revalidated the rest (304)
#   --kills N            with --refresh: afterwards, start N more mtls-mirror refreshes (each after
#                        changing --change % of the pages, 5 by default) and SIGKILL each at a random
#                        point of its run; after every kill, check that the served snapshot is complete
#                        and matches its manifest
#   --parallel-max N     curl baseline: transfers at a time (default 32)
#   --fetch-floor        mirror mode: after each round, also time fetching every reachable URL of
#                        the site, all known in advance, 256 at a time, bodies discarded: with
#                        mtls-mirror's own HTTP engine (Benchmarks/fetch-floor, built here) and with
#                        curl --parallel --http2. What fetching alone costs on this machine, with
#                        nothing to discover, parse or write
#   --floor-jobs N       with --fetch-floor: transfers at a time for both floors (default 256)
#   --warc               mirror mode: also run mtls-mirror with --warc and wget with --warc-file, in
#                        the same rounds, and print the "Archive output" table: the wall time with
#                        --warc against without, and the archive's size against wget's
#   --tools LIST         comma-separated subset of mtls-mirror,wget,wget2 (default all three)
#   --timeout S          wall-clock limit per tool run (default 900)
#   --mtls-mirror-bin P  use this binary instead of building with scripts/build-release.sh
#   --no-build           do not build; use the release binary if it exists
#   --meta-dir NAME      mtls-mirror's bookkeeping folder in a snapshot (default _mirror)
#   --keep               keep the work folder (site, PKI, mirrors, logs) and print its path
#   --work-parent DIR    make the work folder in DIR (default /tmp): e.g. a freshly made ext4
#                        file system, free of the inode-allocation penalty that a recent mass
#                        deletion leaves behind (see Benchmarks/HISTORY.md)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

warc=0 fetch_floor=0 floor_jobs=256 pages=2000 seed="" runs=3 jobs=16 mtls_jobs="" latency=0 netns=0 use_proxy=0 refresh=0 change_pct=0 kills=0 parallel_max=32 timeout_s=900 keep=0 build=1
bin="" tools="mtls-mirror,wget,wget2" meta_dir=_mirror work_parent=/tmp
while [ $# -gt 0 ]; do
    case "$1" in
        --pages) pages=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --mtls-jobs) mtls_jobs=$2; shift 2 ;;
        --latency) latency=$2; shift 2 ;;
        --latency-proxy) use_proxy=1; shift ;;
        --netns) netns=1; shift ;;
        --http1) origin_http2=""; shift ;;
        --refresh) refresh=1; shift ;;
        --change) change_pct=$2; shift 2 ;;
        --kills) kills=$2; shift 2 ;;
        --parallel-max) parallel_max=$2; shift 2 ;;
        --fetch-floor) fetch_floor=1; shift ;;
        --floor-jobs) floor_jobs=$2; shift 2 ;;
        --tools) tools=$2; shift 2 ;;
        --timeout) timeout_s=$2; shift 2 ;;
        --mtls-mirror-bin) bin=$2; build=0; shift 2 ;;
        --no-build) build=0; shift ;;
        --meta-dir) meta_dir=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --work-parent) work_parent=$2; shift 2 ;;
        --warc) warc=1; shift ;;
        -h|--help) sed -n '2,46p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "mirror-bench: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ "$runs" -ge 1 ] 2>/dev/null || { echo "mirror-bench: --runs needs a positive number" >&2; exit 2; }
log() { echo "mirror-bench: $*" >&2; }
has_tool() { case ",$tools," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

bash scripts/install-deps.sh --bench

work=$(mktemp -d "$work_parent/mtls-mirror-bench.XXXXXX")
source Benchmarks/origin-lib.sh
ns="mbench$$" veth_host="mbh$$" ns_made=0
cleanup() {
    set +e
    origin_cleanup
    if [ "$ns_made" = 1 ]; then
        ip link del "$veth_host" 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    fi
    if [ "$keep" = 1 ]; then log "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# MARK: the site and the PKI
log "generating a site of $pages pages"
seed_args=()
[ -n "$seed" ] && seed_args=(--seed "$seed")
python3 scripts/gen-site.py "$work/www" --pages "$pages" "${seed_args[@]}" >/dev/null
printf 'User-agent: *\nAllow: /\n' >"$work/www/robots.txt"
bash scripts/gen-test-pki.sh "$work/pki" >/dev/null
pki=$work/pki

# MARK: the network
# netem_works: whether a qdisc netem can be added (in a throwaway namespace, so nothing leaks).
netem_works() {
    [ "$(id -u)" -eq 0 ] && command -v tc >/dev/null && command -v ip >/dev/null || return 1
    local probe="mbprobe$$" ok=1
    ip netns add "$probe" 2>/dev/null || return 1
    ip netns exec "$probe" tc qdisc add dev lo root netem delay 1ms 2>/dev/null && ok=0
    ip netns del "$probe" 2>/dev/null
    return $ok
}
if [ "$latency" != 0 ] && [ "$use_proxy" = 0 ] && [ "$netns" = 0 ]; then
    if netem_works; then
        netns=1
    else
        use_proxy=1
        log "tc netem is not available here (no root, or no sch_netem): using the delay proxy"
    fi
elif [ "$latency" != 0 ] && [ "$netns" = 1 ] && [ "$use_proxy" = 0 ] && ! netem_works; then
    log "--netns with --latency needs tc netem, which is not available here; drop --netns to use the proxy"
    exit 3
fi
[ "$use_proxy" = 1 ] && netns=0

nsexec=()
if [ "$netns" = 1 ]; then
    [ "$(id -u)" -eq 0 ] || { log "--netns and netem latency need root"; exit 2; }
    host=10.213.0.2 port=8443
    ip netns add "$ns"
    ns_made=1
    ip link add "$veth_host" type veth peer name "mbn$$"
    ip link set "mbn$$" netns "$ns"
    ip addr add 10.213.0.1/30 dev "$veth_host"
    ip link set "$veth_host" up
    ip netns exec "$ns" ip addr add "$host/30" dev "mbn$$"
    ip netns exec "$ns" ip link set "mbn$$" up
    ip netns exec "$ns" ip link set lo up
    if [ "$latency" != 0 ]; then
        half=$(python3 -c "print($latency / 2)")
        tc qdisc add dev "$veth_host" root netem delay "${half}ms"
        ip netns exec "$ns" tc qdisc add dev "mbn$$" root netem delay "${half}ms"
    fi
    nsexec=(ip netns exec "$ns")
    # A server certificate for the namespace address, signed by the test PKI's server-int CA.
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$pki/bench-server.key" 2>/dev/null
    openssl req -new -key "$pki/bench-server.key" -subj "/CN=$host" -out "$work/bench-server.csr" 2>/dev/null
    printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:%s\n' \
        "$host" >"$work/bench-server.ext"
    openssl x509 -req -in "$work/bench-server.csr" -CA "$pki/server-int.pem" -CAkey "$pki/server-int.key" \
        -CAcreateserial -CAserial "$work/bench-server.srl" -days 30 -sha256 -extfile "$work/bench-server.ext" \
        -out "$pki/bench-server.pem" 2>/dev/null
    cat "$pki/bench-server.pem" "$pki/server-int.pem" >"$pki/bench-server-chain.pem"
    server_chain=$pki/bench-server-chain.pem server_key=$pki/bench-server.key
else
    host=127.0.0.1 port=$(origin_free_port)
    server_chain=$pki/server-chain.pem server_key=$pki/server.key
fi

# MARK: nginx (and the delay proxy in front of it)
origin_write_nginx_conf "$host" "$port" "$server_chain" "$server_key" "$pki" "$work/www"
origin_start_nginx "${nsexec[@]}"
tls=(--cacert "$pki/server-root.pem" --cert "$pki/client-chain.pem" --key "$pki/client.key")
origin_wait_ready "https://$host:$port/" "${tls[@]}" ||
    { log "nginx did not answer https://$host:$port/; see $work/logs/error.log"; keep=1; exit 1; }
client_port=$port
if [ "$use_proxy" = 1 ]; then
    half=$(python3 -c "print($latency / 2)")
    origin_start_proxy "$host:$port" "$half" || { log "$origin_proxy_name did not start; see $work/logs"; keep=1; exit 1; }
    client_port=$origin_proxy_port
    log "$origin_proxy_name on port $client_port, ${half} ms each way"
fi
origin="https://$host:$client_port/"
origin_wait_ready "$origin" "${tls[@]}" || { log "no answer through $origin"; keep=1; exit 1; }
measured=$(curl -s -o /dev/null -w '%{time_connect} %{time_appconnect} %{time_total}' --max-time 10 "${tls[@]}" "$origin")
log "origin $origin is up (connect / TLS done / total: $measured s)"

# MARK: the mirror tools
mtls_ready=0 mtls_note="" mtls_refresh=0
if has_tool mtls-mirror; then
    if [ -z "$bin" ]; then
        if [ "$build" = 1 ]; then
            log "building mtls-mirror (scripts/build-release.sh)"
            bin=$(bash scripts/build-release.sh 2>"$work/logs/swift-build.log") || { log "release build failed; see the log"; keep=1; exit 1; }
        else
            bin=$repo/.build/release/mtls-mirror
        fi
    fi
    if [ ! -x "$bin" ]; then
        mtls_note="no binary at $bin"
    elif ! "$bin" mirror --help >/dev/null 2>&1; then
        mtls_note="$bin has no 'mirror' command yet"
    else
        mtls_ready=1
        "$bin" mirror --help 2>/dev/null | grep -q -- --full && mtls_refresh=1
    fi
    [ "$mtls_ready" = 1 ] || log "skipping mtls-mirror: $mtls_note"
    if [ "$refresh" = 1 ] && [ "$mtls_ready" = 1 ] && [ "$mtls_refresh" = 0 ]; then
        log "skipping mtls-mirror in --refresh: $bin has no 'refresh' command yet"
        mtls_note="no 'refresh' command yet"
    fi
fi
floor_bin=""
if [ "$fetch_floor" = 1 ]; then
    # Built as the product is (scripts/build-release.sh), so that both link the same way.
    log "building Benchmarks/fetch-floor"
    floor_flags=(-c release --package-path Benchmarks/fetch-floor)
    [ "$(uname -s)" = Linux ] && floor_flags+=(--static-swift-stdlib)
    swift build "${floor_flags[@]}" >"$work/logs/fetch-floor-build.log" 2>&1 ||
        { log "the fetch-floor build failed; see $work/logs/fetch-floor-build.log"; keep=1; exit 1; }
    floor_bin=$(swift build "${floor_flags[@]}" --show-bin-path)/fetch-floor
fi
export BENCH_P12_PASSWORD
BENCH_P12_PASSWORD=$(cat "$pki/password.txt")
# With -N, wget needs the unconverted originals (-K) to compare timestamps after --convert-links.
wget_refresh_flags=()
[ "$refresh" = 1 ] && wget_refresh_flags=(--backup-converted)
common_wget=(--mirror --page-requisites --convert-links --adjust-extension --no-parent --no-hsts
    "${wget_refresh_flags[@]}"
    --certificate="$pki/client-chain.pem" --private-key="$pki/client.key" --ca-certificate="$pki/server-root.pem")
mtls_tls=(--cert "$pki/client.p12" --pass-env BENCH_P12_PASSWORD --cacert "$pki/server-root.pem")
# mtls-mirror runs with its own defaults unless --mtls-jobs is given.
[ -n "$mtls_jobs" ] && mtls_tls+=(--jobs "$mtls_jobs")

# tool_command TOOL OUT PHASE: the command line of one run (PHASE mirror or refresh) in COMMAND.
tool_command() {
    local tool=$1 out=$2 phase=$3
    case "$tool" in
        mtls-mirror)
            # A second `mirror` of the same site is the incremental refresh (`refresh` runs
            # config.json sites; this is the same code path without a config file).
            COMMAND=("$bin" mirror "$origin" -o "$out" --name bench "${mtls_tls[@]}") ;;
        mtls-mirror-warc) COMMAND=("$bin" mirror "$origin" -o "$out" --name bench --warc "${mtls_tls[@]}") ;;
        wget) COMMAND=(wget "${common_wget[@]}" --no-verbose -P "$out" "$origin") ;;
        # wget's WARC 1.0 (gzip per record, with its own CDX), in the same folder as its mirror.
        wget-warc) COMMAND=(wget "${common_wget[@]}" --no-verbose --warc-file="$out/bench" --warc-cdx -P "$out" "$origin") ;;
        wget2) COMMAND=(wget2 "${common_wget[@]}" --max-threads="$jobs" --no-verbose --progress=none -P "$out" "$origin") ;;
    esac
}
# mirror_root TOOL OUT: the folder that holds the mirrored site.
mirror_root() {
    local tool=$1 out=$2 root
    if [ "$tool" = mtls-mirror ] || [ "$tool" = mtls-mirror-warc ]; then
        root=$out/bench/current
    else
        root=$(compgen -G "$out/$host*" | head -n 1 || true)
    fi
    [ -n "$root" ] && [ -d "$root" ] ||
        root=$(find "$out" -name index.html -printf '%d %h\n' 2>/dev/null | sort -n | head -n 1 | cut -d' ' -f2-)
    echo "$root"
}

# change_pages TAG LIST: appends a comment naming TAG to change_pct % of the site's HTML files
# (every Nth, from an offset that differs per TAG) and writes their paths to LIST.
change_pages() {
    python3 - "$work/www" "${3:-$change_pct}" "$1" "$2" <<'PY'
import os, sys, zlib
root, pct, tag, listing = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
pages = []
for folder, _, files in os.walk(root):
    for name in files:
        path = os.path.join(folder, name)
        rel = os.path.relpath(path, root)
        if rel.startswith("_") or name == "robots.txt":
            continue
        with open(path, "rb") as f:
            head = f.read(512).lower()
        if b"<!doctype html" in head or b"<html" in head:
            pages.append(rel)
pages.sort()
step = max(1, round(100 / pct))
offset = zlib.crc32(tag.encode()) % step
chosen = pages[offset::step]
for rel in chosen:
    with open(os.path.join(root, rel), "ab") as f:
        f.write(b"\n<!-- changed for the refresh benchmark: " + tag.encode() + b" -->\n")
with open(listing, "w") as out:
    out.write("\n".join(chosen) + "\n")
print("mirror-bench: changed %d of %d HTML files (%s %%)" % (len(chosen), len(pages), sys.argv[2]), file=sys.stderr)
PY
}

# check_changed LIST FROM: from nginx's log since offset FROM, whether the URLs answered 200 are
# exactly the URLs of the files in LIST (query strings and `dir/` → `dir/index.html` mapped).
check_changed() {
    python3 - "$work/www" "$1" "$work/logs/access.log" "$2" <<'PY'
import os, sys
from urllib.parse import unquote, urlsplit
root, listing, log, start = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
changed = set(l for l in open(listing).read().split("\n") if l)
def file_of(target):
    path = unquote(urlsplit(target).path).lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    return os.path.normpath(path)
fetched, ok, revalidated, other, missed, extra = set(), 0, 0, 0, set(), set()
with open(log, "rb") as f:
    f.seek(start)
    for line in f.read().decode("utf-8", "replace").splitlines():
        parts = line.split(" ", 2)
        if len(parts) < 3 or not parts[0].isdigit():
            continue
        status, request = int(parts[0]), parts[2].strip('"').split(" ")
        if len(request) < 2 or request[1].startswith("/robots.txt"):
            continue
        target = request[1]
        if status == 200:
            ok += 1
            fetched.add(file_of(target))
            if file_of(target) not in changed:
                extra.add(target)
        elif status == 304:
            revalidated += 1
            if file_of(target) in changed:
                missed.add(target)
        else:
            other += 1
exact = not extra and not missed and changed <= fetched
print("changed %d files; %d URLs answered 200 (%d distinct files), %d answered 304, %d other; exactly the changed "
      "pages downloaded again: %s%s%s" % (len(changed), ok, len(fetched), revalidated, other,
      "yes" if exact else "NO",
      "; downloaded though unchanged e.g. " + ", ".join(sorted(extra)[:3]) if extra else "",
      "; changed but answered 304 e.g. " + ", ".join(sorted(missed)[:3]) if missed else ""))
PY
}

# snapshot_problems DIR: what is wrong with the served snapshot of DIR (one line each; nothing
# when it is complete): every 2xx manifest entry needs its file; documents their original (in
# _mirror/originals.pack through its index, or under _mirror/raw/<sha256>) with that hash; other
# files that hash.
snapshot_problems() {
    python3 - "$1/bench/current" "$meta_dir" <<'PY'
import hashlib, os, sys
root, meta = sys.argv[1], sys.argv[2]
if not os.path.isdir(root):
    print("no current snapshot"); sys.exit()
manifest = os.path.join(root, meta, "manifest.tsv")
if not os.path.exists(manifest) or not os.path.exists(os.path.join(root, meta, "report.json")):
    print("manifest or report missing"); sys.exit()
packed = {}
index = os.path.join(root, meta, "originals.idx")
pack = None
if os.path.exists(index):
    lines = open(index, encoding="utf-8").read().split("\n")
    if lines[0] != "mtls-mirror-originals\t1":
        print("bad originals index header")
    for line in lines[1:]:
        if line:
            sha, offset, length = line.split("\t")
            packed[sha] = (int(offset), int(length))
    pack = open(os.path.join(root, meta, "originals.pack"), "rb")
def original(sha):
    if sha in packed:
        pack.seek(packed[sha][0])
        data = pack.read(packed[sha][1])
        return data if len(data) == packed[sha][1] else None
    path = os.path.join(root, meta, "raw", sha)
    return open(path, "rb").read() if os.path.exists(path) else None
for line in open(manifest, encoding="utf-8"):
    fields = line.rstrip("\n").split("\t")
    if len(fields) < 6 or not fields[0].startswith("http") or not fields[1].startswith("="):
        continue
    if not fields[2].isdigit() or not 200 <= int(fields[2]) <= 299:
        continue
    local, kind, sha = fields[1][1:], fields[3], fields[5][1:]
    document = "text/html" in kind or "text/css" in kind
    if not os.path.exists(os.path.join(root, local)):
        print("missing", local)
        continue
    data = original(sha) if document else open(os.path.join(root, local), "rb").read()
    if data is None:
        print("missing original of", fields[0])
    elif hashlib.sha256(data).hexdigest() != sha:
        print("hash mismatch", fields[0])
PY
}

# kill_rounds OUT: $kills refreshes of OUT, each SIGKILLed at a random point, with the served
# snapshot checked after each; prints a summary line.
kill_rounds() {
    local out=$1 round pid delay damaged=0 published=0 before after duration pct=$change_pct
    tool_command mtls-mirror "$out" refresh
    [ "$pct" != 0 ] || pct=5
    duration=$(awk -F'\t' '$1=="mtls-mirror" && $3=="refresh" {print $5; exit}' "$runs_tsv")
    [ -n "$duration" ] || duration=1
    for round in $(seq "$kills"); do
        change_pages "kill-$round" "$work/changed.kill.$round" "$pct" 2>/dev/null
        sleep 1  # a new clock second for the changed files' validators
        before=$(readlink "$out/bench/current" || true)
        "${COMMAND[@]}" >/dev/null 2>&1 &
        pid=$!
        delay=$(python3 -c "import random; print(round(random.uniform(0, 1.2 * $duration), 3))")
        sleep "$delay"
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        after=$(readlink "$out/bench/current" || true)
        [ "$before" != "$after" ] && published=$((published + 1))
        problems=$(snapshot_problems "$out")
        if [ -n "$problems" ]; then
            damaged=$((damaged + 1))
            log "kill $round after ${delay}s: $(echo "$problems" | head -n 3 | tr '\n' ';')"
        fi
    done
    tool_command mtls-mirror "$out" refresh
    "${COMMAND[@]}" >/dev/null 2>&1 || true
    problems=$(snapshot_problems "$out")
    echo "$kills refreshes SIGKILLed at random points (0–$(python3 -c "print(round(1.2 * $duration, 2))") s, each after changing ${pct} % of the HTML files): $damaged damaged served snapshots; $published of the runs had published before the kill; a normal run afterwards: $([ -z "$problems" ] && echo complete || echo "DAMAGED: $problems")"
}

# curl_baseline RUN: the curl baseline of one run, right after the tools' runs of that round (the
# same minute of this noisy machine): fetch every URL once to learn its ETag (not timed; again
# each round, since --change alters pages), then time the conditional GETs.
curl_baseline() {
    # The URLs are the ones mtls-mirror revalidates (its manifest's 200 entries and robots.txt),
    # so both do the same requests; without an mtls-mirror run, the generator's list.
    # `next` resets per-transfer options, so each group repeats the TLS files and the write-out.
    manifest=$(compgen -G "$work/out/mtls-mirror-*/bench/current/_mirror/manifest.tsv" | head -n 1 || true)
    python3 - "$work/www/_expected.json" "$origin" "$pki" "$work/curl-fetch.cfg" "$manifest" <<'PY'
import json, sys
expected, origin, pki, path, manifest = sys.argv[1:6]
base = origin.rstrip("/")
urls = []
if manifest:
    for line in open(manifest, encoding="utf-8"):
        fields = line.rstrip("\n").split("\t")
        if len(fields) > 2 and fields[2] == "200" and fields[0].startswith(base + "/"):
            urls.append(fields[0])
    urls.append(base + "/robots.txt")
else:
    urls = [base + p for p in json.load(open(expected))["paths"]]
with open(path, "w") as out:
    groups = ['url = "%s"\ngloboff\noutput = "/dev/null"\nwrite-out = "%%{url_effective}\\t%%{http_code}\\t%%header{etag}\\n"\n'
              'cacert = "%s/server-root.pem"\ncert = "%s/client-chain.pem"\nkey = "%s/client.key"\n'
              % (u, pki, pki, pki) for u in urls]
    out.write("next\n".join(groups))
PY
    curl -s --no-progress-meter --parallel --parallel-max "$parallel_max" -K "$work/curl-fetch.cfg" \
        >"$work/etags.tsv" 2>"$work/logs/curl-fetch.err" || true
    revalidate_count=$(python3 - "$work/etags.tsv" "$pki" "$work/curl-revalidate.cfg" <<'PY'
import sys
tsv, pki, path = sys.argv[1:4]
groups = []
for line in open(tsv):
    url, _, rest = line.rstrip("\n").partition("\t")
    status, _, etag = rest.partition("\t")
    if not url:
        continue
    group = 'url = "%s"\ngloboff\noutput = "/dev/null"\n' % url
    if etag:
        group += "header = \"If-None-Match: %s\"\n" % etag.replace("\\", "\\\\").replace('"', '\\"')
    group += 'cacert = "%s/server-root.pem"\ncert = "%s/client-chain.pem"\nkey = "%s/client.key"\n' % (pki, pki, pki)
    groups.append(group)
with open(path, "w") as out:
    out.write("next\n".join(groups))
print(len(groups))
PY
)
    log "curl baseline: $revalidate_count URLs with $(grep -c $'\t200\t.' "$work/etags.tsv" || true) ETags"
    # The reference is HTTP/1.1 with up to N connections: curl 7.88's HTTP/2 --parallel stalls for
    # whole seconds now and then (runs of the same command take 0.05 s or 1.05 s or 2.05 s), so it
    # is shown too, but not used for the ratios.
    timed curl "$1" refresh curl -s --no-progress-meter --parallel --parallel-max "$parallel_max" \
        --http1.1 -K "$work/curl-revalidate.cfg"
    timed curl-h2 "$1" refresh curl -s --no-progress-meter --parallel --parallel-max "$parallel_max" \
        --http2 -K "$work/curl-revalidate.cfg"
}

# fetch_floor_run RUN: times fetching every reachable URL of the site (the generator's list and
# robots.txt), all known in advance, --floor-jobs at a time (default 256), bodies discarded: with mtls-mirror's HTTP
# engine (Benchmarks/fetch-floor) and with curl --parallel over HTTP/2.
fetch_floor_run() {
    if [ ! -s "$work/curl-floor.cfg" ]; then
        python3 - "$work/www/_expected.json" "$origin" "$pki" "$work/curl-floor.cfg" "$work/floor-urls.txt" <<'PY'
import json, sys
expected, origin, pki, path, plain = sys.argv[1:6]
base = origin.rstrip("/")
urls = [base + "/robots.txt"] + [base + p for p in json.load(open(expected))["paths"]]
with open(plain, "w") as out:
    out.write("\n".join(urls) + "\n")
with open(path, "w") as out:
    out.write("next\n".join('url = "%s"\ngloboff\noutput = "/dev/null"\ncacert = "%s/server-root.pem"\n'
                            'cert = "%s/client-chain.pem"\nkey = "%s/client.key"\n' % (u, pki, pki, pki)
                            for u in urls))
PY
    fi
    timed engine-floor "$1" mirror "$floor_bin" "$pki" "$work/floor-urls.txt" "$floor_jobs"
    timed curl-floor "$1" mirror curl -s --no-progress-meter --http2 --parallel --parallel-max "$floor_jobs" -K "$work/curl-floor.cfg"
}

runs_tsv=$work/runs.tsv
: >"$runs_tsv"
# timed LABEL RUN PHASE COMMAND...: runs COMMAND under GNU time and timeout, appends a line to runs.tsv:
# label run phase exit wall-s rss-KiB requests body-bytes 2xx 304 other (from nginx's access log)
# user-s system-s (CPU time of the command and everything it waited for).
timed() {
    local label=$1 run=$2 phase=$3
    shift 3
    local from code elapsed rss user system
    from=$(origin_log_offset)
    # Write out what earlier runs left dirty, untimed: mtls-mirror syncs its snapshot before
    # publishing it, and syncfs(2) writes every dirty page of the file system, so it would
    # otherwise pay for the files the previous tool left unwritten.
    sync
    set +e
    /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" timeout --foreground -k 10 "$timeout_s" "$@" \
        >"$work/logs/$label-$run-$phase.out" 2>"$work/logs/$label-$run-$phase.err"
    code=$?
    set -e
    # GNU time ignores SIGINT and exits normally with 128+signal, so bash would not act on a
    # Ctrl-C by itself: stop here (the EXIT trap cleans up).
    case "$code" in 130|143) log "interrupted"; exit 130 ;; esac
    read -r elapsed rss user system < <(tail -n 1 "$work/time.txt")
    [ "$code" = 124 ] && log "$label timed out after ${timeout_s}s"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$run" "$phase" "$code" "$elapsed" "$rss" \
        "$(origin_log_summary "$from" | tr ' ' '\t')" "$user" "$system" >>"$runs_tsv"
    log "$label run $run $phase: exit $code, ${elapsed} s (CPU ${user} s user, ${system} s system)"
}

# check TOOL OUT: counts and link-checks a finished mirror into $work/TOOL.check.
check() {
    local tool=$1 out=$2 root files=0 bytes=0 json='{}' extra=""
    root=$(mirror_root "$tool" "$out")
    if [ -n "$root" ] && [ -d "$root" ]; then
        files=$(find -L "$root" -path "$root/$meta_dir" -prune -o -type f -print | wc -l)
        bytes=$(du -sbL --exclude="$meta_dir" "$root" | cut -f1)
        json=$(timeout 300 python3 Benchmarks/linkcheck.py "$root" --origin "$origin" --exclude "$meta_dir" \
            --expected "$work/www/_expected.json" || echo '{}')
        [ -f "$root/$meta_dir/manifest.tsv" ] && extra="manifest $(wc -l <"$root/$meta_dir/manifest.tsv") lines"
    fi
    printf '%s\n%s\n%s\n%s\n' "$files" "$bytes" "$json" "$extra" >"$work/$tool.check"
}

# report_bytes OUT: the `bytes` of the newest snapshot's report.json (mtls-mirror), or "".
report_bytes() {
    python3 - "$1/bench/current/$meta_dir/report.json" <<'PY' 2>/dev/null || true
import json, sys
report = json.load(open(sys.argv[1]))
def find(node):
    if isinstance(node, dict):
        if isinstance(node.get("bytes"), int):
            return node["bytes"]
        for value in node.values():
            found = find(value)
            if found is not None:
                return found
    return None
value = find(report)
print("" if value is None else value)
PY
}

selected=()
for tool in mtls-mirror wget wget2; do
    has_tool "$tool" || continue
    if [ "$tool" = mtls-mirror ]; then
        [ "$mtls_ready" = 1 ] || continue
        [ "$refresh" = 1 ] && [ "$mtls_refresh" = 0 ] && continue
    fi
    selected+=("$tool")
    # --warc: each tool's archiving run right after its plain one, in the same round.
    if [ "$warc" = 1 ] && [ "$refresh" = 0 ] && [ "$tool" != wget2 ]; then selected+=("$tool-warc"); fi
done

if [ "$refresh" = 0 ]; then
    # Runs alternate between the tools so that a slow spell of the machine does not hit one tool only.
    # Every run writes into a folder of its own, and no output is deleted until the end: on ext4,
    # files created within a minute or so of a mass deletion in the same block group cost far
    # more (the inode allocator skips recently deleted inodes one by one), which would charge
    # each run for the wipe of the run before it rather than for its own work.
    for run in $(seq "$runs"); do
        for tool in "${selected[@]}"; do
            out=$work/out/$tool-$run
            mkdir -p "$out"
            tool_command "$tool" "$out" mirror
            timed "$tool" "$run" mirror "${COMMAND[@]}"
            [ "$run" = "$runs" ] && check "$tool" "$out"
        done
        [ "$fetch_floor" = 1 ] && fetch_floor_run "$run"
    done
else
    for run in $(seq "$runs"); do
        for tool in "${selected[@]}"; do
            out=$work/out/$tool-$run  # a folder per run, deleted at the end (see above)
            mkdir -p "$out"
            tool_command "$tool" "$out" mirror
            timed "$tool" "$run" initial "${COMMAND[@]}"
            sleep 1 # the refresh must not share the initial run's clock second
            [ "$change_pct" != 0 ] && change_pages "$run-$tool" "$work/changed.$tool.$run"
            tool_command "$tool" "$out" refresh
            [ "$tool" = mtls-mirror ] || tool_command "$tool" "$out" mirror
            from_log=$(origin_log_offset)
            timed "$tool" "$run" refresh "${COMMAND[@]}"
            [ "$change_pct" != 0 ] && check_changed "$work/changed.$tool.$run" "$from_log" >"$work/$tool.change-check.$run"
            if [ "$tool" = mtls-mirror ]; then
                echo "$(report_bytes "$out")" >"$work/mtls-mirror.refresh-bytes.$run"
            fi
        done
        curl_baseline "$run"
    done
    if [ "$kills" -gt 0 ] && [ "$mtls_ready" = 1 ]; then
        kill_rounds "$work/out/mtls-mirror-1" >"$work/mtls-mirror.kills"
    fi
fi

# MARK: the tables
expected_urls=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['paths']))" "$work/www/_expected.json")
network="loopback"
[ "$netns" = 1 ] && network="network namespace, no added delay"
[ "$netns" = 1 ] && [ "$latency" != 0 ] && network="network namespace, tc netem round trip ≈ ${latency} ms"
[ "$use_proxy" = 1 ] && network="loopback through $origin_proxy_name, round trip ≈ ${latency} ms"
[ -z "$origin_http2" ] && network="$network, HTTP/1.1-only origin"
if [ "$warc" = 1 ] && [ "$refresh" = 0 ]; then
    python3 Benchmarks/warc-report.py --work "$work" --runs "$runs" --network "$network" >"$work/warc-report.md" ||
        log "the archive table failed; see $work/warc-report.md"
fi
python3 Benchmarks/bench-report.py --work "$work" --pages "$pages" --expected-urls "$expected_urls" \
    --network "$network" --jobs "$jobs" --mtls-jobs "$mtls_jobs" --runs "$runs" --refresh "$refresh" --change "$change_pct" --parallel-max "$parallel_max" \
    --floor-jobs "$floor_jobs" --latency "$latency" --note "$mtls_note" --connect "$measured"
if [ -s "$work/warc-report.md" ]; then cat "$work/warc-report.md"; fi
