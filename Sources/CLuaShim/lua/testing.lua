-- traitlab.testing: the pure-Lua core of `traitlab test`.
--
-- A busted-compatible scenario test framework: `describe`/`it` registration with hooks,
-- luassert-style assertions and spies, a runner with filtering, shuffling and fail-fast, and
-- reporters for text, TAP, JUnit XML and JSON. The host loads this chunk with
-- `load(src, "=traitlab.testing")`, calls `install(_G)`, runs each spec file through
-- `add_file`, then `run(opts)`, and prints `format(result, name)`.
--
-- Constraints: no `require`, only the standard Lua 5.4 libraries, and `os`, `debug` and `utf8`
-- may be missing in a sandbox, so they are reached only through the guarded locals below.

local M = {}

local os_lib = type(os) == "table" and os or nil
local debug_lib = type(debug) == "table" and debug or nil
local coroutine_lib = type(coroutine) == "table" and coroutine or nil
local utf8_lib = type(utf8) == "table" and utf8 or nil

local error, pcall, xpcall, select, type, tostring, tonumber =
  error, pcall, xpcall, select, type, tostring, tonumber
local next, ipairs, rawget, rawequal, getmetatable, setmetatable =
  next, ipairs, rawget, rawequal, getmetatable, setmetatable
local concat, insert, remove, sort = table.concat, table.insert, table.remove, table.sort
local pack, unpack = table.pack, table.unpack
local format = string.format
local math_type, huge, floor, abs = math.type, math.huge, math.floor, math.abs

-- Frames whose source is this chunk are framework frames: positions and tracebacks skip them
-- so that a spec author sees only the lines they wrote.
local SELF_SOURCE = debug_lib and debug_lib.getinfo(1, "S").source

------------------------------------------------------------------------------------------------
-- Values as text
--
-- Failure messages show values the way a Lua programmer would write them: strings quoted,
-- tables printed deeply with sorted keys (inline when short), cycles marked, and everything else
-- through a `tostring` that cannot raise.
------------------------------------------------------------------------------------------------

local KEYWORDS = {}
for word in ([[and break do else elseif end false for function goto if in local nil not or
  repeat return then true until while]]):gmatch("%a+") do KEYWORDS[word] = true end

local STRING_ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
local KEY_RANK = { number = 1, string = 2, boolean = 3 }
local INLINE_WIDTH = 72

local function metamethod(value, name)
  local mt = getmetatable(value)
  return type(mt) == "table" and rawget(mt, name) or nil
end

local function callable(value)
  return type(value) == "function" or metamethod(value, "__call") ~= nil
end

local function safe_tostring(value)
  local ok, text = pcall(tostring, value)
  if ok and type(text) == "string" then return text end
  return "<" .. type(value) .. ">"
end

local function is_identifier(key)
  return type(key) == "string" and key:match("^[%a_][%w_]*$") ~= nil and not KEYWORDS[key]
end

local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return STRING_ESCAPES[c] or format("\\%03d", c:byte())
  end) .. '"'
end

-- Floats keep enough digits to tell 0.1 + 0.2 from 0.3, and always look like floats.
local function number_text(n)
  if math_type(n) == "integer" then return format("%d", n) end
  if n ~= n or n == huge or n == -huge then return tostring(n) end
  local text = format("%.14g", n)
  if tonumber(text) ~= n then text = format("%.17g", n) end
  if not text:find("[%.eE]") then text = text .. ".0" end
  return text
end

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    local ra, rb = KEY_RANK[ta] or 9, KEY_RANK[tb] or 9
    if ra ~= rb then return ra < rb end
    return ta < tb
  end
  if ta == "number" or ta == "string" then return a < b end
  if ta == "boolean" then return b and not a end
  return safe_tostring(a) < safe_tostring(b)
end

local function indent(text)
  return (text:gsub("\n", "\n  "))
end

local show

-- `path` holds the tables being printed above this one, so only a real cycle is marked.
local function show_table(t, path)
  if path[t] then return "<cycle>" end
  if metamethod(t, "__tostring") then return safe_tostring(t) end
  path[t] = true
  local items, n = {}, 0
  while rawget(t, n + 1) ~= nil do
    n = n + 1
    items[n] = show(rawget(t, n), path)
  end
  local keys = {}
  for key in next, t do
    if not (math_type(key) == "integer" and key >= 1 and key <= n) then keys[#keys + 1] = key end
  end
  sort(keys, key_order)
  for _, key in ipairs(keys) do
    local label = is_identifier(key) and key or "[" .. show(key, path) .. "]"
    items[#items + 1] = label .. " = " .. show(rawget(t, key), path)
  end
  path[t] = nil
  if #items == 0 then return "{}" end
  local inline = "{ " .. concat(items, ", ") .. " }"
  if #inline <= INLINE_WIDTH and not inline:find("\n", 1, true) then return inline end
  return "{\n  " .. indent(concat(items, ",\n")) .. "\n}"
end

function show(value, path)
  local kind = type(value)
  if kind == "string" then return quote(value) end
  if kind == "number" then return number_text(value) end
  if kind == "table" then return show_table(value, path or {}) end
  return safe_tostring(value)
end

-- "(number) 1", "(table) { 1, 2 }": the form every failure message uses for a value.
local function typed(value)
  return "(" .. type(value) .. ") " .. show(value)
end

local function key_path_text(path)
  local parts = {}
  for i, key in ipairs(path) do
    if is_identifier(key) then
      parts[i] = (i > 1 and "." or "") .. key
    else
      parts[i] = "[" .. show(key) .. "]"
    end
  end
  return concat(parts)
end

------------------------------------------------------------------------------------------------
-- Deep equality and snapshots
--
-- `deep_equal` is luassert's `same`: tables compare by raw content, except that a table with an
-- `__eq` metamethod is an object and compares with `==`. Pairs already under comparison count
-- as equal, which makes cyclic structures terminate. On a difference it returns the key path.
------------------------------------------------------------------------------------------------

local function deep_equal(a, b, seen)
  if rawequal(a, b) then return true end
  local ta, tb = type(a), type(b)
  if ta == "number" and tb == "number" then return a == b or (a ~= a and b ~= b) end
  if ta ~= "table" or tb ~= "table" then return a == b end
  if metamethod(a, "__eq") or metamethod(b, "__eq") then return a == b end
  seen = seen or {}
  local partners = seen[a]
  if not partners then
    partners = {}
    seen[a] = partners
  end
  if partners[b] then return true end
  partners[b] = true
  for key, value in next, a do
    local equal, path = deep_equal(value, rawget(b, key), seen)
    if not equal then
      path = path or {}
      insert(path, 1, key)
      return false, path
    end
  end
  for key in next, b do
    if rawget(a, key) == nil then return false, { key } end
  end
  return true
end

-- Spies record arguments as they were at call time: plain data tables are copied deeply, while
-- objects (tables with a metatable) keep their identity.
local function snapshot(value, copies)
  if type(value) ~= "table" or getmetatable(value) ~= nil then return value end
  copies = copies or {}
  if copies[value] then return copies[value] end
  local copy = {}
  copies[value] = copy
  for key, item in next, value do copy[key] = snapshot(item, copies) end
  return copy
end

------------------------------------------------------------------------------------------------
-- Failures, positions and tracebacks
--
-- An assertion raises a `Failure` object; `pending()` inside a test raises a `Pending` one. Any
-- other error value is a runtime error. The plain callable `assert(v, msg)` must raise exactly
-- what Lua's does, so it cannot tag its value; it leaves it in `plain_failure` instead, and the
-- runner counts an error raised with that very value as a failure.
------------------------------------------------------------------------------------------------

local Failure = { __tostring = function(f) return f.message end }
local Pending = { __tostring = function(p) return p.message or "pending" end }
local NO_FAILURE = {}
local plain_failure = NO_FAILURE

-- The innermost Lua frame outside this framework: where the spec author called `it` or an
-- assertion.
local function user_position()
  if not debug_lib then return nil end
  local level = 2
  while true do
    local info = debug_lib.getinfo(level, "Sl")
    if not info then return nil end
    if info.what ~= "C" and info.source ~= SELF_SOURCE then
      return info.short_src, info.currentline >= 0 and info.currentline or nil
    end
    level = level + 1
  end
end

local function positioned(text)
  local file, line = user_position()
  if not file then return text end
  return file .. ":" .. (line and line .. ":" or "") .. " " .. text
end

-- Misuse of the framework (a bad argument, an unknown assertion) is an error, not a failure.
local function usage_error(text)
  error(positioned(text), 0)
end

local function fail(text, custom)
  if custom ~= nil then text = safe_tostring(custom) .. "\n" .. text end
  error(setmetatable({ message = positioned(text) }, Failure))
end

-- A readable message for any error value, including nil and tables.
local function error_text(value)
  local mt = getmetatable(value)
  if mt == Failure or mt == Pending then return tostring(value) end
  local kind = type(value)
  if kind == "string" then return value end
  if kind == "number" then return tostring(value) end
  if kind == "nil" then return "error object is nil" end
  if metamethod(value, "__tostring") then return safe_tostring(value) end
  return "error object is a " .. kind .. ": " .. show(value)
end

local function strip_position(message)
  return (message:gsub("^[^\n]-:%d+: ", "", 1))
end

local function frame_text(info)
  local where = info.short_src .. ":" .. (info.currentline >= 0 and info.currentline .. ":" or "")
  if info.namewhat ~= "" then
    local kind = info.namewhat == "global" and "function" or info.namewhat
    return format("%s in %s '%s'", where, kind, info.name)
  elseif info.what == "main" then
    return where .. " in main chunk"
  end
  return format("%s in function <%s:%d>", where, info.short_src, info.linedefined)
end

-- Called from the message handler: the user's frames between the error and the runner's own
-- `xpcall` (the innermost one on the stack, since any closer pcall would have caught the error).
-- The walk stops after TRACEBACK_LEVELS frames: after a stack overflow there are some 200000,
-- and `getinfo` costs time in proportion to the level.
local TRACEBACK_LEVELS = 40

local function user_traceback()
  if not debug_lib then return nil end
  local lines, level = {}, 3
  while true do
    if level > TRACEBACK_LEVELS then
      lines[#lines + 1] = "\t..."
      break
    end
    local info = debug_lib.getinfo(level, "Slnft")
    if not info or info.func == xpcall then break end
    if info.what ~= "C" and info.source ~= SELF_SOURCE then
      lines[#lines + 1] = "\t" .. frame_text(info)
      if info.istailcall then lines[#lines + 1] = "\t(...tail calls...)" end
    end
    level = level + 1
  end
  if #lines == 0 then return nil end
  return "stack traceback:\n" .. concat(lines, "\n")
end

local Caught = {}

local function capture(value)
  return setmetatable({ value = value, traceback = user_traceback() }, Caught)
end

-- Runs `fn` and returns nil on success, or what went wrong:
-- `{ status = "failed"|"error"|"skipped", message = ..., traceback = ... }`.
local function protect(fn)
  plain_failure = NO_FAILURE
  local ok, caught = xpcall(fn, capture)
  if ok then return nil end
  local value, traceback = caught, nil
  if getmetatable(caught) == Caught then value, traceback = caught.value, caught.traceback end
  local mt, status = getmetatable(value), "error"
  if mt == Pending then
    return { status = "skipped", message = value.message }
  elseif mt == Failure or rawequal(value, plain_failure) then
    status = "failed"
  end
  plain_failure = NO_FAILURE
  return { status = status, message = error_text(value), traceback = traceback }
end

------------------------------------------------------------------------------------------------
-- Spies and stubs
--
-- A spy is a callable table that records each call (`calls[i].vals`, a snapshot of the
-- arguments with `n`, and `calls[i].refs`, the arguments themselves) and calls through to its
-- callback. Spies put into a table with `spy.on` or `stub` are reverted automatically when the
-- scope that created them ends: the test, the describe block (setup), or the run.
------------------------------------------------------------------------------------------------

local Spy = {}
Spy.__index = Spy

function Spy.__call(self, ...)
  local refs = pack(...)
  self.calls[#self.calls + 1] = { vals = snapshot(refs), refs = refs }
  if self.callback then return self.callback(...) end
end

function Spy:clear()
  self.calls = {}
  return self
end

function Spy:revert()
  local target = self.target
  if target then
    self.target = nil
    target[self.key] = self.original
  end
  return self
end

function Spy:returns(...)
  local values = pack(...)
  self.callback = function() return unpack(values, 1, values.n) end
  return self
end

function Spy:invokes(fn)
  self.callback = fn
  return self
end

local scopes = { {} }

local function open_scope()
  scopes[#scopes + 1] = {}
end

local function close_scope()
  local scope = remove(scopes)
  for i = #scope, 1, -1 do scope[i]:revert() end
end

local function new_spy(callback)
  if callback ~= nil and not callable(callback) then
    usage_error("spy.new expects a function, got " .. typed(callback))
  end
  return setmetatable({ calls = {}, callback = callback }, Spy)
end

local function attach(s, target, key)
  s.target, s.key, s.original = target, key, target[key]
  target[key] = s
  local scope = scopes[#scopes]
  scope[#scope + 1] = s
  return s
end

local spy_api = setmetatable({
  new = new_spy,
  on = function(target, key)
    if type(target) ~= "table" then usage_error("spy.on expects a table, got " .. typed(target)) end
    return attach(new_spy(target[key]), target, key)
  end,
  is_spy = function(value) return getmetatable(value) == Spy end,
}, { __call = function(_, callback) return new_spy(callback) end })

-- `stub(tbl, key, ...)` replaces `tbl[key]` with a spy returning `...`; without a table it
-- makes a free-standing stub.
local function new_stub(target, key, ...)
  local s = new_spy():returns(...)
  if target == nil then return s end
  if type(target) ~= "table" then usage_error("stub expects a table, got " .. typed(target)) end
  return attach(s, target, key)
end

local stub_api = setmetatable({ new = new_stub }, {
  __call = function(_, ...) return new_stub(...) end,
})

------------------------------------------------------------------------------------------------
-- Assertions
--
-- Each assertion has an arity (how many value arguments it takes; an optional custom message
-- follows them), a claim and its negation for the message, and a check returning whether it
-- holds plus the lines that show the values involved.
------------------------------------------------------------------------------------------------

local assertions = {}

local function define(names, arity, claim, negated_claim, check, about_spy)
  local assertion = { arity = arity, claim = claim, negated_claim = negated_claim, check = check,
                      about_spy = about_spy }
  for name in names:gmatch("%S+") do assertions[name] = assertion end
end

local function both(expected, actual)
  return "Expected: " .. indent(typed(expected)) .. "\nActual:   " .. indent(typed(actual))
end

local function one(actual)
  return "Actual: " .. indent(typed(actual))
end

define("equal equals", 2, "objects to be equal", "objects not to be equal",
  function(expected, actual) return expected == actual, both(expected, actual) end)

define("same", 2, "objects to be the same", "objects not to be the same",
  function(expected, actual)
    local equal, path = deep_equal(expected, actual)
    local details = both(expected, actual)
    if path then details = details .. "\nFirst difference at: " .. key_path_text(path) end
    return equal, details
  end)

define("true", 1, "value to be true", "value not to be true",
  function(v) return v == true, one(v) end)
define("false", 1, "value to be false", "value not to be false",
  function(v) return v == false, one(v) end)
define("nil", 1, "value to be nil", "value not to be nil",
  function(v) return v == nil, one(v) end)
define("truthy", 1, "value to be truthy", "value not to be truthy",
  function(v) return v ~= nil and v ~= false, one(v) end)
define("falsy falsey", 1, "value to be falsy", "value not to be falsy",
  function(v) return v == nil or v == false, one(v) end)

for _, kind in ipairs({ "number", "string", "table", "function", "boolean", "userdata", "thread" }) do
  define(kind, 1, "value to be of type " .. kind, "value not to be of type " .. kind,
    function(v) return type(v) == kind, one(v) end)
end

define("near", 3, "values to be near", "values not to be near",
  function(expected, actual, tolerance)
    if type(tolerance) ~= "number" then
      usage_error("assert.near expects a number tolerance, got " .. typed(tolerance))
    end
    local close = type(expected) == "number" and type(actual) == "number"
      and abs(expected - actual) <= tolerance
    return close, "Expected: " .. typed(expected) .. " +/- " .. number_text(tolerance)
      .. "\nActual:   " .. typed(actual)
  end)

define("matches match", 2, "string to match the pattern", "string not to match the pattern",
  function(pattern, actual)
    if type(pattern) ~= "string" then
      usage_error("assert.matches expects a pattern string, got " .. typed(pattern))
    end
    local subject = type(actual) == "number" and tostring(actual) or actual
    local found = type(subject) == "string" and subject:find(pattern) ~= nil
    return found, "Pattern: " .. typed(pattern) .. "\nActual:  " .. indent(typed(actual))
  end)

-- Calls `fn` the way `has_error` does and returns nil when it did not raise, else the error
-- value, with assertion failures replaced by their message.
local function raised_by(fn, name)
  if not callable(fn) then usage_error("assert." .. name .. " expects a function, got " .. typed(fn)) end
  local ok, err = pcall(fn)
  plain_failure = NO_FAILURE
  if ok then return nil, false end
  if getmetatable(err) == Failure then err = err.message end
  return err, true
end

define("error errors", 2, "function to raise an error", "function not to raise an error",
  function(fn, expected)
    local err, raised = raised_by(fn, "has_error")
    if not raised then return false, "No error was raised." end
    local details = "Raised: " .. indent(typed(err))
    if expected == nil then return true, details end
    details = "Expected error: " .. indent(typed(expected)) .. "\n" .. details
    if type(expected) == "string" then
      local message = type(err) == "number" and tostring(err) or err
      return type(message) == "string" and (message == expected or strip_position(message) == expected),
        details
    end
    return deep_equal(expected, err), details
  end)

define("error_matches matches_error", 2, "function to raise an error matching the pattern",
  "function not to raise an error matching the pattern",
  function(fn, pattern)
    if type(pattern) ~= "string" then
      usage_error("assert.error_matches expects a pattern string, got " .. typed(pattern))
    end
    local err, raised = raised_by(fn, "error_matches")
    if not raised then return false, "No error was raised.\nPattern: " .. typed(pattern) end
    local message = error_text(err)
    return message:find(pattern) ~= nil, "Pattern: " .. typed(pattern) .. "\nRaised:  " .. indent(typed(err))
  end)

local function call_count_text(s)
  return "Calls: " .. #s.calls
end

define("called", 2, "spy to be called", "spy not to be called",
  function(s, times)
    if times == nil then return #s.calls > 0, call_count_text(s) end
    return #s.calls == times, "Expected calls: " .. show(times) .. "\nActual calls:   " .. #s.calls
  end, true)

define("called_at_least", 2, "spy to be called at least n times", "spy not to be called at least n times",
  function(s, times) return #s.calls >= times, "Minimum: " .. show(times) .. "\n" .. call_count_text(s) end,
  true)

define("called_at_most", 2, "spy to be called at most n times", "spy not to be called at most n times",
  function(s, times) return #s.calls <= times, "Maximum: " .. show(times) .. "\n" .. call_count_text(s) end,
  true)

local function arguments_text(args)
  local parts = {}
  for i = 1, args.n do parts[i] = show(args[i]) end
  return "(" .. concat(parts, ", ") .. ")"
end

-- An argument matches when it is the very value passed, or deeply equal to its snapshot; so a
-- receiver that changed since (`obj:method(x)`) still matches itself.
local function call_matches(call, expected)
  if call.vals.n ~= expected.n then return false end
  for i = 1, expected.n do
    if not rawequal(call.refs[i], expected[i]) and not deep_equal(expected[i], call.vals[i]) then
      return false
    end
  end
  return true
end

-- Variadic, so it takes no custom message (as in luassert).
define("called_with", nil, "spy to be called with the arguments", "spy not to be called with the arguments",
  function(s, ...)
    local expected = pack(...)
    local lines, matched = { "Expected arguments: " .. arguments_text(expected) }, false
    for i, call in ipairs(s.calls) do
      matched = matched or call_matches(call, expected)
      lines[#lines + 1] = format("Call %d: %s", i, arguments_text(call.vals))
    end
    if #s.calls == 0 then lines[#lines + 1] = "The spy was never called." end
    return matched, concat(lines, "\n")
  end, true)

------------------------------------------------------------------------------------------------
-- The assertion word chain
--
-- `assert.is_not.equal`, `assert.has_no.errors`, `assert.spy(s).was_not.called(2)`: every index
-- adds words (split at underscores, lower-cased); a call resolves them from the end, longest
-- known name first, as luassert does. `not`/`no` negate, `is`/`are`/`was`/`has`/`does` are
-- read-aloud filler, and `spy`/`stub` called with a spy make it the chain's first argument.
------------------------------------------------------------------------------------------------

local MODIFIERS = { is = "filler", are = "filler", was = "filler", has = "filler", does = "filler",
                    ["not"] = "negate", no = "negate", spy = "payload", stub = "payload" }

local WORDS, PAYLOAD = {}, {}
local Chain = {}

local function chain(words, payload)
  return setmetatable({ [WORDS] = words, [PAYLOAD] = payload }, Chain)
end

function Chain.__index(self, key)
  if type(key) ~= "string" then return nil end
  local words = { unpack(self[WORDS]) }
  for word in key:lower():gmatch("[^_]+") do words[#words + 1] = word end
  return chain(words, self[PAYLOAD])
end

local function resolve(words)
  local keys, last = {}, #words
  while last > 0 do
    local first
    for start = 1, last do
      local name = concat(words, "_", start, last)
      if assertions[name] or MODIFIERS[name] then
        first = start
        insert(keys, 1, name)
        break
      end
    end
    if not first then
      usage_error("unknown assertion or modifier '" .. words[last] .. "' in assert." .. concat(words, "."))
    end
    last = first - 1
  end
  return keys
end

function Chain.__call(self, ...)
  local words, payload = self[WORDS], self[PAYLOAD]
  local keys = resolve(words)
  if MODIFIERS[keys[#keys]] == "payload" then
    return chain({ unpack(words, 1, #words - 1) }, (...))
  end
  local assertion, negated = nil, false
  for _, key in ipairs(keys) do
    if assertions[key] then
      assertion = assertions[key]
    elseif MODIFIERS[key] == "negate" then
      negated = not negated
    end
  end
  if not assertion then usage_error("assert." .. concat(words, ".") .. " names no assertion") end
  local values = payload ~= nil and pack(payload, ...) or pack(...)
  if assertion.about_spy and getmetatable(values[1]) ~= Spy then
    usage_error("assert." .. concat(words, ".") .. " expects a spy, got " .. typed(values[1]))
  end
  local arity = assertion.arity or values.n
  local holds, details = assertion.check(unpack(values, 1, arity))
  if (not holds) == negated then return end
  local claim = negated and assertion.negated_claim or assertion.claim
  fail("Expected " .. claim .. ".\n" .. details, assertion.arity and values[arity + 1] or nil)
end

-- Called plainly, `assert` behaves as Lua's own: it returns its arguments, or raises its message
-- (default "assertion failed!"), with the caller's position when the message is a string.
local function plain_assert(_, ...)
  if select("#", ...) == 0 then usage_error("bad argument #1 to 'assert' (value expected)") end
  if (...) then return ... end
  local message = "assertion failed!"
  if select("#", ...) >= 2 then message = (select(2, ...)) end
  if type(message) == "string" then message = positioned(message) end
  plain_failure = message
  error(message, 0)
end

local assert_api = setmetatable({}, {
  __call = plain_assert,
  __index = function(_, key) return chain({})[key] end,
})

------------------------------------------------------------------------------------------------
-- Registration
--
-- Loading a spec file builds a tree: blocks (`describe`, one per `add_file`, and the root) hold
-- hooks and children; children are tests, blocks, and error nodes for describe bodies or files
-- that failed to load. `describe` bodies run at once, as in busted.
------------------------------------------------------------------------------------------------

local root, current_block, current_test, finalizers

local function join(outer, name)
  if outer == nil or outer == "" then return name end
  if name == "" then return outer end
  return outer .. " " .. name
end

local function new_block(name, parent, file, line)
  return { kind = "block", name = name, fullname = join(parent and parent.fullname, name),
           file = file, line = line, children = {},
           before_each = {}, after_each = {}, setup = {}, teardown = {} }
end

local function add_child(block, child)
  block.children[#block.children + 1] = child
end

local function error_node(name, file, line, failure)
  return { kind = "error", entry = { name = name, file = file, line = line, status = "error",
           message = failure.message, traceback = failure.traceback, duration = 0 } }
end

local function registering(what)
  if current_test then usage_error(what .. " cannot be called inside a running test") end
  if not current_block then usage_error(what .. " can only be called while spec files load") end
  return current_block
end

local function check_name(what, name)
  if type(name) ~= "string" then usage_error(what .. " expects a name (string), got " .. typed(name)) end
end

-- Runs `fn` with `block` as the registration target and records a load error if it raises.
local function load_into(block, fn, name, file, line)
  local parent = current_block
  current_block = block
  local failure = protect(fn)
  current_block = parent
  if failure then add_child(block, error_node(name, file, line, failure)) end
end

local function describe(name, fn)
  local parent = registering("describe")
  check_name("describe", name)
  if not callable(fn) then usage_error("describe expects a function, got " .. typed(fn)) end
  local file, line = user_position()
  local block = new_block(name, parent, file, line)
  add_child(parent, block)
  load_into(block, fn, block.fullname, file, line)
end

local function add_test(what, name, fn)
  local block = registering(what)
  check_name(what, name)
  local file, line = user_position()
  add_child(block, { kind = "test", name = name, fullname = join(block.fullname, name), fn = fn,
                     file = file, line = line })
end

local function it(name, fn)
  if fn ~= nil and not callable(fn) then usage_error("it expects a function, got " .. typed(fn)) end
  add_test("it", name, fn)
end

-- `pending(name)` registers a skipped test; called inside a running test it stops the test and
-- marks it skipped with `name` as the reason.
local function pending(name)
  if current_test then error(setmetatable({ message = name }, Pending)) end
  add_test("pending", name, nil)
end

local function hook(kind)
  return function(fn)
    local block = registering(kind)
    if not callable(fn) then usage_error(kind .. " expects a function, got " .. typed(fn)) end
    local list = block[kind]
    list[#list + 1] = fn
  end
end

local function finally(fn)
  if not current_test then usage_error("finally can only be called inside a running test") end
  if not callable(fn) then usage_error("finally expects a function, got " .. typed(fn)) end
  finalizers[#finalizers + 1] = fn
end

--- Forgets everything registered and reverts spies left from loading; `install` and `run` call it.
function M.reset()
  while #scopes > 0 do close_scope() end
  open_scope()
  root = new_block("", nil)
  current_block, current_test, finalizers = root, nil, nil
end

--- Loads one spec file: `chunk` is the compiled file, or the message `load` returned when it
-- did not compile. The file gets its own block, so its top-level hooks apply to it alone, and
-- an error while loading becomes an "error" entry named after the file.
function M.add_file(path, chunk)
  local block = new_block("", registering("add_file"), path, nil)
  add_child(current_block, block)
  if type(chunk) == "string" then
    add_child(block, error_node(path, path, nil, { message = chunk }))
  else
    load_into(block, chunk, path, path, nil)
  end
end

--- The full name of the test running now, or nil.
function M.current_test_name()
  return current_test and current_test.fullname
end

------------------------------------------------------------------------------------------------
-- Selection and order
--
-- A test runs when its full name matches a filter (as a Lua pattern or as plain text; any of
-- several) and no exclusion. Shuffling reorders the children of every block with a seeded
-- xorshift generator of its own, leaving `math.random` to the specs.
------------------------------------------------------------------------------------------------

local function as_list(value)
  if value == nil or type(value) == "table" then return value end
  return { value }
end

local function matches_any(name, patterns)
  for _, pattern in ipairs(patterns) do
    if name:find(pattern, 1, true) then return true end
    local ok, found = pcall(string.find, name, pattern)
    if ok and found then return true end
  end
  return false
end

-- Marks selected tests and active blocks (those with something to report); returns whether
-- `block` is active. Load errors are always reported.
local function mark(block, filter, exclude)
  local active = false
  for _, child in ipairs(block.children) do
    if child.kind == "test" then
      child.selected = (not filter or matches_any(child.fullname, filter))
        and not (exclude and matches_any(child.fullname, exclude))
      active = active or child.selected
    elseif child.kind == "block" then
      active = mark(child, filter, exclude) or active
    else
      active = true
    end
  end
  block.active = active
  return active
end

local function generator(seed)
  local x = seed ~ 0x2545F4914F6CDD1D
  if x == 0 then x = 1 end
  return function(n)
    x = x ~ (x << 13)
    x = x ~ (x >> 7)
    x = x ~ (x << 17)
    return (x >> 1) % n + 1
  end
end

local function shuffle(block, random)
  local children = block.children
  for i = #children, 2, -1 do
    local j = random(i)
    children[i], children[j] = children[j], children[i]
  end
  for _, child in ipairs(children) do
    if child.kind == "block" then shuffle(child, random) end
  end
end

local function listing(block, tests)
  for _, child in ipairs(block.children) do
    if child.kind == "test" and child.selected then
      tests[#tests + 1] = { name = child.fullname, file = child.file, line = child.line }
    elseif child.kind == "block" then
      listing(child, tests)
    end
  end
  return tests
end

------------------------------------------------------------------------------------------------
-- Running
--
-- Blocks run `setup` once before their first test and `teardown` after their last; a failing
-- setup gives every test below it that outcome. Around each test: `before_each` hooks outer to
-- inner, the body, `finally` functions, then `after_each` hooks inner to outer for every level
-- whose `before_each` ran. The first thing that goes wrong decides the test's outcome.
------------------------------------------------------------------------------------------------

local function record(ctx, entry)
  local result = ctx.result
  result.tests[#result.tests + 1] = entry
  if entry.status == "passed" then
    result.passed = result.passed + 1
  elseif entry.status == "skipped" then
    result.skipped = result.skipped + 1
  else
    result.failed = result.failed + 1
    if entry.status == "error" then result.errors = result.errors + 1 end
    if ctx.opts.fail_fast then ctx.stop = true end
  end
  if ctx.opts.on_test then ctx.opts.on_test(entry) end
end

local function test_entry(test, failure, duration)
  return { name = test.fullname, file = test.file, line = test.line,
           status = failure and failure.status or "passed",
           message = failure and failure.message, traceback = failure and failure.traceback,
           duration = duration }
end

local function run_hooks(list, phase)
  for _, fn in ipairs(list) do
    local failure = protect(fn)
    if failure then
      if failure.status ~= "skipped" then failure.message = phase .. " failed: " .. failure.message end
      return failure
    end
  end
  return nil
end

local function run_test(test, ctx)
  if not test.fn then return record(ctx, test_entry(test, { status = "skipped" }, 0)) end
  local opts, chain_of_blocks = ctx.opts, ctx.chain
  current_test, finalizers = test, {}
  open_scope()
  local started = ctx.clock()
  -- The hooks and the body run in a coroutine of their own: a host that
  -- interrupts a hung test (a hook that keeps raising until the code unwinds)
  -- arms it on that coroutine only, so the runner itself is never interrupted.
  local body = function()
    local failure, reached = nil, 0
    for i, block in ipairs(chain_of_blocks) do
      reached = i
      failure = run_hooks(block.before_each, "before_each")
      if failure then break end
    end
    if not failure then failure = protect(test.fn) end
    local i = 1
    while i <= #finalizers do
      local later = run_hooks({ finalizers[i] }, "finally")
      failure = failure or later
      i = i + 1
    end
    for level = reached, 1, -1 do
      local later = run_hooks(chain_of_blocks[level].after_each, "after_each")
      failure = failure or later
    end
    return failure
  end
  local worker = coroutine_lib and coroutine_lib.create(body)
  if opts.before_test then opts.before_test(test.fullname, worker) end
  local resumed, failure = true, nil
  if worker then
    resumed, failure = coroutine_lib.resume(worker)
    if resumed and coroutine_lib.status(worker) ~= "dead" then
      failure = { status = "error", message = "test yielded outside a coroutine of its own" }
    end
  else
    failure = body()
  end
  if opts.after_test then opts.after_test(test.fullname, worker) end
  if not resumed then failure = { status = "error", message = error_text(failure) } end
  close_scope()
  local duration = ctx.clock() - started
  current_test, finalizers = nil, nil
  record(ctx, test_entry(test, failure, duration))
end

local run_block

-- `failure` is set when an enclosing setup failed: tests then take its outcome without running.
local function run_child(child, ctx, failure)
  if child.kind == "error" then
    record(ctx, child.entry)
  elseif child.kind == "test" then
    if not child.selected then return end
    if failure then
      record(ctx, test_entry(child, failure, 0))
    else
      run_test(child, ctx)
    end
  elseif child.active then
    if failure then
      for _, grandchild in ipairs(child.children) do
        if ctx.stop then return end
        run_child(grandchild, ctx, failure)
      end
    else
      run_block(child, ctx)
    end
  end
end

function run_block(block, ctx)
  open_scope()
  local failure = run_hooks(block.setup, "setup")
  ctx.chain[#ctx.chain + 1] = block
  for _, child in ipairs(block.children) do
    if ctx.stop then break end
    run_child(child, ctx, failure)
  end
  ctx.chain[#ctx.chain] = nil
  local teardown_failure = run_hooks(block.teardown, "teardown")
  close_scope()
  if teardown_failure then
    record(ctx, test_entry({ fullname = join(block.fullname, "teardown"), file = block.file,
                             line = block.line }, teardown_failure, 0))
  end
end

local function execute(tree, opts)
  mark(tree, as_list(opts.filter), as_list(opts.exclude))
  if opts.list then
    return { tests = listing(tree, {}), passed = 0, failed = 0, skipped = 0, errors = 0, listed = true }
  end
  local result = { tests = {}, passed = 0, failed = 0, skipped = 0, errors = 0 }
  if opts.shuffle then
    result.seed = floor(tonumber(opts.seed) or (os_lib and os_lib.time()) or 0)
    shuffle(tree, generator(result.seed))
  end
  local clock = opts.clock or (os_lib and os_lib.clock) or function() return 0 end
  local ctx = { opts = opts, result = result, clock = clock, chain = {}, stop = false }
  local started = clock()
  if tree.active then run_block(tree, ctx) end
  result.duration = clock() - started
  return result
end

--- Runs everything registered since the last `install`, `reset` or `run`, then forgets it.
-- opts: filter, exclude (pattern or list), list, shuffle, seed, fail_fast, clock,
-- before_test(name, coroutine), after_test(name, coroutine), on_test(entry); the coroutine
-- runs the test's hooks and body.
-- Returns { tests = { {name, file, line, status, message, traceback, duration}, ... },
--           passed, failed (including errors), skipped, errors, duration, seed (when shuffled),
--           listed (with opts.list, whose entries have no status) }.
function M.run(opts)
  local tree = root
  current_block = nil
  local ok, result = pcall(execute, tree, opts or {})
  M.reset()
  if not ok then error(result, 0) end
  return result
end

------------------------------------------------------------------------------------------------
-- Text reporters
--
-- Every report made for a terminal ends with the summary line `N passed, N failed` (then
-- `, N skipped` when some were), so scripts can read the last line whatever the format.
------------------------------------------------------------------------------------------------

local STATUS_WORD = { passed = "PASS", failed = "FAIL", error = "ERROR", skipped = "SKIP" }
local STATUS_COLOR = { passed = "32", failed = "31", error = "31", skipped = "33" }

function M.summary_line(result)
  local line = format("%d passed, %d failed", result.passed, result.failed)
  if result.skipped > 0 then line = line .. format(", %d skipped", result.skipped) end
  return line
end

local function location(entry)
  if entry.file and entry.line then return entry.file .. ":" .. entry.line end
  return entry.file
end

local function status_word(entry, opts)
  local word = STATUS_WORD[entry.status]
  if opts and opts.color then word = "\27[" .. STATUS_COLOR[entry.status] .. "m" .. word .. "\27[0m" end
  return word
end

--- One line for a finished test, e.g. `PASS outer does x (0.002s)`; the host can print it live
-- from `on_test`.
function M.format_test_line(entry, opts)
  local line = status_word(entry, opts) .. " " .. entry.name
  if entry.status == "skipped" then
    if entry.message then line = line .. ": " .. entry.message end
  else
    line = line .. format(" (%.3fs)", entry.duration or 0)
  end
  return line
end

local function indented_block(out, text)
  for line in (text .. "\n"):gmatch("(.-)\n") do out[#out + 1] = "  " .. line end
end

--- opts: color, verbose (a line per test). A listing (`run{list = true}`) prints one full name
-- per line and no summary.
function M.format_text(result, opts)
  opts = opts or {}
  local out = {}
  if result.listed then
    for _, entry in ipairs(result.tests) do out[#out + 1] = entry.name end
    return #out > 0 and concat(out, "\n") .. "\n" or ""
  end
  if opts.verbose then
    for _, entry in ipairs(result.tests) do out[#out + 1] = M.format_test_line(entry, opts) end
  end
  for _, entry in ipairs(result.tests) do
    if entry.status == "failed" or entry.status == "error" then
      if #out > 0 then out[#out + 1] = "" end
      local where = location(entry)
      out[#out + 1] = status_word(entry, opts) .. " " .. (where and where .. ": " or "") .. entry.name
      indented_block(out, entry.message or "")
      if entry.traceback then indented_block(out, entry.traceback) end
    end
  end
  if result.seed then out[#out + 1] = "shuffled with seed " .. result.seed end
  if #out > 0 then out[#out + 1] = "" end
  out[#out + 1] = M.summary_line(result)
  return concat(out, "\n") .. "\n"
end

------------------------------------------------------------------------------------------------
-- Document encoders
--
-- JSON and XML must be valid whatever a test put in its name or error: invalid UTF-8 becomes
-- U+FFFD, JSON escapes control characters, and XML, which cannot carry most of them even as
-- references, shows them as `\xNN`.
------------------------------------------------------------------------------------------------

local REPLACEMENT = "\239\191\189"

local function valid_utf8(s)
  if not utf8_lib then return s end
  local parts, position = {}, 1
  while true do
    local length, bad = utf8_lib.len(s, position)
    if length then
      parts[#parts + 1] = s:sub(position)
      return concat(parts)
    end
    parts[#parts + 1] = s:sub(position, bad - 1) .. REPLACEMENT
    position = bad + 1
  end
end

local JSON_ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t",
                       ["\b"] = "\\b", ["\f"] = "\\f" }

local function json_string(s)
  return '"' .. valid_utf8(s):gsub('[%c"\\]', function(c)
    return JSON_ESCAPES[c] or format("\\u%04x", c:byte())
  end) .. '"'
end

local function is_array(t)
  local count = 0
  for _ in next, t do count = count + 1 end
  return count == #t
end

local function json_value(value, out)
  local kind = type(value)
  if kind == "table" then
    if is_array(value) then
      out[#out + 1] = "["
      for i, item in ipairs(value) do
        if i > 1 then out[#out + 1] = "," end
        json_value(item, out)
      end
      out[#out + 1] = "]"
    else
      local keys = {}
      for key in next, value do keys[#keys + 1] = key end
      sort(keys, key_order)
      out[#out + 1] = "{"
      for i, key in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        out[#out + 1] = json_string(type(key) == "string" and key or safe_tostring(key)) .. ":"
        json_value(value[key], out)
      end
      out[#out + 1] = "}"
    end
  elseif kind == "number" then
    local finite = value == value and value ~= huge and value ~= -huge
    out[#out + 1] = finite and number_text(value) or "null"
  elseif kind == "boolean" then
    out[#out + 1] = tostring(value)
  elseif kind == "nil" then
    out[#out + 1] = "null"
  else
    out[#out + 1] = json_string(kind == "string" and value or safe_tostring(value))
  end
end

local function xml_clean(s)
  s = valid_utf8(tostring(s)):gsub("[\0-\8\11\12\14-\31]", function(c) return format("\\x%02X", c:byte()) end)
  return (s:gsub("\239\191[\190\191]", REPLACEMENT))
end

local XML_TEXT = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;" }
local XML_ATTRIBUTE = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;",
                        ["'"] = "&apos;", ["\n"] = "&#10;", ["\r"] = "&#13;", ["\t"] = "&#9;" }

local function xml_text(s)
  return (xml_clean(s):gsub("[&<>\r]", function(c) return XML_TEXT[c] or "&#13;" end))
end

local function xml_attribute(s)
  return (xml_clean(s):gsub("[&<>\"'\n\r\t]", XML_ATTRIBUTE))
end

------------------------------------------------------------------------------------------------
-- Machine-readable reporters
------------------------------------------------------------------------------------------------

local function tap_description(name)
  return (name:gsub("\\", "\\\\"):gsub("#", "\\#"):gsub("[\r\n]", " "))
end

--- TAP version 13; failures carry a YAML block whose scalars are JSON strings (valid YAML).
-- The summary line follows the stream; TAP consumers ignore it.
function M.format_tap(result)
  local out = { "TAP version 13", "1.." .. #result.tests }
  for i, entry in ipairs(result.tests) do
    local description = tap_description(entry.name)
    if entry.status == "passed" then
      out[#out + 1] = format("ok %d - %s", i, description)
    elseif entry.status == "skipped" then
      local reason = entry.message and " " .. tap_description(entry.message) or ""
      out[#out + 1] = format("ok %d - %s # SKIP%s", i, description, reason)
    else
      out[#out + 1] = format("not ok %d - %s", i, description)
      out[#out + 1] = "  ---"
      out[#out + 1] = "  message: " .. json_string(entry.message or "")
      out[#out + 1] = "  severity: " .. (entry.status == "error" and "error" or "fail")
      if location(entry) then out[#out + 1] = "  at: " .. json_string(location(entry)) end
      if entry.traceback then out[#out + 1] = "  traceback: " .. json_string(entry.traceback) end
      out[#out + 1] = "  ..."
    end
  end
  out[#out + 1] = M.summary_line(result)
  return concat(out, "\n") .. "\n"
end

local function seconds(value)
  return format("%.3f", value or 0)
end

--- A JUnit XML document (no summary line): one <testsuite>, a <testcase> per entry with
-- `classname` = spec file, `name` = full test name, and <failure>, <error> or <skipped/>.
function M.format_junit(result, suite_name)
  suite_name = suite_name or "traitlab"
  local failures = result.failed - result.errors
  local counts = format('tests="%d" failures="%d" errors="%d" skipped="%d" time="%s"',
    #result.tests, failures, result.errors, result.skipped, seconds(result.duration))
  local out = { '<?xml version="1.0" encoding="UTF-8"?>',
                format('<testsuites name="%s" %s>', xml_attribute(suite_name), counts),
                format('  <testsuite name="%s" %s>', xml_attribute(suite_name), counts) }
  for _, entry in ipairs(result.tests) do
    local open = format('    <testcase classname="%s" name="%s" time="%s"',
      xml_attribute(entry.file or suite_name), xml_attribute(entry.name), seconds(entry.duration))
    if entry.file then open = open .. format(' file="%s"', xml_attribute(entry.file)) end
    if entry.line then open = open .. format(' line="%d"', entry.line) end
    if entry.status == "passed" then
      out[#out + 1] = open .. "/>"
    else
      out[#out + 1] = open .. ">"
      if entry.status == "skipped" then
        local reason = entry.message and format(' message="%s"', xml_attribute(entry.message)) or ""
        out[#out + 1] = "      <skipped" .. reason .. "/>"
      else
        local element = entry.status == "error" and "error" or "failure"
        local message = entry.message or ""
        local body = entry.traceback and message .. "\n" .. entry.traceback or message
        out[#out + 1] = format('      <%s message="%s" type="%s">%s</%s>', element,
          xml_attribute(message:match("^[^\n]*")), element, xml_text(body), element)
      end
      out[#out + 1] = "    </testcase>"
    end
  end
  out[#out + 1] = "  </testsuite>"
  out[#out + 1] = "</testsuites>"
  return concat(out, "\n") .. "\n"
end

--- The result table as a JSON document (no summary line).
function M.format_json(result)
  local out = {}
  json_value(result, out)
  return concat(out) .. "\n"
end

--- What `traitlab test --format NAME` prints on stdout: the report, always ending with the
-- summary line (after the document for junit and json). A listing is always plain names.
function M.format(result, name, opts)
  opts = opts or {}
  if result.listed or name == nil or name == "text" then return M.format_text(result, opts) end
  if name == "tap" then return M.format_tap(result) end
  if name == "junit" then return M.format_junit(result, opts.suite_name) .. M.summary_line(result) .. "\n" end
  if name == "json" then return M.format_json(result) .. M.summary_line(result) .. "\n" end
  error("unknown format '" .. tostring(name) .. "' (expected text, tap, junit or json)", 2)
end

------------------------------------------------------------------------------------------------
-- Installation
------------------------------------------------------------------------------------------------

--- Puts the busted-style globals into `env` (normally _G) and starts a fresh registry.
function M.install(env)
  M.reset()
  env.describe, env.context = describe, describe
  env.it, env.pending, env.finally = it, pending, finally
  env.before_each = hook("before_each")
  env.after_each = hook("after_each")
  env.setup = hook("setup")
  env.teardown = hook("teardown")
  env.lazy_setup, env.strict_setup = env.setup, env.setup
  env.lazy_teardown, env.strict_teardown = env.teardown, env.teardown
  env.assert, env.spy, env.stub = assert_api, spy_api, stub_api
  return env
end

M.reset()

return M
