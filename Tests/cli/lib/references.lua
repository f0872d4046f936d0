-- Finds the references in a tree that point nowhere, for
-- Tests/cli/references_test.sh. Run under lua5.4 (or traitlab):
--
--   lua5.4 Tests/cli/lib/references.lua ROOT CHECK < FILES
--
-- FILES lists the files to read, one a line, relative to ROOT. CHECK is one of
--   links     a Markdown link `[text](path#anchor)` in a .md file whose file
--             or heading does not exist (links to http:, https: and mailto:
--             are not followed);
--   sections  a reference written out in text: a docs or README path with
--             `#anchor`, or followed by a quoted heading (after a comma, a
--             space, an opening parenthesis or 's), more headings joined by
--             `,` or `and`, or `from` one `to` another; a quoted heading
--             matches a heading of that file with its backticks left out, or
--             the part of one before ": ", " (" or " [";
--   files     a path under docs/ that does not exist.
-- Names in capitals (NAME, ANCHOR, HEADING) are placeholders, not checked.
--   spec      a citation of a specification document the repository does not
--             have (the word in capitals followed by a section sign, "section"
--             or a number, or its .md file);
--   wording   an issue number ("issue" and a number; busted's own issues may
--             be cited as "busted issue #N") or a numbered round of a review
--             ("the third" one).
-- Each finding is a line `FILE:LINE: what`. Exit status 0 when there is none.
-- Text is read with the comment markers at the start of each line left out
-- and the lines joined, so a reference may wrap from one comment line to the
-- next.

local root, check = arg[1], arg[2]
assert(root and check, "usage: references.lua ROOT CHECK < FILES")

local function read(path)
  local f = io.open(root .. "/" .. path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

local function exists(path)
  local f = io.open(root .. "/" .. path, "rb")
  if f then f:close() return true end
  return false
end

local function lines_of(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
  if lines[#lines] == "" then lines[#lines] = nil end
  return lines
end

-- Lines outside fenced code blocks (``` or ~~~); the others become "".
local function outside_fences(lines)
  local out, fence = {}, nil
  for i, line in ipairs(lines) do
    local marker = line:match("^%s*(```+)") or line:match("^%s*(~~~+)")
    if fence then
      if marker and marker:sub(1, 1) == fence:sub(1, 1) and #marker >= #fence then fence = nil end
      out[i] = ""
    elseif marker then
      fence = marker
      out[i] = ""
    else
      out[i] = line
    end
  end
  return out
end

-- The text of `lines` as one string, each line without its indentation and
-- leading comment marker, joined by spaces; `line_at(pos)` maps back.
local function joined(lines)
  local parts, starts, pos = {}, {}, 1
  for i, line in ipairs(lines) do
    local s = line:gsub("^%s+", "")
    for _, marker in ipairs { "///", "//", "%-%-%-", "%-%-", "#+", "%*", ";" } do
      local rest = s:match("^" .. marker .. "%s?(.*)$")
      if rest then s = rest break end
    end
    starts[i] = pos
    parts[i] = s
    pos = pos + #s + 1
  end
  local text = table.concat(parts, " ")
  local function line_at(p)
    local lo, hi = 1, #starts
    while lo < hi do
      local mid = (lo + hi + 1) // 2
      if starts[mid] <= p then lo = mid else hi = mid - 1 end
    end
    return lo
  end
  return text, line_at
end

-- Headings of a Markdown file: their anchors (GitHub's rule: lower case,
-- punctuation left out, each space a hyphen, "-1", "-2" ... on repeats) and
-- their texts for quoted references.
local heading_cache = {}
local function normalized(s)
  return (s:gsub("`", ""):gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""):lower())
end
local function headings(path)
  if heading_cache[path] ~= nil then return heading_cache[path] end
  local text = read(path)
  if not text then heading_cache[path] = false return false end
  local anchors, titles, seen = {}, {}, {}
  for _, line in ipairs(outside_fences(lines_of(text))) do
    local title = line:match("^#+%s+(.-)%s*#*%s*$")
    if title and title ~= "" then
      local slug = title:lower():gsub("[^%w%s_%-\128-\255]", ""):gsub("%s", "-")
      local n = seen[slug]
      seen[slug] = (n or 0) + 1
      anchors[n and (slug .. "-" .. n) or slug] = true
      local t = normalized(title)
      titles[t] = true
      for _, cut in ipairs { ": ", " %(", " %[" } do
        local before = t:match("^(.-)" .. cut)
        if before then titles[before] = true end
      end
    end
  end
  heading_cache[path] = { anchors = anchors, titles = titles }
  return heading_cache[path]
end

-- `path` as seen from the folder of `from`, with "." and ".." resolved.
local function resolve(from, path)
  local parts = {}
  local dir = from:match("^(.*)/[^/]*$")
  if dir and path:sub(1, 1) ~= "/" then
    for p in dir:gmatch("[^/]+") do parts[#parts + 1] = p end
  end
  for p in path:gmatch("[^/]+") do
    if p == ".." then
      if #parts == 0 then return nil end
      parts[#parts] = nil
    elseif p ~= "." then
      parts[#parts + 1] = p
    end
  end
  return table.concat(parts, "/")
end

-- A name in capitals stands for any name.
local function placeholder(s)
  return s:match("^[%u_]+$") ~= nil or s:match("^[%u_]+%.%a+$") ~= nil
end

local findings = {}
local function report(file, line, what)
  findings[#findings + 1] = { file = file, line = line, n = #findings, text = string.format("%s:%d: %s", file, line, what) }
end

local function check_anchor(file, line, target, anchor, shown)
  if placeholder(anchor) then return end
  local h = headings(target)
  if h and not h.anchors[anchor:lower()] then
    report(file, line, string.format("%s: %s has no heading with the anchor #%s", shown, target, anchor))
  end
end

local checks = {}

function checks.links(file, text)
  if not file:match("%.md$") then return end
  local lines = outside_fences(lines_of(text))
  for i, line in ipairs(lines) do lines[i] = line:gsub("``.-``", ""):gsub("`[^`]*`", "") end
  local body, line_at = joined(lines)
  for pos, target in body:gmatch("()%]%(<?([^%)%s>]+)>?[^%)]*%)") do
    if not target:match("^%a[%w+.%-]*:") then
      local path, anchor = target:match("^([^#]*)#?(.*)$")
      local shown = "link (" .. target .. ")"
      local full = path == "" and file or resolve(file, path)
      if not full or not exists(full) then
        report(file, line_at(pos), shown .. ": no file " .. (full or path))
      elseif anchor ~= "" and full:match("%.md$") then
        check_anchor(file, line_at(pos), full, anchor, shown)
      end
    end
  end
end

-- The quoted headings after position `pos` of `text`: `, "A"`, ` ("A")`,
-- `'s "A"`, then `, "B"`, ` and "C"`, `from "A" to "B"`.
local function quoted_after(text, pos)
  local titles = {}
  local rest = text:sub(pos)
  local first, after = rest:match("^'s%s+\"([^\"]+)\"()")
  if not first then first, after = rest:match("^,?%s+%(?from%s+\"([^\"]+)\"()") end
  if not first then first, after = rest:match("^,%s*%(?\"([^\"]+)\"()") end
  if not first then first, after = rest:match("^%s+%(?\"([^\"]+)\"()") end
  if not first or first:match("^%$") or placeholder(first) then return titles end
  titles[1] = first
  rest = rest:sub(after)
  while true do
    local more, next_at = rest:match("^%s*,?%s*and%s+\"([^\"]+)\"()")
    if not more then more, next_at = rest:match("^%s*,%s*\"([^\"]+)\"()") end
    if not more then more, next_at = rest:match("^%s+to%s+\"([^\"]+)\"()") end
    if not more then break end
    titles[#titles + 1] = more
    rest = rest:sub(next_at)
  end
  return titles
end

function checks.sections(file, text)
  local body, line_at = joined(lines_of(text))
  local function refer(pos, target, after)
    if not exists(target) then
      report(file, line_at(pos), "no file " .. target)
      return
    end
    for _, title in ipairs(quoted_after(body, after)) do
      local h = headings(target)
      if h and not h.titles[normalized(title)] then
        report(file, line_at(pos), string.format("%s has no heading \"%s\"", target, title))
      end
    end
  end
  for pos, name, after in body:gmatch("()docs/([%w_%-]+%.md)()") do
    local prev = pos > 1 and body:sub(pos - 1, pos - 1) or ""
    if not prev:match("[%w_/%.%-]") and not placeholder(name) then
      local target = "docs/" .. name
      local anchor = body:match("^#([%w_%-]+)", after)
      if anchor then
        if exists(target) then check_anchor(file, line_at(pos), target, anchor, "docs/" .. name .. "#" .. anchor) end
      else
        refer(pos, target, after)
      end
    end
  end
  for pos, ext, after in body:gmatch("()README(%.?m?d?)()") do
    local prev = pos > 1 and body:sub(pos - 1, pos - 1) or ""
    if not prev:match("[%w_%-]") and (ext == "" or ext == ".md") and not body:match("^[%w_]", after) then
      local anchor = ext == ".md" and body:match("^#([%w_%-]+)", after)
      if anchor then
        check_anchor(file, line_at(pos), "README.md", anchor, "README.md#" .. anchor)
      elseif prev ~= "/" then
        refer(pos, "README.md", after)
      end
    end
  end
end

function checks.files(file, text)
  local body, line_at = joined(lines_of(text))
  for pos, path, name in body:gmatch("()(docs/[%w_%-%./]*%f[%w_%-]([%w_%-]+%.%a+))") do
    local prev = pos > 1 and body:sub(pos - 1, pos - 1) or ""
    local next = body:sub(pos + #path, pos + #path)
    -- Not a part of a longer path or name, nor a pattern (`*`, `$var`).
    if not prev:match("[%w_/%.%-%$*]") and not next:match("[%w_*%$]") and not placeholder(name)
        and not exists(path) then
      report(file, line_at(pos), "no file " .. path)
    end
  end
end

local section_sign = "\194\167"
function checks.spec(file, text)
  local body, line_at = joined(lines_of(text))
  local word = "SP" .. "EC"
  for pos, after in body:gmatch("()" .. word .. "()") do
    local prev = pos > 1 and body:sub(pos - 1, pos - 1) or ""
    local rest = body:sub(after, after + 12)
    if not prev:match("[%w_/]") and (rest:match("^%s*" .. section_sign) or rest:match("^%.md")
        or rest:match("^%s+[Ss]ections?%f[^%w]") or rest:match("^%s+%d")) then
      local cited = rest:match("^%s*" .. section_sign .. "[%d%-]*") or rest:match("^%.md")
        or rest:match("^%s+[Ss]ections?[%s%d]*%d") or rest:match("^%s+[Ss]ections?") or rest:match("^%s+%d+")
      report(file, line_at(pos), "cites " .. word .. cited)
    end
  end
end

local ordinals = { "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "review" }
function checks.wording(file, text)
  local body, line_at = joined(lines_of(text))
  local lower = body:lower()
  for pos, what in lower:gmatch("()(issues?%s+#?%d+)") do
    local prev = pos > 1 and lower:sub(pos - 1, pos - 1) or ""
    if not prev:match("[%w_/]") and not lower:sub(1, pos - 1):match("busted%s+$") then
      report(file, line_at(pos), "names " .. body:sub(pos, pos + #what - 1))
    end
  end
  for _, o in ipairs(ordinals) do
    for pos in lower:gmatch("()%f[%w]" .. o .. "%s+rounds?%f[^%w]") do
      report(file, line_at(pos), "names a " .. o .. " round")
    end
  end
  for pos in lower:gmatch("()%f[%w]rounds?%s+of%s+review") do
    report(file, line_at(pos), "names a review's round")
  end
end

local run = checks[check]
assert(run, "unknown check " .. check)
for file in io.lines() do
  local text = read(file)
  if text and not text:find("\0", 1, true) then run(file, text) end
end
table.sort(findings, function(x, y)
  if x.file ~= y.file then return x.file < y.file end
  if x.line ~= y.line then return x.line < y.line end
  return x.n < y.n
end)
for _, f in ipairs(findings) do print(f.text) end
os.exit(#findings == 0 and 0 or 1)
