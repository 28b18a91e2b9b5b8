#!/usr/bin/env bash
# Runs every test of mtls-mirror: installs what is missing, builds, and runs the unit,
# integration (real nginx with client-certificate auth) and end-to-end tests.
#
# Usage: scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build
swift test --no-parallel 2>&1 | tee .build/test-output.txt
