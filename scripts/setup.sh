#!/usr/bin/env bash
# Installs what TraitLab needs from Debian's packages, only when missing.
# Safe to run again; never prompts (CI has no standard input).
set -euo pipefail

packages=(liblua5.4-dev lua5.4 libedit-dev pkg-config tmux lua-busted graphviz lua-check time)
# For Tests/cli/install_test.sh (traitlab(1), the zsh and fish completions):
# where one cannot be installed, the test says so and skips what needs it.
optional=(man-db zsh fish)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
    as_root=(sudo -n)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq </dev/null
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
fi

for p in "${optional[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "$p" </dev/null >/dev/null 2>&1 \
    || echo "setup: could not install $p; the tests that need it skip that part"
done

pkg-config --exists lua5.4 || { echo "setup: pkg-config cannot find lua5.4 after installing liblua5.4-dev" >&2; exit 1; }
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
command -v swift >/dev/null || { echo "setup: the Swift toolchain is not on PATH (expected /opt/swift/usr/bin)" >&2; exit 1; }
