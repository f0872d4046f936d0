#!/usr/bin/env bash
# Removes what scripts/install.sh wrote under PREFIX (default ~/.local), as
# its record PREFIX/share/traitlab/installed lists it: its files, then the
# folders it created, when they are empty. Nothing else is touched.
# Usage: scripts/uninstall.sh [PREFIX]
set -euo pipefail
[ $# -le 1 ] || { echo "usage: scripts/uninstall.sh [PREFIX]" >&2; exit 2; }
prefix=${1:-$HOME/.local}
[ -d "$prefix" ] || { echo "uninstall: no folder $prefix" >&2; exit 1; }
prefix=$(cd "$prefix" && pwd)
record="$prefix/share/traitlab/installed"
[ -f "$record" ] || { echo "uninstall: nothing installed under $prefix (no $record)" >&2; exit 1; }

files=() dirs=()
while IFS= read -r line; do
  case $line in
    "file $prefix/"*) files+=("${line#file }") ;;
    "dir $prefix/"*) dirs+=("${line#dir }") ;;
    "") ;;
    *) echo "uninstall: $record has a line outside $prefix, left alone: $line" >&2 ;;
  esac
done < "$record"

for f in "${files[@]}"; do [ "$f" = "$record" ] || rm -f -- "$f"; done
rm -f -- "$record"
# Deepest first; a folder that holds something else stays.
while IFS= read -r d; do
  [ -n "$d" ] && rmdir -- "$d" 2>/dev/null || true
done < <(printf '%s\n' "${dirs[@]}" | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-)
echo "uninstall: removed traitlab from $prefix"
