#!/usr/bin/env bash
# Drives traitlab's REPL through tmux as a person would: type, then read the
# screen. Covers results, multi-line input, errors, Ctrl-C (running code and
# at the prompt), tab completion, history across two sessions, :tree, :quit.
#
# usage: Tests/cli/repl_test.sh path/to/traitlab
# Builds nothing. The last line is "N passed, N failed"; exit status 1 on any failure.
set -u

TL=${1:?usage: repl_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
source "$(dirname "$0")/lib/expect.sh"
out=""
[ -x "$TL" ] || { bad "not executable: $TL"; finish; exit 1; }
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; finish; exit 0; }

tmp=$(mktemp -d)
sock="$tmp/tmux.sock"
tmux_() { tmux -S "$sock" "$@"; }
trap 'tmux_ kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# A private home, so the history file is the test's own.
export HOME="$tmp/home" XDG_STATE_HOME="$tmp/state"
mkdir -p "$HOME"
unset NO_COLOR LUA_INIT LUA_INIT_5_4 TRAITLAB_PLUGIN_PATH
# A session that lives as long as the test, so that killing the REPL's
# session to start the next one never leaves the server without sessions:
# it would exit while the next `new-session` connects ("server exited
# unexpectedly", seen under load). Started after the environment is set up:
# the server keeps the environment it started with.
tmux_ new-session -d -s keep -x 20 -y 5 "sleep 3600"
history_file="$XDG_STATE_HOME/traitlab/history"

# A failure shows the end of the screen.
bad_screen() { out="--- screen ---"$'\n'"$(screen | sed -e '/^$/d' | tail -n 15)"; bad "$1"; }

screen() { tmux_ capture-pane -p -S -300 -t repl 2>/dev/null; }
# wait_for TEXT [SECONDS] [GREP FLAGS]: polls the screen until TEXT (a fixed
# string) shows; with -x, until a whole line is TEXT.
wait_for() {
  local tries=$(( ${2:-5} * 20 ))
  while [ "$tries" -gt 0 ]; do
    screen | grep -qF ${3:-} -- "$1" && return 0
    sleep 0.05
    tries=$((tries - 1))
  done
  return 1
}
# check NAME TEXT [SECONDS]: passes when TEXT shows on the screen in time.
check() { if wait_for "$2" "${3:-5}"; then ok "$1"; else bad_screen "$1 (waiting for: $2)"; fi; }
# check_line NAME LINE [SECONDS]: passes when a whole screen line is LINE.
check_line() { if wait_for "$2" "${3:-5}" -x; then ok "$1"; else bad_screen "$1 (waiting for the line: $2)"; fi; }
type_line() { tmux_ send-keys -t repl -l -- "$1"; tmux_ send-keys -t repl Enter; }

start_session() {
  tmux_ kill-session -t repl 2>/dev/null
  tmux_ new-session -d -s repl -x 160 -y 50 "$TL $*; echo \"EXITED \$?\"; sleep 60"
  wait_for "Type :help" 10
}

# ---------------------------------------------------------------- session 1
start_session
check "banner names TraitLab and Lua 5.4" "Lua 5.4" 1

type_line '6 * 7'
check_line "an expression prints its value" '42' 2

type_line 'function double(x)'
check_line "an incomplete chunk continues on a '>>' line" '>>' 2
type_line 'return x * 2'
type_line 'end'
type_line 'double(50)'
check_line "the multi-line function works" '100' 2

# A string of several lines (ui.dump's text) shows as it is, as lua5.4's
# prompt prints strings; a one-line string stays quoted.
type_line 'sc = ui.WindowScene { name = "dumped" }; ui.Window { windowScene = sc, name = "w1" }'
type_line 'ui.dump(sc)'
check_line "a multi-line string (ui.dump) prints as it is, no escapes" '└─ Window "w1"' 2
# :dump NODE prints the same text (ui.dump returns it; the command prints it).
type_line 'sc2 = ui.WindowScene { name = "dumped2" }; ui.Window { windowScene = sc2, name = "w2" }'
type_line ':dump dumped2'
check_line ":dump NODE prints ui.dump's text for the node" '└─ Window "w2"' 2
type_line '"one" .. " line"'
check_line "a one-line string stays quoted" '"one line"' 2

type_line '=double(1000)'
check_line "=expr prints" '2000' 2

type_line 't = { name = "card", size = { w = 10, h = 20 } }; t.self = t'
type_line 't'
check "tables print nested, with a cycle marker" 'size = { h = 20, w = 10 }' 2
check "...the cycle marker" 'self = <cycle: table:' 1

type_line 'error("oops")'
check "an error prints its message" 'stdin:1: oops' 2
type_line '"still " .. "alive"'
check_line "the REPL goes on after an error" '"still alive"' 2

type_line 'while true do end'
sleep 0.5
tmux_ send-keys -t repl C-c
check "Ctrl-C interrupts running code" 'interrupted!' 3
type_line '40 + 4'
check_line "...and the REPL goes on" '44' 2

tmux_ send-keys -t repl -l 'this is not lua'
tmux_ send-keys -t repl C-c
type_line '300 + 33'
check_line "Ctrl-C at the prompt clears the line" '333' 2
if screen | grep -q 'this is not lua300'; then bad_screen "Ctrl-C at the prompt left the text"; fi

tmux_ send-keys -t repl -l 'ui.Vi'
tmux_ send-keys -t repl Tab
if wait_for '> ui.View' 2; then ok "Tab completes ui.Vi to ui.View"; else bad_screen "Tab completes ui.Vi to ui.View"; fi
tmux_ send-keys -t repl Tab
check "a second Tab lists ui.View and ui.ViewController" 'ui.ViewController' 2
tmux_ send-keys -t repl C-c

type_line 'scene = ui.WindowScene {}; window = ui.Window { windowScene = scene }; root = ui.ViewController { name = "root" }; window.rootViewController = root'
tmux_ send-keys -t repl -l 'root.traitOverrides.userInterfaceStyle = "da'
tmux_ send-keys -t repl Tab
if wait_for 'userInterfaceStyle = "dark"' 2; then ok "Tab completes an enum case inside a string"; else bad_screen "Tab completes an enum case inside a string"; fi
tmux_ send-keys -t repl Enter
type_line 'root.view.traitCollection.userInterfaceStyle'
check_line "ui.update() runs after each input" '"dark"' 2

tmux_ send-keys -t repl -l 'root:addCh'
tmux_ send-keys -t repl Tab
if wait_for '> root:addChild' 2; then ok "Tab completes methods of an environment"; else bad_screen "Tab completes methods of an environment"; fi
tmux_ send-keys -t repl C-c

type_line ':tree'
check ":tree shows the connected scenes" 'ViewController "root"' 2
type_line ':why root.view userInterfaceStyle'
check ":why names the override that set a value" 'override on ViewController "root"' 2
type_line ':traits root'
check ":traits lists every trait with its source" 'own override' 2
type_line 'root.view.backgroundColor = ui.Color.systemBackground'
type_line ':why root.view backgroundColor'
check ":why on a resolved value names the colour, its hex and the traits that chose it" 'backgroundColor systemBackground → #000000 (dark)' 2
check ":why on a resolved value says where each deciding trait comes from" 'userInterfaceStyle "dark"  ← ' 2
type_line ':traits root.view'
check ":traits shows what the view shows" 'shows backgroundColor systemBackground → #000000 (dark)' 2

type_line 'history_marker = 4242'
type_line ':quit'
check ":quit leaves the REPL with status 0" 'EXITED 0' 3
if [ -s "$history_file" ] && grep -qF 'history_marker = 4242' "$history_file"; then
  ok "history is written to \$XDG_STATE_HOME/traitlab/history"
else
  bad_screen "history is written to \$XDG_STATE_HOME/traitlab/history"
fi

# ---------------------------------------------------------------- session 2
start_session
tmux_ send-keys -t repl Up
tmux_ send-keys -t repl Up
if wait_for '> history_marker = 4242' 2; then ok "Up recalls a line from the previous session"; else bad_screen "Up recalls a line from the previous session"; fi
tmux_ send-keys -t repl Enter
type_line 'history_marker + 1'
check_line "...and the recalled line runs" '4243' 2
tmux_ send-keys -t repl C-d
check "Ctrl-D exits with status 0" 'EXITED 0' 3

# ---------------------------------------------------------------- the first hour
# After `traitlab -i examples/tour.lua` the tour's nodes are locals, gone at
# the prompt: colon commands find them by name (docs/guide.md, "The REPL"). The banner names
# the device and OS; a trait defined again at the prompt replaces the earlier
# one; :why suggests a trait name; a failed :reload is one line.
root=$(cd "$(dirname "$0")/../.." && pwd)
tmux_ kill-session -t repl 2>/dev/null
tmux_ new-session -d -s repl -x 160 -y 50 "cd $root && $TL --device 'iPad Air 11-inch (M3)' --ios 17 -i examples/tour.lua; echo \"EXITED \$?\"; sleep 60"
wait_for "Type :help" 10
check "the banner names ui.Screen.main's device and the OS" 'ui.Screen.main: iPad Air 11-inch (M3), portrait · iOS 17.0' 2
type_line ':why card myAppTheme'
check "a colon command takes a node's name" 'myAppTheme of View "card" = "monochrome": own override' 3
type_line ':traits "card"'
check "...or its name quoted" 'own override' 3
type_line ':why card myAppThem'
check "an unknown trait name gets a suggestion" "did you mean 'myAppTheme'?" 3
type_line 'print(ui.find("card"))'
check_line "ui.find finds the tour's card" 'View "card"' 3
type_line 'Density = traits.define { name = "Density", default = 1 }'
type_line 'Density2 = traits.define { name = "Density", default = 2 }'
type_line 'print(("%s %s"):format(Density2 == Density, traits.collection {}.density))'
check_line "defining a trait again at the prompt replaces it" 'true 2' 3
type_line 'do local r = ui.find("root"); local p = ui.ViewController { name = "sheet" }; r:present(p); p.presentationController.overrideTraitCollection = traits.collection { userInterfaceStyle = "dark" } end'
type_line ':why sheet userInterfaceStyle'
check ":why follows a presentation controller's override" 'userInterfaceStyle of ViewController "sheet" = "dark": overrideTraitCollection of PresentationController' 3
type_line ':reload nothere'
check_line "a failed :reload says what failed in one line" "plugin 'nothere' is not loaded (loaded: none)" 3
tmux_ send-keys -t repl C-d
check "...and the session exits with status 0" 'EXITED 0' 3

# ---------------------------------------------------------------- session 3: a memory cap
start_session --memory-limit 16M
type_line 'scene = ui.WindowScene {}; window = ui.Window { windowScene = scene }; window.rootViewController = ui.ViewController {}; for i = 1, 2000 do window.traitOverrides[traits.define { name = "T" .. i, default = 0 }] = i end; for i = 1, 5000 do window.rootViewController.view:addSubview(ui.View {}) end'
type_line ':tree full'
check ":tree whose dump the memory cap refuses says so" '(no tree: not enough memory' 10
type_line '6 * 7'
check_line "...and the session goes on" '42' 5

# ---------------------------------------------------------------- orientation and scene size
# The banner names what --orientation and --scene-size chose (docs/cli.md).
start_session --device "'iPad Pro 13-inch (M5)'" --orientation landscapeLeft --scene-size 1/3
check "the banner names the orientation and the size new scenes start at" 'ui.Screen.main: iPad Pro 13-inch (M5), landscapeLeft · new scenes 1/3 · iOS 26.0' 2
type_line 'scene = ui.WindowScene {}'
type_line 'scene.size .. " " .. scene.traitCollection.horizontalSizeClass'
check_line "...and a new scene starts at it (after the input's update)" '"1/3 compact"' 3
tmux_ send-keys -t repl C-d

# ---------------------------------------------------------------- no libedit
# libedit is loaded when the REPL starts (not linked); without it the REPL
# says so once and reads plain lines, still on the terminal.
tmux_ kill-session -t repl 2>/dev/null
tmux_ new-session -d -s repl -x 160 -y 50 "TRAITLAB_LIBEDIT=$tmp/no-such-libedit.so $TL; echo \"EXITED \$?\"; sleep 60"
check "without libedit the REPL says line editing is off" 'line editing is off' 5
type_line 'print(40 + 2)'
check_line "...and still runs what is typed" '42' 3
tmux_ send-keys -t repl C-d
check "...and Ctrl-D (end of input) exits with status 0" 'EXITED 0' 3

echo
finish
