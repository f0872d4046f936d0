#!/usr/bin/env bash
# README.md run as a reader would run it: every shell command and every Lua block, in order,
# in a scratch folder that holds the repository's files (as links) and what the README asks the
# reader to create. The conventions (docs/contributing.md, "How the README is tested"):
#
# - ```sh blocks: each line is a command, run from the scratch folder with the given traitlab
#   first on PATH; `export` lines carry over to later commands. It must exit 0. A trailing
#   comment `# --> TEXT` says what its output shows: TEXT must appear in it. The commands that
#   install packages and build (bash scripts/run.sh, bash scripts/test.sh) are skipped with a note.
# - A command with `-i` starts the REPL; the ```repl block after it is the session: lines
#   starting with "> " are typed (fed on standard input, where the REPL echoes them after its
#   prompt), every other line must appear in the output, in order (lines may come between;
#   a line "…" only marks an omission).
# - ```lua blocks whose first line is `-- path/file.lua` are files the reader saves: written there.
# - Other ```lua blocks are code: blocks under the same heading run together as one script, in
#   order, when the heading ends. A line `code --> TEXT` must print TEXT (whitespace runs compare
#   equal); `code --> error: TEXT` must raise an error whose message contains TEXT.
# - Other blocks (```swift, plain) are not run.
# - A ```lua block that is deliberately not runnable (a fragment shown for its shape) has the
#   line `<!-- not run: REASON -->` right above its fence; used sparingly.
#
# Then every Lua block of docs/*.md, each file in a scratch folder of its own: its code blocks
# run as one script, in order (`-->` checked as above), and each file it shows runs (a spec
# by `traitlab test`, a plugin by `traitlab --plugin`, a script by `traitlab`); its shell
# commands and REPL sessions do not (they name suites, checkouts and installs the reader runs
# by hand). A file the text shows where the repository has one is written beside, never
# over it.
#
# usage: Tests/cli/readme_test.sh path/to/traitlab [README.md]
# (given a file, only that file: in the docs' way when it is under docs/)
set -u
TL=${1:?usage: readme_test.sh path/to/traitlab [README.md]}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
readme=${2:-$root/README.md}
case $readme in /*) ;; *) readme="$PWD/$readme" ;; esac
source "$root/Tests/cli/lib/expect.sh"
command -v lua5.4 >/dev/null || { bad "lua5.4 is needed to read the README (scripts/setup.sh installs it)"; finish; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# scratch DIR: a folder holding the repository's files as links.
scratch() {
  mkdir -p "$1"
  for f in "$root"/* "$root"/.busted "$root"/.luarc.json "$root"/.luacheckrc; do
    [ -e "$f" ] || continue
    case $(basename "$f") in README.md|.build*) continue ;; esac
    ln -s "$f" "$1/$(basename "$f")"
  done
}

cat >"$tmp/driver.lua" <<'LUA'
local readme, work, tl, tmp, mode = arg[1], arg[2], arg[3], arg[4], arg[5]
local docs = mode == "docs"
local label = docs and readme:match("(docs/[^/]*)$") .. " " or ""
local passed, failed = 0, 0
local function ok(name) passed = passed + 1; print("ok   " .. name) end
local function bad(name, detail)
  failed = failed + 1; print("FAIL " .. name)
  if detail and detail ~= "" then
    local lines = {}
    for line in (detail .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
    while #lines > 0 and lines[#lines] == "" do lines[#lines] = nil end
    if #lines > 25 then print("     …") end
    for i = math.max(1, #lines - 24), #lines do print("     " .. lines[i]) end
  end
end
local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
local function readfile(p) local f = io.open(p, "rb"); if not f then return nil end local s = f:read("a"); f:close(); return s end
local function writefile(p, s) local f = assert(io.open(p, "wb")); f:write(s); f:close() end
local function squash(s) return (s:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")) end

-- The README's fenced blocks, each with its info string, lines and the heading above it.
local blocks, heading, cur, norun = {}, "(top)", nil, nil
for line in (readfile(readme) .. "\n"):gmatch("(.-)\n") do
  if cur then
    if line:match("^```%s*$") then blocks[#blocks + 1] = cur; cur = nil
    else cur.lines[#cur.lines + 1] = line end
  elseif line:match("^```") then
    cur = { info = line:match("^```%s*(%S*)"), lines = {}, heading = heading, norun = norun }
  elseif line:match("^#+ ") then
    heading = line:gsub("^#+ ", "")
  end
  norun = not cur and line:match("^<!%-%- not run: (.-)%s*%-%->%s*$") or nil
end

-- Shell commands: one `bash -c` each, in the scratch folder, after the exports so far.
local envfile = tmp .. "/env.sh"
writefile(envfile, "export PATH=" .. quote(tl:match("^(.*)/[^/]*$")) .. ':"$PATH"\ncd ' .. quote(work) .. "\n")
local function shell(cmd, stdin)
  local script = tmp .. "/cmd.sh"
  writefile(script, "source " .. quote(envfile) .. "\n" .. cmd .. "\n")
  local input = stdin and (tmp .. "/stdin") or "/dev/null"
  if stdin then writefile(input, stdin) end
  local p = io.popen("timeout 300 bash " .. quote(script) .. " <" .. quote(input) .. " 2>&1; echo \"__status=$?\"")
  local out = p:read("a"); p:close()
  local status = tonumber(out:match("__status=(%d+)%s*$"))
  return out:gsub("__status=%d+%s*$", ""), status
end

-- Split `cmd   # comment` at a # outside quotes that starts a word.
local function splitcomment(line)
  local q
  for i = 1, #line do
    local c = line:sub(i, i)
    if q then if c == q then q = nil end
    elseif c == "'" or c == '"' then q = c
    elseif c == "#" and (i == 1 or line:sub(i - 1, i - 1):match("%s")) then
      return (line:sub(1, i - 1):gsub("%s+$", "")), line:sub(i + 1)
    end
  end
  return line, nil
end

local skipped = { "^bash scripts/run%.sh", "^bash scripts/test%.sh", "^scripts/run%.sh", "^scripts/test%.sh" }

local function runrepl(cmd, block)
  local input, want = {}, {}
  for _, l in ipairs(block.lines) do
    if l:match("^> ") then input[#input + 1] = l:sub(3); want[#want + 1] = l:gsub("%s+$", "")
    elseif l ~= "…" and l:match("%S") then want[#want + 1] = l:gsub("%s+$", "") end
  end
  local out, status = shell(cmd, table.concat(input, "\n") .. "\n")
  local lines = {}
  for l in (out .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = l:gsub("%s+$", "") end
  local at = 1
  for _, w in ipairs(want) do
    local found
    for i = at, #lines do if lines[i] == w then found = i; break end end
    if not found then
      bad(("REPL session after `%s` shows %q"):format(cmd, w), out); return
    end
    at = found + 1
  end
  if status ~= 0 then bad(("REPL session after `%s` (exit status %d)"):format(cmd, status), out); return end
  ok(("REPL session after `%s` (%d lines checked)"):format(cmd, #want))
end

local function runsh(block, nextblock)
  local logical, pending = {}, ""
  for _, l in ipairs(block.lines) do
    if l:match("\\%s*$") then pending = pending .. l:gsub("\\%s*$", " ")
    else logical[#logical + 1] = pending .. l; pending = "" end
  end
  for _, line in ipairs(logical) do
    local cmd, comment = splitcomment(line)
    cmd = cmd:gsub("^%s+", "")
    if cmd ~= "" then
      local expect = comment and comment:match("^%s*%-%->%s*(.-)%s*$")
      local skip = false
      for _, p in ipairs(skipped) do if cmd:match(p) then skip = true end end
      if skip then
        print(("skip `%s`: it installs packages and builds everything (run it by hand)"):format(cmd))
      elseif cmd:match("%s%-i%s") or cmd:match("%s%-i$") then
        if nextblock and nextblock.info == "repl" then runrepl(cmd, nextblock); nextblock.used = true
        else
          local out, status = shell(cmd)
          if status == 0 then ok("`" .. cmd .. "`") else bad(("`%s` (exit status %d)"):format(cmd, status), out) end
        end
      else
        local out, status = shell(cmd)
        if status ~= 0 then bad(("`%s` (exit status %d)"):format(cmd, status), out)
        elseif expect and not out:find(expect, 1, true) then bad(("`%s` prints %q"):format(cmd, expect), out)
        else
          ok("`" .. cmd .. "`" .. (expect and (" prints " .. ("%q"):format(expect)) or ""))
          if cmd:match("^export%s") then
            local f = assert(io.open(envfile, "a")); f:write(cmd, "\n"); f:close()
          end
        end
      end
    end
  end
end

-- Lua code blocks under one heading: one script, with each `-->` line checked by a prelude
-- that captures what print and io.write produce while that line runs.
local prelude = [[
local __results = assert(io.open(%q, "w"))
local __out, __print, __write = nil, print, io.write
function print(...)
  if not __out then return __print(...) end
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  __out[#__out + 1] = table.concat(t, "\t", 1, t.n) .. "\n"
end
io.write = function(...)
  if not __out then return __write(...) end
  for _, v in ipairs({ ... }) do __out[#__out + 1] = tostring(v) end
  return io.stdout
end
local function __squash(s) return (s:gsub("%%s+", " "):gsub("^ ", ""):gsub(" $", "")) end
function __begin() __out = {} end
function __finish(n, want)
  local got = table.concat(__out); __out = nil
  __write(got)
  if __squash(got) == __squash(want) then __results:write(n, " ok\n")
  else __results:write(n, " FAIL ", (("%%q"):format(got):gsub("\n", "n")), "\n") end
  __results:flush()
end
function __error(n, want, f)
  local okay, err = pcall(f)
  if okay then __results:write(n, " FAIL no error\n")
  elseif tostring(err):find(want, 1, true) then __results:write(n, " ok\n")
  else __results:write(n, " FAIL ", (("%%q"):format(tostring(err)):gsub("\n", "n")), "\n") end
  __results:flush()
end
]]

local chainno = 0
local function runchain(chain)
  chainno = chainno + 1
  local resultfile = ("%s/chain%d.results"):format(tmp, chainno)
  local src, checks = { prelude:format(resultfile) }, {}
  for _, l in ipairs(chain.lines) do
    local code, want = l:match("^(.-)%s*%-%->%s*(.-)%s*$")
    if code and code:match("%S") then
      checks[#checks + 1] = { code = code, want = want }
      local n = #checks
      local err = want:match("^error:%s*(.*)$")
      if err then src[#src + 1] = ("__error(%d, %q, function() %s end)"):format(n, err, code)
      else src[#src + 1] = ("__begin() %s __finish(%d, %q)"):format(code, n, want) end
    else
      src[#src + 1] = l
    end
  end
  local file = ("%s/chain%d.lua"):format(work, chainno)
  writefile(file, table.concat(src, "\n") .. "\n")
  local out, status = shell("traitlab " .. quote(file))
  os.remove(file)
  local results = {}
  for n, r in (readfile(resultfile) or ""):gmatch("(%d+) ([^\n]*)") do results[tonumber(n)] = r end
  local name = ("Lua under %s%q"):format(label, chain.heading)
  if status == 0 then ok(name .. " runs") else bad(("%s runs (exit status %d)"):format(name, status), out) end
  for n, c in ipairs(checks) do
    local r = results[n]
    local label = ("%s: `%s` --> %s"):format(name, c.code:gsub("^%s+", ""), c.want)
    if r == "ok" then ok(label)
    elseif r then bad(label, "got " .. r:gsub("^FAIL ", ""))
    else bad(label, "not reached") end
  end
end

local chain
local function flush() if chain then runchain(chain); chain = nil end end
-- A file the text shows: written where it says, unless a file of the repository is there (the
-- scratch folder's links lead into the repository): then beside, in a folder of its own.
-- In the docs, each is also run: a spec by `traitlab test`, a plugin (a chunk returning a
-- table with `setup`) by `traitlab --plugin`, a script by `traitlab`.
local shown = 0
local function savefile(path, text)
  local dest = work .. "/" .. path
  if readfile(dest) then
    shown = shown + 1
    dest = ("%s/shown%d/%s"):format(tmp, shown, path)
  end
  os.execute("mkdir -p " .. quote(dest:match("^(.*)/")))
  writefile(dest, text)
  print("wrote " .. path)
  if not docs then return end
  local cmd
  if path:match("_spec%.lua$") then cmd = "traitlab test " .. quote(dest)
  else
    local chunk = load(text)
    local okay, m = pcall(chunk or function() end)
    if okay and type(m) == "table" and m.setup then cmd = "traitlab --plugin " .. quote(dest) .. " -e ''"
    else cmd = "traitlab " .. quote(dest) end
  end
  local out, status = shell(cmd)
  if status == 0 then ok(("%s%s runs (%s)"):format(label, path, cmd:match("^(%S+ ?%S*)")))
  else bad(("%s%s runs (exit status %d)"):format(label, path, status), out) end
end

-- In the docs every Lua block of the file runs as one script, in order: a reader follows a
-- guide from the top, and a later section uses what an earlier one made.
for i, b in ipairs(blocks) do
  if chain and chain.heading ~= b.heading and not docs then flush() end
  if b.norun then
    if b.norun:match("%S") then print(("skip a %s block under %s%q: %s"):format(b.info, label, b.heading, b.norun))
    else bad(("the block under %s%q is marked not run without a reason"):format(label, b.heading)) end
  elseif b.info == "lua" then
    local path = b.lines[1] and b.lines[1]:match("^%-%-%s+([%w_./-]+%.lua)%s*$")
    if path then
      savefile(path, table.concat(b.lines, "\n") .. "\n")
    else
      chain = chain or { heading = docs and "its blocks, in order" or b.heading, lines = {} }
      for _, l in ipairs(b.lines) do chain.lines[#chain.lines + 1] = l end
    end
  elseif docs then
    -- (the docs' shell commands and REPL sessions are not run)
  elseif b.info == "sh" or b.info == "bash" or b.info == "console" then
    flush()
    runsh(b, blocks[i + 1])
  elseif b.info == "repl" and not b.used then
    bad(("a REPL session under %q follows no `traitlab ... -i` command"):format(b.heading))
  end
end
flush()
os.exit(failed == 0 and 0 or 1)
LUA

# The driver prints a line per check; they are counted here.
# drive FILE MODE: one file in a scratch folder of its own.
drive() {
  local name work
  name=$(basename "$1" .md)
  work="$tmp/work-$name"
  scratch "$work"
  lua5.4 "$tmp/driver.lua" "$1" "$work" "$TL" "$tmp" "$2" | tee -a "$tmp/report"
  local driver=${PIPESTATUS[0]}
  [ "$driver" -eq 0 ] || grep -q '^FAIL ' "$tmp/report" || echo "FAIL the driver stopped on $1 (exit status $driver)" | tee -a "$tmp/report"
}
: > "$tmp/report"
if [ $# -ge 2 ]; then
  case $readme in */docs/*.md) drive "$readme" docs ;; *) drive "$readme" readme ;; esac
else
  drive "$readme" readme
  for doc in "$root"/docs/*.md; do drive "$doc" docs; done
fi
passed=$(grep -c '^ok   ' "$tmp/report")
failed=$(grep -c '^FAIL ' "$tmp/report")
finish
