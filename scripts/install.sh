#!/usr/bin/env bash
# Installs traitlab under PREFIX (default ~/.local; no root needed for a
# prefix you own). Safe to run again: it overwrites what it wrote before.
#
#   PREFIX/bin/traitlab                                the command
#   PREFIX/lib/lua/5.4/traitlab.so                     the engine as a C module for lua5.4
#   PREFIX/share/man/man1/traitlab.1                   traitlab(1), written by `traitlab man`
#   PREFIX/share/bash-completion/completions/traitlab  completions, written by
#   PREFIX/share/zsh/site-functions/_traitlab            `traitlab completions SHELL`
#   PREFIX/share/fish/vendor_completions.d/traitlab.fish
#   PREFIX/share/traitlab/types/traitlab.d.lua         lua-language-server's definitions (`traitlab types-path`)
#   PREFIX/share/lua/5.1/traitlab/luacheck.lua         luacheck's std "traitlab"
#   PREFIX/share/traitlab/installed                    what this wrote, for scripts/uninstall.sh
#
# The binaries come from a release build (`swift build -c release`, run
# here: it rebuilds only what changed), or from TRAITLAB_BUILD_DIR, a folder
# holding traitlab and libTraitLabModule.so (for example .build/debug).
# Usage: scripts/install.sh [PREFIX]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
prefix=${1:-$HOME/.local}
[ $# -le 1 ] || { echo "usage: scripts/install.sh [PREFIX]" >&2; exit 2; }
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

if [ -n "${TRAITLAB_BUILD_DIR:-}" ]; then
  build=$(cd "$TRAITLAB_BUILD_DIR" && pwd)
else
  command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
  command -v swift >/dev/null || { echo "install: the Swift toolchain is not on PATH (expected /opt/swift/usr/bin)" >&2; exit 1; }
  echo "install: building traitlab (release)"
  swift build -c release --product traitlab >/dev/null
  swift build -c release --product TraitLabModule >/dev/null
  build=$(swift build -c release --show-bin-path)
fi
for f in traitlab libTraitLabModule.so; do
  [ -f "$build/$f" ] || { echo "install: $build/$f is missing" >&2; exit 1; }
done

# What was installed before (its folders too: a folder this script created
# stays its own to remove, even when a later run finds it there).
record="$prefix/share/traitlab/installed"
declare -A wrote=()
if [ -f "$record" ]; then
  while IFS= read -r line; do [ -n "$line" ] && wrote["$line"]=1; done < "$record"
fi

# folder PATH: creates PATH and the folders above it that are missing, and
# records each one it created.
folder() {
  local d=$1 missing=()
  while [ ! -d "$d" ]; do missing=("$d" "${missing[@]}"); d=$(dirname "$d"); done
  for d in "${missing[@]}"; do mkdir "$d"; wrote["dir $d"]=1; done
}
# put MODE DEST: standard input to DEST (run in this shell, never in a
# pipeline, so that the record sees it) ; through a temporary
# file beside it, so a running traitlab is never overwritten in place.
put() {
  local mode=$1 dest=$2
  folder "$(dirname "$dest")"
  cat > "$dest.tmp.$$"
  chmod "$mode" "$dest.tmp.$$"
  mv -f "$dest.tmp.$$" "$dest"
  wrote["file $dest"]=1
}

put 755 "$prefix/bin/traitlab" < "$build/traitlab"
put 755 "$prefix/lib/lua/5.4/traitlab.so" < "$build/libTraitLabModule.so"
if [ -f "$build/traitlab-swift-import" ]; then
  put 755 "$prefix/bin/traitlab-swift-import" < "$build/traitlab-swift-import"
fi
tl="$prefix/bin/traitlab"
# (Written to variables first: a command that fails stops the script there.)
page=$("$tl" man)
bash_completion=$("$tl" completions bash)
zsh_completion=$("$tl" completions zsh)
fish_completion=$("$tl" completions fish)
put 644 "$prefix/share/man/man1/traitlab.1" <<<"$page"
put 644 "$prefix/share/bash-completion/completions/traitlab" <<<"$bash_completion"
put 644 "$prefix/share/zsh/site-functions/_traitlab" <<<"$zsh_completion"
put 644 "$prefix/share/fish/vendor_completions.d/traitlab.fish" <<<"$fish_completion"
put 644 "$prefix/share/traitlab/types/traitlab.d.lua" < "$repo/lua/traitlab.d.lua"
put 644 "$prefix/share/lua/5.1/traitlab/luacheck.lua" < "$repo/lua/traitlab/luacheck.lua"

folder "$(dirname "$record")"
wrote["file $record"]=1
printf '%s\n' "${!wrote[@]}" | sort > "$record.tmp.$$"
mv -f "$record.tmp.$$" "$record"

echo "install: traitlab $("$tl" -v | sed -E 's/^TraitLab ([^ ]+).*/\1/') installed under $prefix"
# What the shells and Lua find by themselves, and what they need to be told.
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "  add $prefix/bin to PATH" ;; esac
if ! lua5.4 -e "os.exit(package.searchpath('traitlab', package.cpath) == '$prefix/lib/lua/5.4/traitlab.so' and 0 or 1)" 2>/dev/null; then
  echo "  for lua5.4's require \"traitlab\": export LUA_CPATH_5_4=\"$prefix/lib/lua/5.4/?.so;;\""
fi
echo "  zsh: fpath=($prefix/share/zsh/site-functions \$fpath) before compinit, unless it is there"
if ! lua5.1 -e "os.exit(package.path:find('$prefix/share/lua/5.1/?.lua', 1, true) and 0 or 1)" 2>/dev/null; then
  echo "  luacheck's std: export LUA_PATH=\"$prefix/share/lua/5.1/?.lua;;\" for require \"traitlab.luacheck\" in .luacheckrc"
fi
echo "  lua-language-server: put \"$prefix/share/traitlab/types\" on workspace.library in .luarc.json"
