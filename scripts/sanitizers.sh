#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and/or ThreadSanitizer, each in its own scratch
# folder (.build/asan, .build/tsan) so that the normal .build stays as it is. The builds run in
# turn, and each sanitizer's tests start as soon as its build is done, beside the next build; the
# script waits for every run and fails when any failed.
#
# Usage: scripts/sanitizers.sh [address] [thread]     (default: both)
#   MTLS_MIRROR_SANITIZER_FILTER=regex  run only the matching tests (swift test --filter)
#
# Reports of a sanitizer make the run fail (halt_on_error). Suppressions, if any, live in
# scripts/sanitizers/<sanitizer>.supp and may name uninstrumented third-party C libraries
# only, never our own code; each entry says why.
set -euo pipefail
cd "$(dirname "$0")/.."

kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(address thread)
filter=()
[ -n "${MTLS_MIRROR_SANITIZER_FILTER:-}" ] && filter=(--filter "$MTLS_MIRROR_SANITIZER_FILTER")
# HostileOriginTests.peakMemoryIsBounded measures the peak RSS of a crawl against a 256 MiB
# bound; a sanitizer's shadow memory and quarantine inflate RSS by design (ASan measured
# ~310-400 MiB), so that one measurement runs in the normal `swift test` only. Every other
# test, including the rest of the hostile-origin run, runs here.
skip=(--skip 'peakMemoryIsBounded')
# Suites whose time goes to other programs, not to mtls-mirror's code, run in the normal
# `swift test` only, so that the whole CI run stays well under an hour: the packaging suites
# (a release build, dpkg, lintian, a container build), the shells' completion scripts, and the
# runs that mostly wait on purpose (the hostile origin's trickles with every default, the
# politeness and run-budget rate limits). The code they drive runs under the sanitizers in the
# other suites (HostileOriginTests, MirrorCommandTests, the engine and crawler suites).
skip+=(--skip 'DebianPackageTests|DebianInstallTests|ContainerfileTests|ZshAndFishCompletionTests|HostileDefaultsTests|PolitenessTests|RunBudgetTests')
# The large pure-Swift round trips (the manifest at scale, the path mapper over 20,000 URLs, the
# frontier under random schedules) touch no C library and no thread of their own; they are
# the slowest suites under the sanitizers and run in the normal `swift test`.
skip+=(--skip 'ManifestTests|PathMapperTests|FrontierScaleTests')
# AllocatorPolicyTests check glibc's allocator itself (where a large block comes from, what
# malloc_trim gives back); under a sanitizer, malloc and free are the sanitizer's own.
skip+=(--skip 'AllocatorPolicyTests')
supp_dir=$PWD/scripts/sanitizers
for kind in "${kinds[@]}"; do
    case "$kind" in
        address|thread) ;;
        *) echo "sanitizers: unknown sanitizer $kind (address or thread)" >&2; exit 2 ;;
    esac
done

scratch_of() { case "$1" in address) echo .build/asan ;; thread) echo .build/tsan ;; esac; }

# A process and all its descendants, signalled leaves first (a test run left behind by an
# early exit would hold the machine).
kill_tree() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
    kill "$1" 2>/dev/null || true
}

# Runs the tests of one sanitizer's build; its output goes to that build's log, and its status to
# a file beside it (the loop below starts it in the background).
run_tests() {
    local kind=$1 scratch=$2
    local log="$scratch/sanitizer-test-output.txt" started
    started=$(date +%s)
    # Swift's crash backtracer is off: it reads foreign stack memory, which ASan reports.
    # Leak checking is off: libxml2, OpenSSL and curl keep process-wide caches on purpose.
    set +e
    SWIFT_BACKTRACE=enable=no \
    ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1$( [ -f "$supp_dir/address.supp" ] && echo ":suppressions=$supp_dir/address.supp")${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1$( [ -f "$supp_dir/thread.supp" ] && echo ":suppressions=$supp_dir/thread.supp")${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
        swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" --no-parallel "${filter[@]}" "${skip[@]}" >"$log" 2>&1
    echo "$? $(( $(date +%s) - started ))" >"$scratch/sanitizer-test-status"
}

# The builds run one after the other, and each sanitizer's tests start as soon as its build is
# done, beside the next build: the test runner is serial and leaves one of two cores mostly idle.
# A build beside a test run yields to it (nice), so that the tests' own timeouts see the machine
# they would see alone as nearly as can be. ThreadSanitizer's run is the longest, so it goes first.
ordered=()
for kind in thread address; do
    for wanted in "${kinds[@]}"; do [ "$wanted" = "$kind" ] && { ordered+=("$kind"); break; }; done
done
declare -A runner built_in
trap 'for pid in "${runner[@]}"; do kill_tree "$pid"; done' EXIT
build_nice=()
for kind in "${ordered[@]}"; do
    scratch=$(scratch_of "$kind")
    rm -f "$scratch/sanitizer-test-status"
    start=$(date +%s)
    echo "== sanitizers: building the tests with --sanitize=$kind"
    # ld.gold warns about the sanitizers' local symbols on every link; those lines are noise.
    ${build_nice[@]+"${build_nice[@]}"} swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" 2>&1 | grep -v "Cannot export local symbol" || true
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "sanitizers: $kind build failed" >&2; exit 1; }
    built_in[$kind]=$(( $(date +%s) - start ))
    echo "== sanitizers: running the tests under $kind in the background (built in ${built_in[$kind]} s; output in $scratch/sanitizer-test-output.txt)"
    run_tests "$kind" "$scratch" &
    runner[$kind]=$!
    build_nice=(nice -n 10)
done

failed=0
for kind in "${ordered[@]}"; do
    scratch=$(scratch_of "$kind")
    log="$scratch/sanitizer-test-output.txt"
    wait "${runner[$kind]}" || true
    unset "runner[$kind]"
    read -r status seconds <"$scratch/sanitizer-test-status" 2>/dev/null || { status=1; seconds=?; }
    echo "== sanitizers: $kind"
    tail -5 "$log"
    if [ "$status" -ne 0 ] || grep -q "ERROR: AddressSanitizer\|WARNING: ThreadSanitizer" "$log"; then
        echo "sanitizers: $kind run FAILED (exit $status); reports:" >&2
        grep -n -A25 "ERROR: AddressSanitizer\|WARNING: ThreadSanitizer" "$log" | head -80 >&2 || true
        grep -E "✘|error:" "$log" | head -20 >&2 || true
        echo "sanitizers: full output in $log" >&2
        failed=1
        continue
    fi
    echo "sanitizers: $kind passed (build ${built_in[$kind]} s, tests $seconds s)"
done
exit "$failed"
