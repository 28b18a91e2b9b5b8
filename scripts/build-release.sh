#!/usr/bin/env bash
# Builds the release binary the way every script runs it, and prints its path.
#
# On Linux the Swift runtime and Foundation are linked statically (--static-swift-stdlib): the
# linker keeps only what the tool uses, which saves about 4 MiB of resident memory and the
# start-up relocation of the runtime's shared libraries (figures in BENCHMARKS.md). The binary
# then depends only on the system's libcurl and libxml2 (both opened at run time), OpenSSL, libp11, zlib, libdeflate, Brotli, SQLite, libc and the C++ runtime (libstdc++,
# libgcc_s) under Swift's own runtime; scripts/package-deb.sh turns it into a .deb. Elsewhere the default
# (shared) linking is used.
#
# Usage: scripts/build-release.sh [--scratch-path DIR]   build output goes to stderr, the path to stdout
#   --scratch-path DIR   build in DIR instead of .build (scripts/package-deb.sh uses it from inside
#                        `swift test`, which holds the lock of .build)
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product mtls-mirror "$@")
# With the runtime linked in there is nothing of Swift's to find next to the binary: no
# `$ORIGIN` run path, which sent the loader to look for libssl in the binary's folder first.
[ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib --disable-local-rpath)
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/mtls-mirror"
