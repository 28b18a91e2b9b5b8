#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each one for a bounded time
# over a scratch copy of its committed corpus (Tests/Fuzz/Corpora/<target>/), so the
# committed corpus never grows by itself. Stops with a non-zero status when a target crashes
# or breaks its invariant, and prints the path of the saved crash input.
#
# Usage: scripts/fuzz.sh [--seconds N] [--keep DIR] [target...]
#   --seconds N   run each target for N seconds (default 30)
#   --keep DIR    keep the grown corpora and crash inputs in DIR (default: a temporary folder,
#                 kept only when something crashed)
#   target        url-path, html-rewrite, css, srcset, http-request (default: all)
#
# Reproduce a crash:  .build/fuzz/debug/fuzz-<target> <crash-file>
# Minimise it:        .build/fuzz/debug/fuzz-<target> -minimize_crash=1 -runs=10000 <crash-file>
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=30
keep=""
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --keep) keep="$2"; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(url-path html-rewrite css srcset http-request)

export MTLS_MIRROR_FUZZ=1
scratch=.build/fuzz
build_flags=(--scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address)
start=$(date +%s)
for target in "${targets[@]}"; do
    [ -d "Tests/Fuzz/Corpora/$target" ] || { echo "fuzz: no corpus folder Tests/Fuzz/Corpora/$target" >&2; exit 2; }
    echo "== fuzz: building fuzz-$target"
    # ld.gold warns about ASan's local symbols on every link; those lines are noise.
    swift build "${build_flags[@]}" --product "fuzz-$target" 2>&1 | grep -v "Cannot export local symbol" || true
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz: build of fuzz-$target failed" >&2; exit 1; }
done
bin=$(swift build "${build_flags[@]}" --show-bin-path)
echo "fuzz: built in $(( $(date +%s) - start )) s"

work=${keep:-$(mktemp -d /tmp/mtls-mirror-fuzz.XXXXXX)}
mkdir -p "$work"
failed=()
for target in "${targets[@]}"; do
    corpus="$work/corpus-$target"
    artifacts="$work/crashes-$target/"
    mkdir -p "$corpus" "$artifacts"
    cp "Tests/Fuzz/Corpora/$target/"* "$corpus/"
    log="$work/fuzz-$target.log"
    echo "== fuzz: fuzz-$target for ${seconds}s (corpus $(ls "$corpus" | wc -l) files)"
    # ASan: report leaks off (libxml2/OpenSSL keep global caches), abort on error.
    set +e
    # Swift's own crash backtracer is off: it reads foreign stack memory, which ASan reports.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 "$bin/fuzz-$target" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" >"$log" 2>&1
    status=$?
    set -e
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^Done ' "$log" | sed 's/^/  /' || true
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        echo "fuzz: fuzz-$target FAILED (exit $status); last lines of $log:" >&2
        grep -E 'invariant broken|evidence:|ERROR: AddressSanitizer|ERROR: libFuzzer|SUMMARY' "$log" | head -20 >&2 || true
        for crash in "$artifacts"*; do
            [ -e "$crash" ] && echo "fuzz: crash input saved at $crash (reproduce: $bin/fuzz-$target $crash)" >&2
        done
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}; logs and inputs kept in $work" >&2
    exit 1
fi
[ -n "$keep" ] || rm -rf "$work"
echo "fuzz: all ${#targets[@]} target(s) ran ${seconds}s each without a crash ($(( $(date +%s) - start )) s in total)"
