#!/usr/bin/env bash
# tools/install-deps.sh: install the Debian packages attn builds and tests with, if any are missing.
#   build:      cmake g++ libcli11-dev libfmt-dev libeigen3-dev doctest-dev
#   tests:      python3-numpy (the lab test, tests/lab/lab.sh); groff-base (the install test
#               renders the man page)
#   .ci/run:    dpkg-dev and file (cpack's Depends: line, from dpkg-shlibdeps); clang,
#               libclang-rt-dev and llvm (the ASan/UBSan build, libFuzzer, readable stack traces)
# Runs apt-get as root, or through sudo when not root. Installs nothing when all are present.
set -euo pipefail
packages=(cmake g++ libcli11-dev libfmt-dev libeigen3-dev doctest-dev python3-numpy groff-base
          dpkg-dev file clang libclang-rt-dev llvm)
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
