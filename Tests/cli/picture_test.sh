#!/usr/bin/env bash
# ui.picture and ui.trace(path) from the command line: Graphviz missing, a dot
# that hangs or fails, the sandbox's refusal, trace files as JSON lines
# (parsed by python3), and :tree and :picture in the REPL (through tmux, as a
# person would use them).
#
# usage: Tests/cli/picture_test.sh path/to/traitlab
# The last line is "N passed, N failed"; exit status 1 on any failure.
set -u
TL=${1:?usage: picture_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
lib=$(cd "$(dirname "$0")/lib" && pwd)
tmp=$(mktemp -d)
sock="$tmp/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"
unset NO_COLOR LUA_INIT LUA_INIT_5_4 TRAITLAB_PLUGIN_PATH COLUMNS

source "$lib/expect.sh"
out=""

scene='scene = ui.WindowScene {}; w = ui.Window { windowScene = scene }; root = ui.ViewController { name = "root" }
w.rootViewController = root; card = ui.View { name = "card" }; root.view:addSubview(card); ui.update()'

# ------------------------------------------------------------ Graphviz itself
run env PATH=/nonexistent "$TL" -e "$scene" -e 'ui.picture(scene, "a.svg")'
expect "without dot on PATH: names the Debian package" 1 "needs Graphviz's 'dot' program, which is not on PATH: install the Debian package graphviz"
[ ! -e a.svg ] && ok "without dot: no file" || bad "without dot: a.svg was written"

mkdir -p fake/hang fake/fail
printf '#!/bin/sh\nexec sleep 987\n' > fake/hang/dot
printf '#!/bin/sh\necho "Error: boom on line 1" >&2\nexit 3\n' > fake/fail/dot
chmod +x fake/hang/dot fake/fail/dot
start=$(date +%s)
run env PATH="$tmp/fake/hang:$PATH" "$TL" -e "$scene" -e 'ui.picture(scene, "b.svg", { timeout = 1 })'
took=$(( $(date +%s) - start ))
expect "a dot that hangs is stopped at the time limit" 1 "dot did not finish within 1 s \(stopped\)"
[ "$took" -le 5 ] && ok "the time limit holds (${took}s)" || bad "a hanging dot took ${took}s"
pgrep -f "sleep 987" >/dev/null && bad "the hanging dot is still running" || ok "the hanging dot was killed"

run env PATH="$tmp/fake/fail:$PATH" "$TL" -e "$scene" -e 'ui.picture(scene, "c.svg")'
expect "a failing dot: its status and message" 1 "ui.picture: dot failed \(exit status 3\): Error: boom on line 1"

run "$TL" -e "$scene" -e 'print(ui.picture(scene, "d.svg"))'
expect "with Graphviz: writes the SVG and returns the path" 0 "^d.svg$"
grep -q 'View &quot;card&quot;' d.svg && ok "the SVG has the node labels" || bad "d.svg lacks View \"card\""
run "$TL" -e "$scene" -e 'card.backgroundColor = ui.Color.systemBackground; scene.traitOverrides.userInterfaceStyle = "dark"; ui.update(); ui.picture(scene, "f.svg")'
expect "a picture of a view with a background colour" 0 ""
grep -q 'backgroundColor systemBackground → #000000 (dark)' f.svg && ok "a picture labels a view with what it shows" || bad "f.svg lacks the resolved background colour"
run "$TL" -e "$scene" -e 'title = ui.Label { name = "title", font = ui.Font.preferred("body"), adjustsFontForContentSizeCategory = true, textColor = ui.Color.label }; card:addSubview(title); scene.traitOverrides.userInterfaceStyle = "dark"; scene.traitOverrides.preferredContentSizeCategory = "accessibilityExtraExtraExtraLarge"; ui.update(); ui.picture(scene, "g.svg")'
expect "a picture of a label" 0 ""
grep -q 'font body 53 pt' g.svg && grep -q 'textColor label → #FFFFFF (dark)' g.svg && ok "a picture labels a label with its font and resolved text colour" \
  || bad "g.svg lacks the label's font or text colour" "$(grep -o 'font [^<]*\|textColor [^<]*' g.svg)"

# ---------------------------------------------------------------- sandbox
run "$TL" --sandbox -e "$scene" -e 'ui.picture(scene, "e.svg")'
expect "the sandbox refuses ui.picture" 1 "ui.picture writes a file: not available in the sandbox"
run "$TL" --sandbox -e 'ui.trace("e.jsonl")'
expect "the sandbox refuses ui.trace to a file" 1 "ui.trace to a file writes a file: not available in the sandbox"
[ ! -e e.svg ] && [ ! -e e.jsonl ] && ok "the sandbox wrote no file" || bad "the sandbox wrote a file"
run "$TL" --sandbox -e "$scene" -e 'print(#ui.dump(scene), #ui.dump(scene, "dot"))'
expect "the sandbox still dumps" 0 "^[0-9]+	[0-9]+$"

# ---------------------------------------------------------------- trace files
run "$TL" -e "$scene" -e '
ui.trace("trace.jsonl")
card:registerForTraitChanges({ traits.UserInterfaceStyle }, function() end)
scene.traitOverrides.userInterfaceStyle = "dark"
ui.update()
card.traitOverrides:remove(traits.UserInterfaceStyle)
local late = ui.ViewController { name = "late" }
root:addChild(late); root.view:addSubview(late.view)
ui.update()
ui.trace(false)'
expect "a trace file is written" 0 ""
if python3 - trace.jsonl <<'PY'
import json, sys
fields = {"update": {"seq", "kind", "pass"},
          "traitsChanged": {"seq", "kind", "environment", "traits", "values"},
          "handler": {"seq", "kind", "environment", "traits"},
          "lifecycle": {"seq", "kind", "environment", "callback"},
          "override": {"seq", "kind", "environment", "trait", "value"}}
kinds = set()
for n, line in enumerate(open(sys.argv[1]), 1):
    e = json.loads(line)
    assert e["seq"] == n, (n, e)
    assert set(e) == fields[e["kind"]], e
    kinds.add(e["kind"])
assert kinds == set(fields), kinds
PY
then ok "every trace line is a JSON object with the fields of its kind"; else bad "trace.jsonl does not parse as expected"; fi

# ---------------------------------------------------------------- the REPL
if command -v tmux >/dev/null; then
  tmux_() { tmux -S "$sock" "$@"; }
  screen() { tmux_ capture-pane -p -J -S -200 -t repl 2>/dev/null; }
  wait_for() { local i; for i in $(seq 100); do screen | grep -qF -- "$1" && return 0; sleep 0.05; done; return 1; }
  type_line() { tmux_ send-keys -t repl -l -- "$1"; tmux_ send-keys -t repl Enter; }
  export HOME="$tmp/home" XDG_STATE_HOME="$tmp/state" TMPDIR="$tmp"
  mkdir -p "$HOME"
  tmux_ new-session -d -s repl -x 60 -y 80 "$TL"
  wait_for "Type :help" || bad "the REPL did not start"
  type_line "$(tr '\n' ' ' <<<"$scene")"
  type_line 'card.traitOverrides.myLongName = nil; card.traitOverrides.userInterfaceStyle = "dark"'
  type_line ':tree'
  wait_for '└─ View "card"' && ok ":tree shows the tree" || bad ":tree shows the tree"
  # The widest line :tree printed, in characters, with wrapped lines joined.
  widest=$(screen | python3 -c '
import sys
lines = sys.stdin.read().split("\n")
start = max(i for i, l in enumerate(lines) if l.startswith("> :tree"))
out = []
for l in lines[start + 1:]:
    if l.startswith(">"): break
    out.append(len(l.rstrip()))
print(max(out))')
  [ "$widest" -le 60 ] && ok ":tree fits a 60-column terminal (widest line: $widest)" || bad ":tree is wider than the terminal: $widest"
  type_line ':picture'
  wait_for "$tmp/traitlab-" && ok ":picture prints where it wrote" || bad ":picture prints where it wrote"
  ls "$tmp"/traitlab-*-1.svg >/dev/null 2>&1 && ok ":picture wrote an SVG in TMPDIR" || bad ":picture wrote no SVG in TMPDIR"
  type_line ':picture card flow.png userInterfaceStyle'
  wait_for "$tmp/flow.png" && [ -s "$tmp/flow.png" ] && ok ":picture expr file Trait (the older order)" || bad ":picture expr file Trait"
  # :picture takes :why's order, NODE [TRAIT] [FILE], and with a node and a
  # trait draws that trait's flow to the node in its scene, as :why does.
  type_line ':picture card userInterfaceStyle flow2.svg'
  wait_for "$tmp/flow2.svg" && grep -q "where userInterfaceStyle of View &quot;card&quot; comes from" "$tmp/flow2.svg" \
    && ok ":picture NODE TRAIT FILE draws the trait's flow to the node, as :why does" || bad ":picture NODE TRAIT FILE draws the flow"
  type_line ':picture card userInterfaceStyle'
  wait_for "-2.svg" && sleep 0.2 && grep -q "where userInterfaceStyle of View &quot;card&quot; comes from" "$tmp"/traitlab-*-2.svg \
    && ok ":picture NODE TRAIT (no file) draws the flow into TMPDIR" || bad ":picture NODE TRAIT (no file) draws the flow"
  type_line ':why card userInterfaceStyle why.svg'
  wait_for "$tmp/why.svg" && grep -q "where userInterfaceStyle of View &quot;card&quot; comes from" "$tmp/why.svg" \
    && ok ":why expr Trait file draws the value's path" || bad ":why expr Trait file draws the value's path"
  type_line ':picture card /nonexistent/x.svg'
  wait_for "no directory '/nonexistent'" && ok ":picture reports a bad path" || bad ":picture reports a bad path"
else
  echo "SKIP: tmux is not installed (REPL checks)"
fi

finish
