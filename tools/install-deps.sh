#!/usr/bin/env bash
# tools/install-deps.sh: install the Debian packages attn needs, if any are missing.
# What it is not: a build step (it only runs apt-get), or needed when the packages are there.
#   (default)  building attn:  cmake g++ libcli11-dev libfmt-dev libeigen3-dev doctest-dev
#              (doctest-dev is one header; CMake's configure step looks for it)
#   --deb      adds what `cpack -G DEB` needs: dpkg-dev and file (the Depends: line, from
#              dpkg-shlibdeps)
#   --tests    adds what the test suite needs: python3-numpy (the lab test, tests/lab/lab.sh) and
#              groff-base (the install test renders the man page)
#   --ci       what .ci/run needs: --tests and --deb, and clang, libclang-rt-dev and llvm (the
#              ASan/UBSan build, libFuzzer, readable stack traces: about 250 MB)
# Runs apt-get as root, or through sudo when not root. Installs nothing when all are present.
set -euo pipefail
packages=(cmake g++ libcli11-dev libfmt-dev libeigen3-dev doctest-dev)
deb=(dpkg-dev file)
tests=(python3-numpy groff-base)
ci=(clang libclang-rt-dev llvm)
for arg in "$@"; do
  case $arg in
    --deb) packages+=("${deb[@]}") ;;
    --tests) packages+=("${tests[@]}") ;;
    --ci) packages+=("${deb[@]}" "${tests[@]}" "${ci[@]}") ;;
    -h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "tools/install-deps.sh: unknown option '$arg' (--deb, --tests, --ci)" >&2; exit 2 ;;
  esac
done
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
