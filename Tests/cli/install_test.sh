#!/usr/bin/env bash
# scripts/install.sh and scripts/uninstall.sh, into a temporary prefix with
# the traitlab under test (TRAITLAB_BUILD_DIR: its folder, which also holds
# libTraitLabModule.so): the installed command runs, lua5.4 finds traitlab.so,
# `man -l` reads traitlab(1) and it names every option `--help` lists, bash
# registers the completion and it completes device names, zsh and fish parse
# theirs (when installed: scripts/setup.sh installs both), luacheck with
# `std = "traitlab"` from the installed std passes the examples, a second
# install changes nothing, and uninstalling leaves the prefix as it was.
# Usage: install_test.sh path/to/traitlab
set -u
bin=$(cd "$(dirname "${1:?usage: install_test.sh path/to/traitlab}")" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/lib/expect.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix with space"
mkdir -p "$prefix/bin" "$prefix/share/man"
echo "someone else's" > "$prefix/bin/other"
tree() { (cd "$prefix" && find . -printf '%p %m %s\n' | sort); }
before=$(tree)

run_apart env TRAITLAB_BUILD_DIR="$bin" bash "$repo/scripts/install.sh" "$prefix"
holds "install.sh into a prefix of one's own (no root), exit 0" '[ "$RC" -eq 0 ] && [[ $OUT == *"installed under $prefix"* ]]'
tl="$prefix/bin/traitlab"
for f in bin/traitlab lib/lua/5.4/traitlab.so share/man/man1/traitlab.1 share/bash-completion/completions/traitlab \
         share/zsh/site-functions/_traitlab share/fish/vendor_completions.d/traitlab.fish \
         share/traitlab/types/traitlab.d.lua share/lua/5.1/traitlab/luacheck.lua; do
  [ -s "$prefix/$f" ] && ok "installed $f" || bad "install.sh did not write $f" ""
done

run_apart "$tl" -e 'print(ui.Screen.main.traitCollection.userInterfaceIdiom)'
holds "the installed traitlab runs a script" '[ "$RC" -eq 0 ] && [ "$OUT" = phone ]'
run_apart "$tl" module-path
holds "module-path names the installed lib/lua/5.4" '[ "$RC" -eq 0 ] && [ "$OUT" = "$prefix/lib/lua/5.4" ]'
run_apart env LUA_CPATH_5_4="$prefix/lib/lua/5.4/?.so;;" lua5.4 -e 'print(require("traitlab").ui.Screen.main)'
holds "lua5.4 requires the installed traitlab.so" '[ "$RC" -eq 0 ] && [ "$OUT" = "Screen \"main\"" ]'
run_apart "$tl" types-path
holds "types-path names the installed definitions" '[ "$RC" -eq 0 ] && [ "$OUT" = "$prefix/share/traitlab/types" ] && cmp -s "$OUT/traitlab.d.lua" "$repo/lua/traitlab.d.lua"'

# The man page: man reads it, and it names every option the help lists
# (both come from the same tables; this catches a table left out of one).
if command -v man >/dev/null; then
  run_apart env LC_ALL=C MANWIDTH=120 man -l "$prefix/share/man/man1/traitlab.1"
  page=$OUT
  holds "man -l reads traitlab(1)" '[ "$RC" -eq 0 ] && [[ $page == *"TRAITLAB(1)"*NAME*SYNOPSIS*OPTIONS* ]]'
  help_options=$( { "$tl" --help; "$tl" test --help | sed "/^busted's options/,\$d"; } |
    grep -E '^  -' | grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | tr -d ' ,' | sort -u)
  missing=
  for o in $help_options; do grep -qE -- "(^|[^A-Za-z0-9-])$o([^A-Za-z0-9-]|$)" <<<"$page" || missing+=" $o"; done
  n=$(wc -w <<<"$help_options")
  [ "$n" -gt 20 ] && [ -z "$missing" ] && ok "traitlab(1) names all $n options of traitlab --help and traitlab test --help" \
    || bad "traitlab(1) leaves out:$missing (of $n)" ""
  run_apart env MANPATH="$prefix/share/man" man -w traitlab
  holds "man finds traitlab(1) on the prefix's MANPATH" '[ "$RC" -eq 0 ] && [ "$OUT" = "$prefix/share/man/man1/traitlab.1" ]'
else
  echo "skip man: not installed (Debian package man-db)"
fi

# bash: sourcing registers the completion, which completes device names.
run_apart bash -c 'source "$1"; complete -p traitlab; COMP_WORDS=(traitlab --device "iPhone S"); COMP_CWORD=2; _traitlab; printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix/share/bash-completion/completions/traitlab"
holds "bash: complete -p traitlab after sourcing; --device completes the catalogue's names" \
  '[ "$RC" -eq 0 ] && [[ $OUT == "complete -F _traitlab traitlab"* ]] && [[ $OUT == *"iPhone SE (3rd generation)"* ]]'
run_apart bash -c 'source "$1"; for w in land s; do COMP_WORDS=(traitlab test --orientation "$w"); [ $w = s ] && COMP_WORDS[2]=--scene-size; COMP_CWORD=3; COMPREPLY=(); _traitlab; printf "%s\n" "${COMPREPLY[@]}"; done' _ "$prefix/share/bash-completion/completions/traitlab"
holds "bash: --orientation and --scene-size complete their values" \
  '[ "$RC" -eq 0 ] && [ "$OUT" = "$(printf "landscapeLeft\nlandscapeRight\nslideOver")" ]'
for shell in zsh fish; do
  if command -v $shell >/dev/null; then
    f="$prefix/share/zsh/site-functions/_traitlab"
    [ $shell = fish ] && f="$prefix/share/fish/vendor_completions.d/traitlab.fish"
    run_apart $shell -n "$f"
    holds "$shell -n parses its completion" '[ "$RC" -eq 0 ]'
  else
    echo "skip $shell: not installed (scripts/setup.sh installs it)"
  fi
done
if command -v zsh >/dev/null; then
  run_apart zsh -fc 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D; print -r -- "$_comps[traitlab]"' _ "$prefix/share/zsh/site-functions"
  holds "zsh: compinit finds _traitlab in the prefix's site-functions and binds it to traitlab" '[ "$RC" -eq 0 ] && [ "$OUT" = _traitlab ]'
fi
# zsh completes in a terminal (tmux): the values of --ios, and a device name, quoted.
if command -v zsh >/dev/null && command -v tmux >/dev/null; then
  sock="$work/tmux.sock"
  tmux -S "$sock" new-session -d -s z -x 150 -y 20 "zsh -f"
  screen_shows() {   # screen_shows TEXT: waits up to 5 s for TEXT on the screen
    local i
    for i in $(seq 50); do
      tmux -S "$sock" capture-pane -p -t z | grep -qF -- "$1" && return 0
      sleep 0.1
    done
    return 1
  }
  tmux -S "$sock" send-keys -t z "fpath=('$prefix/share/zsh/site-functions' \$fpath); autoload -U compinit; compinit -u -D" Enter
  tmux -S "$sock" send-keys -t z 'traitlab test --ios ' Tab
  screen_shows "16  17  18  26" && ok "zsh: traitlab test --ios <Tab> offers 16 17 18 26" \
    || bad "zsh: --ios <Tab> offers no versions" "$(tmux -S "$sock" capture-pane -p -t z)"
  tmux -S "$sock" send-keys -t z C-u 'traitlab --device iPhone\ S' Tab
  screen_shows 'traitlab --device iPhone\ SE\ \(' && ok "zsh: --device completes a device name, quoted" \
    || bad "zsh: --device does not complete" "$(tmux -S "$sock" capture-pane -p -t z)"
  tmux -S "$sock" kill-server
fi
if command -v fish >/dev/null; then
  run_apart fish -c 'source $argv[1]; complete -C "traitlab test --ios "' "$prefix/share/fish/vendor_completions.d/traitlab.fish"
  holds "fish: --ios completes the OS versions" '[ "$RC" -eq 0 ] && [[ $OUT == *"17"*"26"* ]]'
fi

# luacheck: a project's .luacheckrc names the installed std.
if command -v luacheck >/dev/null; then
  mkdir -p "$work/app"
  cp "$repo"/examples/*.lua "$work/app/"
  printf 'stds.traitlab = require "traitlab.luacheck"\nstd = "traitlab"\nunused_args = false\nmax_line_length = false\n' > "$work/app/.luacheckrc"
  run_apart bash -c 'cd "$1" && LUA_PATH="$2/share/lua/5.1/?.lua;;" luacheck --no-color --no-cache .' _ "$work/app" "$prefix"
  holds "luacheck with std = \"traitlab\" (installed) passes the examples" '[ "$RC" -eq 0 ] && [[ $OUT == *"0 warnings / 0 errors"* ]]'
  printf 'ui.Screen.main.orientation = "landscapeLeft"\nui.updat()\nprint(utf8.char(65))\n' > "$work/app/check.lua"
  run_apart bash -c 'cd "$1" && LUA_PATH="$2/share/lua/5.1/?.lua;;" luacheck --no-color --no-cache check.lua' _ "$work/app" "$prefix"
  holds "the std lets a script rotate the main screen and flags ui.updat" \
    '[[ $OUT == *"updat"* ]] && [[ $OUT != *orientation* ]] && [[ $OUT != *utf8* ]]'
else
  echo "skip luacheck: not installed (scripts/setup.sh installs lua-check)"
fi

after_first=$(tree)
run_apart env TRAITLAB_BUILD_DIR="$bin" bash "$repo/scripts/install.sh" "$prefix"
holds "a second install changes nothing" '[ "$RC" -eq 0 ] && [ "$(tree)" = "$after_first" ]'

run_apart bash "$repo/scripts/uninstall.sh" "$prefix"
holds "uninstall.sh leaves the prefix as it was" '[ "$RC" -eq 0 ] && [ "$(tree)" = "$before" ]'
run_apart bash "$repo/scripts/uninstall.sh" "$prefix"
holds "uninstall.sh again: nothing installed, exit 1" '[ "$RC" -eq 1 ] && [[ $ERR == *"nothing installed"* ]]'

finish
