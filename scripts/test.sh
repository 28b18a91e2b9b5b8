#!/usr/bin/env bash
# Runs every test of mtls-mirror: installs what is missing, builds, runs the unit, integration
# (real nginx with client-certificate auth, headless Chromium) and end-to-end tests, then runs
# the README's first command (the demo) in a fresh output folder with a bounded lifetime and
# checks that the demo mirror was built and served, and last runs a bounded fuzz run of each
# libFuzzer target (scripts/fuzz.sh). The other hardening step of issue #7, the tests under
# AddressSanitizer and ThreadSanitizer (scripts/sanitizers.sh, each in its own build folder),
# runs beside all of that from the start, and its report comes at the end.
#
# Usage: scripts/test.sh
#   MTLS_MIRROR_FUZZ_SECONDS=N   seconds per fuzz target (default 30; 0 skips fuzzing)
#   MTLS_MIRROR_SANITIZERS="…"   sanitizers to run (default "address thread"; "none" skips them)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
mkdir -p .build/ci

# The sanitizers' lane starts at once and runs beside everything below: their builds and test
# runs take most of the time, and the serial test runner leaves one of two cores mostly idle. It
# runs in its own session, so that an early exit stops it with everything it started.
sanitizers=${MTLS_MIRROR_SANITIZERS:-address thread}
lane=
cleanup() {
    [ -z "${demo_pid:-}" ] || kill "$demo_pid" 2>/dev/null || true
    [ -z "${work:-}" ] || rm -rf "$work"
    [ -z "$lane" ] || kill -TERM -- "-$lane" 2>/dev/null || true
}
trap cleanup EXIT
if [ "$sanitizers" != none ]; then
    echo "== sanitizers ($sanitizers) in the background; their output is in .build/ci/sanitizers.log"
    # shellcheck disable=SC2086  # a list of words
    setsid bash scripts/sanitizers.sh $sanitizers >.build/ci/sanitizers.log 2>&1 &
    lane=$!
fi

swift build --build-tests
# The release binary, once: the demo runs it, and the packaging tests package it.
bash scripts/build-release.sh >/dev/null
swift test --skip-build --no-parallel 2>&1 | tee .build/test-output.txt
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    # The failures again, last, so that a log cut to its tail still names them.
    echo "== failed tests (exit $status)"
    grep -E '✘|recorded an issue|: error: ' .build/test-output.txt | grep -v '^✘ Test run with' | tail -60 || true
    exit "$status"
fi

echo "== demo (README's first command) with a bounded lifetime"
work=$(mktemp -d /tmp/mtls-mirror-demo-test.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
timeout 300 bash scripts/demo.sh -o "$work/output" --port "$port" --max-requests 3 --exit-after 240 >"$work/demo.out" 2>"$work/demo.err" &
demo_pid=$!
for _ in $(seq 600); do grep -q '^Open http' "$work/demo.out" 2>/dev/null && break; sleep 0.5; done
grep -q '^Open http' "$work/demo.out" || { echo "demo did not start"; cat "$work/demo.err"; exit 1; }
url=$(sed -n 's/^Open \(http[^ ]*\).*/\1/p' "$work/demo.out")
pages=0
for path in "" "index.html"; do
    code=$(curl -s -o "$work/page.html" -w '%{http_code}' "$url$path")
    [ "$code" = 200 ] || { echo "demo served $url$path with HTTP $code"; exit 1; }
    grep -qi '<html' "$work/page.html" || { echo "demo page $url$path is not HTML"; exit 1; }
    pages=$((pages + 1))
done
curl -s -o /dev/null "$url" || true
wait "$demo_pid"
test -f "$work/output/demo/current/index.html" || { echo "no demo mirror at $work/output/demo/current"; exit 1; }
test -f "$work/output/demo/current/_mirror/manifest.tsv" || { echo "no demo manifest"; exit 1; }
grep -q 'https://localhost' "$work/output/demo/current/_mirror/manifest.tsv" || { echo "demo manifest lists no page"; exit 1; }
echo "demo: mirror built in $work/output/demo/current and $pages pages served"

fuzz_seconds=${MTLS_MIRROR_FUZZ_SECONDS:-30}
if [ "$fuzz_seconds" != 0 ]; then
    echo "== fuzz: each target for ${fuzz_seconds}s"
    bash scripts/fuzz.sh --seconds "$fuzz_seconds"
fi
if [ -n "$lane" ]; then
    echo "== sanitizers: waiting for the lane started at the beginning"
    set +e
    wait "$lane"
    lane_status=$?
    set -e
    lane=
    # The lane's log without the builds' progress lines.
    grep -vE '^\[[0-9]+/[0-9]+\] |^(Building for|Build complete|Write swift-version|Planning build)' .build/ci/sanitizers.log || true
    [ "$lane_status" -eq 0 ] || { echo "sanitizers: FAILED (exit $lane_status); the lane's whole output is in .build/ci/sanitizers.log" >&2; exit "$lane_status"; }
fi

