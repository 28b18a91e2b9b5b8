#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and/or ThreadSanitizer, each in its own scratch
# folder (.build/asan, .build/tsan) so that the normal .build stays as it is.
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
    kind_skip=()
    case "$kind" in
        address) scratch=.build/asan ;;
        thread) scratch=.build/tsan ;;
        *) echo "sanitizers: unknown sanitizer $kind (address or thread)" >&2; exit 2 ;;
    esac
    start=$(date +%s)
    echo "== sanitizers: building the tests with --sanitize=$kind"
    # ld.gold warns about the sanitizers' local symbols on every link; those lines are noise.
    swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" 2>&1 | grep -v "Cannot export local symbol" || true
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "sanitizers: $kind build failed" >&2; exit 1; }
    built=$(date +%s)
    echo "== sanitizers: running the tests under $kind (built in $((built - start)) s)"
    log="$scratch/sanitizer-test-output.txt"
    # Swift's crash backtracer is off: it reads foreign stack memory, which ASan reports.
    # Leak checking is off: libxml2, OpenSSL and curl keep process-wide caches on purpose.
    set +e
    SWIFT_BACKTRACE=enable=no \
    ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1$( [ -f "$supp_dir/address.supp" ] && echo ":suppressions=$supp_dir/address.supp")${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1$( [ -f "$supp_dir/thread.supp" ] && echo ":suppressions=$supp_dir/thread.supp")${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
        swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" --no-parallel "${filter[@]}" "${skip[@]}" ${kind_skip[@]+"${kind_skip[@]}"} >"$log" 2>&1
    status=$?
    set -e
    tail -5 "$log"
    if [ "$status" -ne 0 ] || grep -q "ERROR: AddressSanitizer\|WARNING: ThreadSanitizer" "$log"; then
        echo "sanitizers: $kind run FAILED (exit $status); reports:" >&2
        grep -n -A25 "ERROR: AddressSanitizer\|WARNING: ThreadSanitizer" "$log" | head -80 >&2 || true
        grep -E "✘|error:" "$log" | head -20 >&2 || true
        echo "sanitizers: full output in $log" >&2
        exit 1
    fi
    echo "sanitizers: $kind passed ($(( $(date +%s) - start )) s: build $((built - start)) s, tests $(( $(date +%s) - built )) s)"
done
