#!/usr/bin/env bash
# Installs the Debian packages that mtls-mirror's build and tests need. Idempotent: it calls
# apt-get only when something is missing, so a second run does nothing.
#
# Usage: scripts/install-deps.sh [--bench]
#   --bench   also install the benchmark peers (wget, wget2, wrk, hyperfine) and GNU time
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libcurl4-openssl-dev libxml2-dev libssl-dev zlib1g-dev libdeflate-dev libbrotli-dev libsqlite3-dev libstdc++-12-dev libp11-dev p11-kit-modules softhsm2 opensc squid pkg-config nginx apache2-bin openssl ca-certificates curl chromium fonts-dejavu-core python3 python3-venv util-linux)
# Packaging (issue #28): the .deb's tools (dpkg-deb, dpkg-shlibdeps, strip, lintian) and the shells
# whose completion scripts the tests load.
packages+=(dpkg-dev binutils lintian bash zsh fish)
if [ "${1:-}" = "--bench" ]; then
    packages+=(wget wget2 wrk hyperfine iproute2 time)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# nginx's Debian package may start a system instance on port 80; the tests start their own
# instances on free loopback ports and do not need it.
if ! command -v swift >/dev/null 2>&1; then
    echo "install-deps: the Swift 6 toolchain is not on PATH; install it from swift.org first" >&2
    exit 1
fi

# The archivists' and operators' Python tools (warcio, cdxj-indexer, wacz, pywb,
# kubernetes-validate) that the tests check the output with, in a private virtual environment
# outside the repository, so that a clean clone reuses it. Reinstalled only when the pinned
# list changes.
venv=${MTLS_MIRROR_VENV:-$HOME/.cache/mtls-mirror/venv}
stamp="$venv/.requirements"
wanted=$(cat scripts/python-requirements.txt scripts/python-constraints.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "install-deps: installing the Python test tools into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r scripts/python-requirements.txt -c scripts/python-constraints.txt
    echo "$wanted" >"$stamp"
fi
# kubernetes-validate gets an environment of its own: it needs jsonschema >= 4.18, which
# frictionless (under wacz) forbids; see scripts/python-requirements-kubernetes.txt.
kvenv="$venv-kubernetes"
kstamp="$kvenv/.requirements"
kwanted=$(cat scripts/python-requirements-kubernetes.txt scripts/python-constraints-kubernetes.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$kstamp" 2>/dev/null)" != "$kwanted" ]; then
    echo "install-deps: installing kubernetes-validate into $kvenv" >&2
    python3 -m venv "$kvenv"
    "$kvenv/bin/pip" install -q --disable-pip-version-check -r scripts/python-requirements-kubernetes.txt -c scripts/python-constraints-kubernetes.txt
    echo "$kwanted" >"$kstamp"
fi
