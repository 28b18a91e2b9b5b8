#!/usr/bin/env bash
# Builds the release binary the way every script runs it, and prints its path.
#
# On Linux the Swift runtime and Foundation are linked statically (--static-swift-stdlib): the
# linker keeps only what the tool uses, which saves about 4 MiB of resident memory and the
# start-up relocation of the runtime's shared libraries (figures in BENCHMARKS.md). The C++
# runtime under it (libstdc++) is linked in from GCC's static archive, and SQLite from Debian's
# (Package.swift): neither is loaded at start then. The binary depends only on the system's
# OpenSSL, zlib, libc and libgcc_s, and opens libcurl, libxml2, libp11, libdeflate and Brotli at
# run time; scripts/package-deb.sh turns it into a .deb. Elsewhere the default (shared) linking
# is used.
#
# Usage: scripts/build-release.sh [--scratch-path DIR]   build output goes to stderr, the path to stdout
#   --scratch-path DIR   build in DIR instead of .build (scripts/package-deb.sh uses it from inside
#                        `swift test`, which holds the lock of .build)
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product mtls-mirror "$@")
# With the runtime linked in there is nothing of Swift's to find next to the binary: no
# `$ORIGIN` run path, which sent the loader to look for libssl in the binary's folder first.
if [ "$(uname -s)" = Linux ]; then
    flags+=(--static-swift-stdlib --disable-local-rpath)
    # The C++ runtime under Swift's (libstdc++) is linked in as well: loading the shared one
    # took 1.3 ms of every run's start (README, "The start of a run"). The toolchain's link line asks for
    # `-lstdc++`; a folder searched before GCC's, holding only the static archive, answers it.
    scratch=.build
    args=("$@")
    for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = --scratch-path ] && scratch=${args[i + 1]:-.build}; done
    # The archive GCC's installation holds, as the toolchain's clang (or another compiler) finds it.
    archive=
    for compiler in "$(dirname "$(readlink -f "$(command -v swift)")")/clang" clang gcc cc; do
        archive=$("$compiler" -print-file-name=libstdc++.a 2>/dev/null || true)
        [ -f "$archive" ] && break
    done
    if [ -f "$archive" ]; then
        mkdir -p "$scratch/static-libs"
        ln -sfn "$archive" "$scratch/static-libs/libstdc++.a"
        flags+=(-Xswiftc "-L$(cd "$scratch/static-libs" && pwd)")
    else
        echo "build-release: no libstdc++.a (libstdc++-12-dev): the C++ runtime stays a shared library" >&2
    fi
fi
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/mtls-mirror"
