#!/usr/bin/env bash
# docs/cli.md's table of busted's options ("busted's options") against the
# busted on this machine: busted's option list is read from `busted --help` at
# run time, and every option it lists must have a row, and every row must be
# an option busted lists. Each row says "same", "differs, because ..." or
# "refused, because ...":
#   - "same": busted_features_test.sh runs the option (one of the row's
#     spellings, or its --no- form) under busted and `traitlab test` and
#     compares the reports, unless the row says "not compared" and why;
#   - "refused": `traitlab test OPTION` is a usage error (exit 2) whose message
#     names the option and gives its reason;
#   - "differs": checked here for the two rows that do (--version, --help).
# Source of truth: Debian's busted (lua-busted), its --help.
# Usage: busted_options_test.sh path/to/traitlab
set -u
bin=${1:?usage: busted_options_test.sh path/to/traitlab}
here=$(cd "$(dirname "$0")" && pwd)
doc="$here/../../docs/cli.md"
features="$here/busted_features_test.sh"
source "$here/lib/expect.sh"
command -v busted >/dev/null || { bad "busted is not installed (bash scripts/setup.sh)"; finish; exit 1; }

# busted's options, one spelling a line: "-p", "--pattern", "--coverage"
# (for "--[no-]coverage"), from the OPTIONS part of its help.
busted_help=$(busted --help 2>&1)
busted_options=$(sed -n '/^OPTIONS:/,$p' <<<"$busted_help" | grep -E '^  -' |
  sed -E 's/^  ((-[A-Za-z]+), )?(-[^ =]+).*/\2 \3/' | tr ' ' '\n' | sed 's/\[no-\]//' | grep -E '^-' | sort -u)
count=$(wc -l <<<"$busted_options")
[ "$count" -ge 40 ] && ok "busted --help lists $count option spellings" \
  || bad "busted --help lists only $count option spellings: the parse no longer fits its layout" "$busted_help"

# The table's rows: "SPELLINGS<TAB>VERDICT".
rows=$(sed -n "/^### busted's options/,/^#/p" "$doc" | grep -E '^\| `-' |
  sed -E 's/^\| ([^|]*) \| (.*) \|$/\1\t\2/')
[ -n "$rows" ] || { bad "docs/cli.md has no table under \"busted's options\""; finish; exit 1; }
row_options=$(cut -f1 <<<"$rows" | grep -oE '`-[^`]+`' | tr -d '`' | sort -u)

for o in $busted_options; do
  grep -qxF -- "$o" <<<"$row_options" && ok "docs/cli.md has a row for busted's $o" \
    || bad "busted's $o has no row in docs/cli.md's table of busted's options" ""
done
for o in $row_options; do
  [ "$o" = -h ] || [ "$o" = --help ] && continue   # busted's --help does not list itself
  grep -qxF -- "$o" <<<"$busted_options" || bad "docs/cli.md's table has a row for $o, which busted --help does not list" ""
done

# The command lines of busted_features_test.sh: what it runs under both.
compared=$(grep -E '(^| )compare "|^  -- ' "$features" | sed 's/.* -- //')
while IFS=$'\t' read -r spellings verdict; do
  names=$(grep -oE '`-[^`]+`' <<<"$spellings" | tr -d '`')
  first=$(head -n 1 <<<"$names")
  case $verdict in
    same*"not compared"*)
      grep -q 'because\|:' <<<"$verdict" && ok "$first: same, not compared, with the reason" \
        || bad "$first: 'not compared' without a reason" "" ;;
    same*)
      found=
      for n in $names; do
        long=${n#--}
        if grep -qE -- "(^| )($n|--no-$long)([ =]|$)" <<<"$compared"; then found=$n; break; fi
      done
      [ -n "$found" ] && ok "$first: same, compared under busted by busted_features_test.sh ($found)" \
        || bad "$first: the table says 'same' but busted_features_test.sh runs none of: $names" "" ;;
    refused*)
      grep -q 'because' <<<"$verdict" || bad "$first: refused without 'because'" ""
      run_apart "$bin" test "$first=x" spec
      holds "$first: refused by traitlab test (exit 2, the message names it and says why)" \
        '[ "$RC" -eq 2 ] && grep -q -- "^traitlab: $first: .*cannot" <<<"$ERR"' ;;
    differs*)
      grep -q 'because' <<<"$verdict" || bad "$first: differs without 'because'" "" ;;
    *) bad "$first: the verdict '$verdict' is none of same, differs, refused" "" ;;
  esac
done <<<"$rows"

# The two rows that differ, as they say.
busted_version=$(busted --version 2>&1 | tail -n 1)
run_apart "$bin" test --version
holds "--version: TraitLab's line, with busted's version ($busted_version) in it" \
  '[ "$RC" -eq 0 ] && grep -q "^TraitLab" <<<"$OUT" && grep -qF -- "$busted_version" <<<"$OUT"'
run_apart "$bin" test --help
holds "--help: exit 0, TraitLab's options first, then busted's" \
  '[ "$RC" -eq 0 ] && [ "$(grep -n -- "--device" <<<"$OUT" | head -n 1 | cut -d: -f1)" -lt "$(grep -n -- "--exclude-pattern" <<<"$OUT" | head -n 1 | cut -d: -f1)" ]'
missing=
for o in $busted_options; do grep -qE -- "(^|[ ,\[])$o([ =,]|$)|\[no-\]${o#--}" <<<"$OUT" || missing+=" $o"; done
[ -z "$missing" ] && ok "--help lists every option busted --help lists" || bad "--help leaves out busted's$missing" ""

finish
