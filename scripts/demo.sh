#!/usr/bin/env bash
# The README's first command: installs what is missing, builds mtls-mirror in release mode, and
# runs `mtls-mirror demo`, which generates a throwaway PKI, starts an embedded origin that
# REQUIRES a client certificate, mirrors it into output/demo, and serves the copy on
# http://127.0.0.1:8080/ (the URL is printed). Ctrl-C stops everything.
#
# Idempotent: install-deps.sh installs only what is missing, the build is incremental, and
# each run regenerates the PKI and publishes a fresh snapshot of the demo site.
#
# Usage: scripts/demo.sh [demo options]      e.g. scripts/demo.sh --live --port 9000
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bin=$(bash scripts/build-release.sh)
exec "$bin" demo "$@"
