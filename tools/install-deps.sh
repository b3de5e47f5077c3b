#!/usr/bin/env bash
# tools/install-deps.sh: install the Debian packages attn builds and tests with (python3-numpy:
# the lab test, tests/lab/lab.sh), if any are missing.
# Runs apt-get as root, or through sudo when not root. Installs nothing when all are present.
set -euo pipefail
packages=(cmake g++ libcli11-dev libfmt-dev libeigen3-dev doctest-dev python3-numpy)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
