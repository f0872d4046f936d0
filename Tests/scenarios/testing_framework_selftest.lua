-- Self-test of the `traitlab test` framework (Sources/CLuaShim/lua/testing.lua).
--
-- A plain lua5.4 script, run from the repository root:
--   lua5.4 Tests/scenarios/testing_framework_selftest.lua
-- It loads the framework the way the host does (`load(src, "=traitlab.testing")`) into fresh
-- environments, runs small spec files through it, and checks results, messages and reports.
-- It prints each failed check, ends with `N passed, N failed`, and exits 1 if any check failed.

local FRAMEWORK = "Sources/CLuaShim/lua/testing.lua"

------------------------------------------------------------------------------------------------
-- A minimal harness of our own (the framework under test cannot check itself)
------------------------------------------------------------------------------------------------

local passed, failed = 0, 0
local current_group = ""

local function group(name)
  current_group = name
end

local function check(condition, what, detail)
  if condition then
    passed = passed + 1
  else
    failed = failed + 1
    print("FAILED: " .. current_group .. ": " .. what .. (detail and ("\n  " .. detail) or ""))
  end
end

local function show(v)
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end

local function eq(actual, expected, what)
  check(actual == expected, what, "expected " .. show(expected) .. ", got " .. show(actual))
end

local function contains(haystack, needle, what)
  check(type(haystack) == "string" and haystack:find(needle, 1, true) ~= nil, what,
    "expected " .. show(haystack) .. " to contain " .. show(needle))
end

local function lacks(haystack, needle, what)
  check(type(haystack) == "string" and haystack:find(needle, 1, true) == nil, what,
    "expected " .. show(haystack) .. " not to contain " .. show(needle))
end

local function lines_of(text)
  local lines = {}
  for line in text:gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
  return lines
end

------------------------------------------------------------------------------------------------
-- Loading the framework and running specs
------------------------------------------------------------------------------------------------

local source do
  local file = assert(io.open(FRAMEWORK, "rb"), "run from the repository root: cannot open " .. FRAMEWORK)
  source = file:read("a")
  file:close()
end

-- A fresh framework instance installed into a fresh environment that sees _G.
local function fresh()
  local M = assert(load(source, "=traitlab.testing"))()
  local env = setmetatable({}, { __index = _G })
  M.install(env)
  return M, env
end

local function add_spec(M, env, code, path)
  path = path or "spec/example_spec.lua"
  local chunk, err = load(code, "@" .. path, "t", env)
  M.add_file(path, chunk or err)
end

-- Loads one spec file into a fresh instance and runs it; returns the result, M and env.
local function run_spec(code, opts, prepare)
  local M, env = fresh()
  if prepare then prepare(env) end
  add_spec(M, env, code)
  return M.run(opts), M, env
end

local function by_name(result)
  local map = {}
  for _, entry in ipairs(result.tests) do map[entry.name] = entry end
  return map
end

local function names(result)
  local list = {}
  for i, entry in ipairs(result.tests) do list[i] = entry.name end
  return table.concat(list, "|")
end

------------------------------------------------------------------------------------------------
-- Counts, statuses, positions
------------------------------------------------------------------------------------------------

group("counts")
do
  local ticks = 0
  local result = run_spec([[
describe("math", function()
  it("adds", function() assert.are.equal(2, 1 + 1) end)
  it("fails", function() assert.are.equal(3, 1 + 1) end)
  it("errors", function() local t = nil; return t.field end)
  pending("later")
  it("has no body")
end)
it("top level", function() end)
]], { clock = function() ticks = ticks + 1; return ticks * 0.5 end })
  eq(#result.tests, 6, "six entries")
  eq(result.passed, 2, "passed count")
  eq(result.failed, 2, "failed count includes errors")
  eq(result.errors, 1, "errors count")
  eq(result.skipped, 2, "skipped count")
  local t = by_name(result)
  eq(t["math adds"].status, "passed", "passing test")
  eq(t["math fails"].status, "failed", "assertion failure is 'failed'")
  eq(t["math errors"].status, "error", "runtime error is 'error'")
  eq(t["math later"].status, "skipped", "pending is skipped")
  eq(t["math has no body"].status, "skipped", "it without function is skipped")
  eq(t["top level"].status, "passed", "it outside describe")
  eq(t["math adds"].file, "spec/example_spec.lua", "file recorded")
  eq(t["math adds"].line, 2, "line of `it` recorded")
  eq(t["math later"].line, 5, "line of `pending` recorded")
  eq(t["math adds"].duration, 0.5, "duration measured with opts.clock")
  eq(t["math later"].duration, 0, "skipped tests take no time")
  eq(t["math adds"].message, nil, "no message when passing")
  contains(t["math errors"].message, "spec/example_spec.lua:4: attempt to index a nil value",
    "runtime error message keeps its position")
  contains(t["math errors"].traceback, "stack traceback:", "traceback present")
  contains(t["math errors"].traceback, "spec/example_spec.lua:4:", "traceback shows the spec line")
  lacks(t["math errors"].traceback, "traitlab.testing", "traceback hides framework frames")
  lacks(t["math fails"].traceback, "traitlab.testing", "failure traceback hides assertion internals")
  contains(t["math fails"].message, "spec/example_spec.lua:3: Expected objects to be equal.",
    "failure message positioned at the assertion")
  eq(type(result.duration), "number", "total duration")
end

group("non-string errors")
do
  local result = run_spec([[
it("table", function() error({ code = 42, why = "x" }) end)
it("nil", function() error(nil) end)
it("tostring", function() error(setmetatable({}, { __tostring = function() return "custom object" end })) end)
it("number", function() error(7) end)
it("boolean", function() error(false) end)
it("function", function() error(print) end)
]])
  local t = by_name(result)
  eq(t.table.message, 'error object is a table: { code = 42, why = "x" }', "table error serialized")
  eq(t["nil"].message, "error object is nil", "nil error")
  eq(t.tostring.message, "custom object", "__tostring used")
  eq(t.number.message, "7", "number error")
  eq(t.boolean.message, "error object is a boolean: false", "boolean error")
  contains(t["function"].message, "error object is a function: ", "function error")
  for name, entry in pairs(t) do eq(entry.status, "error", name .. " is an error") end
end

group("stack overflow")
do
  -- Without the traceback depth limit this takes hours: the handler would walk every frame.
  local result = run_spec([[
it("recurses", function() local function down() return 1 + down() end down() end)
]])
  local entry = result.tests[1]
  eq(entry.status, "error", "stack overflow is an error")
  contains(entry.message, "stack overflow", "its message")
  check(entry.traceback:match("\n\t%.%.%.$") ~= nil, "traceback cut short", entry.traceback)
end

------------------------------------------------------------------------------------------------
-- Hooks and nesting
------------------------------------------------------------------------------------------------

group("hook order")
do
  local result, _, env = run_spec([[
local log = LOG
setup(function() log[#log + 1] = "setup root" end)
teardown(function() log[#log + 1] = "teardown root" end)
before_each(function() log[#log + 1] = "before root" end)
after_each(function() log[#log + 1] = "after root" end)
describe("outer", function()
  lazy_setup(function() log[#log + 1] = "setup outer" end)
  strict_teardown(function() log[#log + 1] = "teardown outer" end)
  before_each(function() log[#log + 1] = "before outer 1" end)
  before_each(function() log[#log + 1] = "before outer 2" end)
  after_each(function() log[#log + 1] = "after outer" end)
  it("a", function() log[#log + 1] = "a" end)
  context("inner", function()
    before_each(function() log[#log + 1] = "before inner" end)
    after_each(function() log[#log + 1] = "after inner" end)
    it("b", function() log[#log + 1] = "b"; finally(function() log[#log + 1] = "finally b" end) end)
  end)
end)
]], nil, function(env) env.LOG = {} end)
  eq(table.concat(env.LOG, ", "), table.concat({
    "setup root", "setup outer",
    "before root", "before outer 1", "before outer 2", "a", "after outer", "after root",
    "before root", "before outer 1", "before outer 2", "before inner", "b", "finally b",
    "after inner", "after outer", "after root",
    "teardown outer", "teardown root" }, ", "), "hooks run outer to inner, then inner to outer")
  eq(names(result), "outer a|outer inner b", "nested full names joined with spaces")
  eq(result.passed, 2, "both pass")
end

group("hook failures")
do
  local result, _, env = run_spec([[
local log = LOG
describe("broken setup", function()
  setup(function() error("no database") end)
  teardown(function() log[#log + 1] = "teardown after failed setup" end)
  before_each(function() log[#log + 1] = "before_each must not run" end)
  it("one", function() log[#log + 1] = "one must not run" end)
  describe("nested", function()
    setup(function() log[#log + 1] = "nested setup must not run" end)
    it("two", function() end)
  end)
end)
describe("broken before_each", function()
  before_each(function() error("before boom") end)
  after_each(function() log[#log + 1] = "after_each still runs" end)
  it("three", function() log[#log + 1] = "three must not run" end)
end)
describe("broken after_each", function()
  after_each(function() assert.is_true(false) end)
  it("four", function() end)
end)
describe("finally", function()
  it("runs on failure", function()
    finally(function() log[#log + 1] = "finally after failure" end)
    error("body boom")
  end)
  it("fails itself", function() finally(function() error("finally boom") end) end)
end)
describe("broken teardown", function()
  teardown(function() error("teardown boom") end)
  it("five", function() end)
end)
describe("after", function() it("six", function() end) end)
]], nil, function(env) env.LOG = {} end)
  local t = by_name(result)
  eq(t["broken setup one"].status, "error", "setup failure fails the test")
  eq(t["broken setup nested two"].status, "error", "setup failure fails nested tests")
  contains(t["broken setup one"].message, "setup failed: spec/example_spec.lua:3: no database",
    "setup failure message")
  contains(t["broken setup nested two"].message, "no database", "nested test names the setup error")
  eq(t["broken before_each three"].status, "error", "before_each failure")
  contains(t["broken before_each three"].message, "before_each failed:", "before_each phase named")
  eq(t["broken after_each four"].status, "failed", "after_each assertion fails the test")
  contains(t["broken after_each four"].message, "after_each failed:", "after_each phase named")
  eq(t["finally runs on failure"].status, "error", "body error reported")
  contains(t["finally runs on failure"].message, "body boom", "first error wins over finally")
  contains(t["finally fails itself"].message, "finally failed:", "finally failure reported")
  eq(t["broken teardown five"].status, "passed", "test before a broken teardown passes")
  eq(t["broken teardown teardown"].status, "error", "teardown failure reported as an entry")
  contains(t["broken teardown teardown"].message, "teardown boom", "teardown message")
  eq(t["after six"].status, "passed", "later blocks still run")
  local log = table.concat(env.LOG, ", ")
  eq(log, "teardown after failed setup, after_each still runs, finally after failure",
    "what ran around failing hooks")
end

group("load errors")
do
  local M, env = fresh()
  add_spec(M, env, [[
describe("bad describe", function()
  it("registered before the error", function() end)
  error("describe boom")
end)
it("sibling", function() end)
]], "spec/a_spec.lua")
  add_spec(M, env, "it('x', function( end)", "spec/syntax_spec.lua")
  add_spec(M, env, "describe('no function')", "spec/usage_spec.lua")
  local result = M.run({ filter = "sibling" })
  local t = by_name(result)
  eq(t["bad describe"].status, "error", "describe body error is an entry")
  contains(t["bad describe"].message, "spec/a_spec.lua:3: describe boom", "describe error message")
  eq(t["bad describe"].line, 1, "describe error at the describe line")
  eq(t["spec/syntax_spec.lua"].status, "error", "syntax error entry named after the file")
  contains(t["spec/syntax_spec.lua"].message, "syntax_spec.lua:1:", "syntax message from load")
  contains(t["spec/usage_spec.lua"].message, "spec/usage_spec.lua:1: describe expects a function",
    "misuse reported at the caller")
  eq(t.sibling.status, "passed", "sibling still runs")
  eq(t["bad describe registered before the error"], nil, "filter still applies to tests")
  eq(result.failed, 3, "load errors are reported despite the filter")
end

group("misuse inside tests")
do
  local result = run_spec([[
it("nested it", function() it("inner", function() end) end)
it("hook in test", function() before_each(function() end) end)
it("bad it", function() end)
it("pending inside", function() pending("not ready yet"); error("unreachable") end)
]])
  local t = by_name(result)
  contains(t["nested it"].message, "it cannot be called inside a running test", "it inside it")
  contains(t["hook in test"].message, "before_each cannot be called inside a running test", "hook in it")
  eq(t["pending inside"].status, "skipped", "pending() inside a test skips it")
  eq(t["pending inside"].message, "not ready yet", "pending reason kept")
  local ok, message = pcall(function()
    local M, env = fresh()
    add_spec(M, env, "it('x', 42)")
    return M.run().tests[1].message
  end)
  check(ok, "running a spec with it(name, 42) does not raise")
  contains(message, "it expects a function, got (number) 42", "it with a non-function")
end

------------------------------------------------------------------------------------------------
-- Selection, order, fail-fast, listing, callbacks
------------------------------------------------------------------------------------------------

local SELECTION_SPEC = [[
local log = LOG
describe("alpha", function()
  setup(function() log[#log + 1] = "alpha setup" end)
  it("one (fast)", function() end)
  it("two", function() end)
end)
describe("beta", function()
  setup(function() log[#log + 1] = "beta setup" end)
  it("three.x", function() end)
  it("four", function() end)
end)
]]

local function selection(opts)
  local result, _, env = run_spec(SELECTION_SPEC, opts, function(env) env.LOG = {} end)
  return names(result), table.concat(env.LOG, ",")
end

group("filter and exclude")
do
  local picked, log = selection({ filter = "beta" })
  eq(picked, "beta three.x|beta four", "filter on the full name")
  eq(log, "beta setup", "setup of a block with nothing selected does not run")
  eq((selection({ filter = "one (fast)" })), "alpha one (fast)", "plain substring with pattern characters")
  eq((selection({ filter = "^alpha t" })), "alpha two", "Lua pattern")
  eq((selection({ filter = "three.x" })), "beta three.x", "pattern and plain agree")
  eq((selection({ filter = "%(" })), "alpha one (fast)", "escaped pattern")
  eq((selection({ filter = { "two", "four" } })), "alpha two|beta four", "several filters: any matches")
  eq((selection({ exclude = "alpha" })), "beta three.x|beta four", "exclude")
  eq((selection({ filter = "beta", exclude = "four" })), "beta three.x", "filter then exclude")
  eq((selection({ filter = "nothing matches this" })), "", "no match runs nothing")
  eq((selection({ filter = "[" })), "", "invalid pattern falls back to plain text")
end

group("list")
do
  local result, M, env = run_spec(SELECTION_SPEC, { list = true, filter = "o" },
    function(env) env.LOG = {} end)
  eq(result.listed, true, "listed flag")
  eq(names(result), "alpha one (fast)|alpha two|beta four", "list applies the filter")
  eq(#env.LOG, 0, "nothing runs while listing")
  eq(result.tests[1].status, nil, "listed entries have no status")
  eq(result.tests[1].line, 4, "listed entries have lines")
  eq(M.format_text(result), "alpha one (fast)\nalpha two\nbeta four\n", "listing prints names")
  eq(M.format(result, "json"), M.format_text(result), "listing ignores the format")
end

group("shuffle")
do
  local code = { "describe('block', function()" }
  for i = 1, 20 do code[#code + 1] = ("it('t%02d', function() end)"):format(i) end
  code[#code + 1] = "describe('inner', function() it('x', function() end) it('y', function() end) end)"
  code[#code + 1] = "end)"
  code = table.concat(code, "\n")
  local plain = names(run_spec(code))
  local first = run_spec(code, { shuffle = true, seed = 42 })
  local again = run_spec(code, { shuffle = true, seed = 42 })
  eq(names(first), names(again), "same seed, same order")
  eq(first.seed, 42, "seed reported")
  check(names(first) ~= plain, "shuffled order differs from declaration order")
  local other = run_spec(code, { shuffle = true, seed = 7 })
  check(names(other) ~= names(first), "another seed, another order")
  eq(#first.tests, 22, "every test runs once")
  local sorted = {}
  for _, entry in ipairs(first.tests) do sorted[#sorted + 1] = entry.name end
  table.sort(sorted)
  local expected = {}
  for name in plain:gmatch("[^|]+") do expected[#expected + 1] = name end
  table.sort(expected)
  eq(table.concat(sorted, "|"), table.concat(expected, "|"), "the same tests, reordered")
  eq(run_spec(code).seed, nil, "no seed without shuffle")
  math.randomseed(99)
  local before = math.random(1, 1000000)
  math.randomseed(99)
  run_spec(code, { shuffle = true, seed = 5 })
  eq(math.random(1, 1000000), before, "shuffling leaves math.random alone")
end

group("fail_fast")
do
  local result, _, env = run_spec([[
local log = LOG
describe("block", function()
  teardown(function() log[#log + 1] = "teardown" end)
  it("a", function() end)
  it("b", function() error("stop here") end)
  it("c", function() log[#log + 1] = "c ran" end)
end)
it("d", function() log[#log + 1] = "d ran" end)
]], { fail_fast = true }, function(env) env.LOG = {} end)
  eq(names(result), "block a|block b", "stops after the first failure")
  eq(table.concat(env.LOG, ","), "teardown", "teardown still runs, later tests do not")
  eq(result.failed, 1, "one failure")
end

group("host callbacks")
do
  local events = {}
  local M, env = fresh()
  env.EVENTS = events
  env.M = M
  add_spec(M, env, [[
describe("cb", function()
  before_each(function() EVENTS[#EVENTS + 1] = "before_each " .. M.current_test_name() end)
  it("one", function() EVENTS[#EVENTS + 1] = "body " .. M.current_test_name() end)
  pending("two")
end)
]])
  eq(M.current_test_name(), nil, "no current test while loading")
  local result = M.run({
    before_test = function(name) events[#events + 1] = "before_test " .. name end,
    after_test = function(name) events[#events + 1] = "after_test " .. name end,
    on_test = function(entry) events[#events + 1] = "on_test " .. entry.name .. " " .. entry.status end,
  })
  eq(table.concat(events, "; "),
    "before_test cb one; before_each cb one; body cb one; after_test cb one; on_test cb one passed; "
    .. "on_test cb two skipped", "callback order")
  eq(M.current_test_name(), nil, "no current test after the run")
  eq(result.passed, 1, "passes")
  eq(#M.run().tests, 0, "run consumes what was registered")
end

group("timeouts raised by the host")
do
  local result = run_spec([[
it("slow", function() local i = 0; while i < 2e7 do i = i + 1 end end)
it("next", function() end)
]], {
    -- The host arms its interrupt on the coroutine that runs the test, so the
    -- runner itself is never interrupted.
    before_test = function(name, co)
      if name == "slow" then
        local count = 0
        debug.sethook(co, function()
          count = count + 1
          if count > 10 then error("test timed out after 0.1 seconds", 0) end
        end, "", 1000)
      end
    end,
    after_test = function(_, co) debug.sethook(co) end,
  })
  local t = by_name(result)
  eq(t.slow.status, "error", "a hook error ends the test")
  eq(t.slow.message, "test timed out after 0.1 seconds", "timeout message")
  eq(t.next.status, "passed", "next test runs normally")
end

------------------------------------------------------------------------------------------------
-- Assertions
------------------------------------------------------------------------------------------------

local _, ENV = fresh()
local A = ENV.assert

-- Runs `fn`; checks that it passed.
local function passes(what, fn)
  local ok, err = pcall(fn)
  check(ok, what .. " passes", ok or tostring(err))
end

-- Runs `fn`; checks that it raised an assertion failure whose message contains every fragment,
-- and that the failure is positioned at the line in this file that made the assertion.
local function fails(what, fn, fragments)
  local ok, err = pcall(fn)
  check(not ok, what .. " fails")
  if ok then return end
  check(type(err) == "table", what .. " raises a failure object", tostring(err))
  local message = tostring(err)
  check(message:match("^[^\n]*testing_framework_selftest%.lua:%d+: ") ~= nil,
    what .. " is positioned in the spec", message)
  for _, fragment in ipairs(fragments or {}) do contains(message, fragment, what .. " message") end
  return message
end

group("assert as a function")
do
  local a, b, c = A(1, "two", 3)
  eq(a, 1, "returns the value")
  eq(b, "two", "returns the message")
  eq(c, 3, "returns every argument")
  local ok, err = pcall(function() A(false, "boom") end)
  check(not ok, "raises on false")
  check(err:match("testing_framework_selftest%.lua:%d+: boom$") ~= nil, "positioned like Lua's assert", err)
  ok, err = pcall(function() A(nil) end)
  check(err:match(": assertion failed!$") ~= nil, "default message", err)
  local value = { code = 1 }
  ok, err = pcall(function() A(false, value) end)
  check(rawequal(err, value), "non-string message raised as is")
  ok, err = pcall(function() A() end)
  contains(err, "bad argument #1 to 'assert' (value expected)", "no argument")
  local result = run_spec([[it("plain", function() assert(1 == 2, "one is not two") end)]])
  eq(result.tests[1].status, "failed", "plain assert failing in a test is a failure")
  eq(result.tests[1].message, "spec/example_spec.lua:1: one is not two", "its message")
end

group("equality")
do
  passes("are.equal", function() A.are.equal(1, 1) end)
  passes("equals", function() A.equals("a", "a") end)
  passes("is.equal", function() A.is.equal(true, true) end)
  passes("are_not.equal", function() A.are_not.equal(1, 2) end)
  passes("Not.equal", function() A.Not.equal({}, {}) end)
  passes("is_not.equal", function() A.is_not.equal(1, "1") end)
  fails("are.equal", function() A.are.equal(1, 2) end,
    { "Expected objects to be equal.", "Expected: (number) 1", "Actual:   (number) 2" })
  fails("are_not.equal", function() A.are_not.equal("x", "x") end,
    { "Expected objects not to be equal.", '(string) "x"' })
  fails("equal on distinct tables", function() A.equal({}, {}) end, { "(table) {}" })
  fails("float precision shown", function() A.equal(0.3, 0.1 + 0.2) end,
    { "Expected: (number) 0.3", "Actual:   (number) 0.30000000000000004" })
  fails("floats look like floats", function() A.equal(1, 1.5 - 0.5 + 1) end, { "(number) 2.0" })
  fails("custom message", function() A.are.equal(1, 2, "totals differ") end,
    { "totals differ\nExpected objects to be equal." })
  fails("no.equal", function() A.no.equal(1, 1) end, { "not to be equal" })
end

group("same")
do
  passes("same", function() A.are.same({ 1, { 2, x = "y" } }, { 1, { 2, x = "y" } }) end)
  passes("same scalars", function() A.same("a", "a") end)
  passes("same NaN", function() A.same(0 / 0, 0 / 0) end)
  passes("is_not.same", function() A.is_not.same({ 1 }, { 2 }) end)
  local a, b = { name = "a" }, { name = "a" }
  a.self, b.self = a, b
  passes("same on cycles", function() A.same(a, b) end)
  local p, q = { next = {} }, { next = {} }
  p.next.next, q.next.next = p, q.next
  passes("same on cycles of different shapes", function() A.same(p, q) end)
  local eq_mt = { __eq = function(x, y) return x.id == y.id end }
  local o1 = setmetatable({ id = 1, noise = 1 }, eq_mt)
  local o2 = setmetatable({ id = 1, noise = 2 }, eq_mt)
  passes("__eq decides for objects", function() A.same({ o1 }, { o2 }) end)
  fails("__eq decides for objects", function() A.same({ o1 }, { setmetatable({ id = 2, noise = 1 }, eq_mt) }) end)
  passes("metatables without __eq compare content", function()
    A.same(setmetatable({ 1 }, {}), { 1 })
  end)
  fails("same", function() A.same({ a = 1 }, { a = 2 }) end,
    { "Expected objects to be the same.", "Expected: (table) { a = 1 }", "Actual:   (table) { a = 2 }",
      "First difference at: a" })
  fails("same reports the path", function() A.same({ 1, { x = { 2 } } }, { 1, { x = { 3 } } }) end,
    { "First difference at: [2].x[1]" })
  fails("same with a missing key", function() A.same({}, { extra = true }) end,
    { "First difference at: extra" })
  fails("same with odd keys", function() A.same({ ["a b"] = 1 }, { ["a b"] = 2 }) end,
    { 'First difference at: ["a b"]', '{ ["a b"] = 1 }' })
  fails("same on strings quotes them", function() A.same("a\nb", "c") end, { '(string) "a\\nb"' })
  fails("same marks cycles", function() A.same(a, {}) end, { "self = <cycle>" })
  fails("same sorts keys", function() A.same({ 10, 20, b = 1, a = 2, [false] = 3, [5] = 4 }, {}) end,
    { "{ 10, 20, [5] = 4, a = 2, b = 1, [false] = 3 }" })
  local long = {}
  for i = 1, 30 do long["key" .. i] = i end
  local message = fails("long tables break into lines", function() A.same({ long }, {}) end)
  contains(message, "Expected: (table) {\n    {\n      key1 = 1,", "nested multi-line layout")
  fails("is_not.same", function() A.is_not.same({ 1 }, { 1 }) end, { "not to be the same" })
end

group("truth and nil")
do
  passes("is_true", function() A.is_true(true) end)
  passes("is.True", function() A.is.True(true) end)
  passes("is_false", function() A.is_false(false) end)
  passes("is_nil", function() A.is_nil(nil) end)
  passes("is.Nil", function() A.is.Nil(nil) end)
  passes("is_not_nil", function() A.is_not_nil(false) end)
  passes("truthy", function() A.truthy(0) end)
  passes("is_truthy", function() A.is_truthy("") end)
  passes("falsy", function() A.falsy(nil) end)
  passes("is_falsy", function() A.is_falsy(false) end)
  passes("is_not.truthy", function() A.is_not.truthy(nil) end)
  fails("is_true", function() A.is_true(1) end, { "Expected value to be true.", "Actual: (number) 1" })
  fails("is_false", function() A.is_false(nil) end, { "Expected value to be false.", "Actual: (nil) nil" })
  fails("is_nil", function() A.is_nil(false) end, { "Expected value to be nil.", "(boolean) false" })
  fails("is_not_nil", function() A.is_not_nil(nil) end, { "Expected value not to be nil." })
  fails("truthy", function() A.truthy(false) end, { "Expected value to be truthy." })
  fails("falsy", function() A.falsy(0) end, { "Expected value to be falsy.", "(number) 0" })
  fails("is_true with message", function() A.is_true(false, "flag must be set") end, { "flag must be set" })
  fails("is_nil with message", function() A.is_nil(1, "should be gone") end, { "should be gone" })
end

group("types")
do
  passes("is_number", function() A.is_number(1.5) end)
  passes("is_string", function() A.is_string("") end)
  passes("is_table", function() A.is_table({}) end)
  passes("is_function", function() A.is_function(print) end)
  passes("is_boolean", function() A.is_boolean(false) end)
  passes("is_not_number", function() A.is_not_number("1") end)
  fails("is_number", function() A.is_number("1") end, { "Expected value to be of type number.", '(string) "1"' })
  fails("is_table", function() A.is_table(nil) end, { "type table" })
  fails("is_function", function() A.is_function({}) end, { "type function" })
  fails("is_boolean", function() A.is_boolean(0) end, { "type boolean" })
  fails("is_string", function() A.is_string(1) end, { "type string" })
end

group("near and matches")
do
  passes("near", function() A.near(1, 1.05, 0.1) end)
  passes("is_not.near", function() A.is_not.near(1, 2, 0.5) end)
  fails("near", function() A.near(1, 2, 0.5) end,
    { "Expected values to be near.", "Expected: (number) 1 +/- 0.5", "Actual:   (number) 2" })
  fails("near with a string", function() A.near(1, "1", 0.5) end, { '(string) "1"' })
  local ok, err = pcall(function() A.near(1, 1) end)
  check(not ok and type(err) == "string", "near without tolerance is a usage error")
  contains(err, "expects a number tolerance", "usage message")
  passes("matches", function() A.matches("^ab+c$", "abbbc") end)
  passes("match alias", function() A.match("%d+", "a12") end)
  passes("matches a number", function() A.matches("^12$", 12) end)
  passes("no.match", function() A.no.match("z", "abc") end)
  fails("matches", function() A.matches("^z", "abc") end,
    { "Expected string to match the pattern.", 'Pattern: (string) "^z"', 'Actual:  (string) "abc"' })
  fails("matches nil", function() A.matches("x", nil) end, { "(nil) nil" })
  fails("matches with message", function() A.matches("x", "y", "wrong greeting") end, { "wrong greeting" })
end

group("errors")
do
  passes("has_error", function() A.has_error(function() error("boom") end) end)
  passes("has_error with message", function() A.has_error(function() error("boom") end, "boom") end)
  passes("has_error with positioned message", function()
    local here = debug.getinfo(1, "Sl")
    local expected = here.short_src .. ":" .. (here.currentline + 2) .. ": boom"
    A.has_error(function() error("boom") end, expected)
  end)
  passes("has_error with a table", function() A.has_error(function() error({ code = 1 }) end, { code = 1 }) end)
  passes("has_error with error level 0", function() A.has_error(function() error("raw", 0) end, "raw") end)
  passes("has_error catches failures", function()
    A.has_error(function() A.is_true(false) end)
  end)
  passes("has_error compares failure messages", function()
    A.has_error(function() A.is_true(false, "custom") end, "custom\nExpected value to be true.\nActual: (boolean) false")
  end)
  passes("errors alias", function() A.errors(function() error("x") end) end)
  passes("has_no.errors", function() A.has_no.errors(function() end) end)
  passes("has_no_error", function() A.has_no_error(function() end) end)
  passes("no.errors", function() A.no.errors(function() return 1 end) end)
  passes("has_error with a number", function() A.has_error(function() error(42) end, "42") end)
  passes("error_matches", function() A.error_matches(function() error("file not found") end, "not f%a+") end)
  passes("matches_error alias", function() A.matches_error(function() error({ 1 }) end, "table") end)
  passes("has_no.error_matches", function() A.has_no.error_matches(function() error("x") end, "y") end)
  fails("has_error without an error", function() A.has_error(function() end) end,
    { "Expected function to raise an error.", "No error was raised." })
  fails("has_error with another message", function() A.has_error(function() error("x", 0) end, "y") end,
    { 'Expected error: (string) "y"', 'Raised: (string) "x"' })
  fails("has_error with another table", function() A.has_error(function() error({ 1 }) end, { 2 }) end,
    { "Expected error: (table) { 2 }", "Raised: (table) { 1 }" })
  fails("has_error string against a table", function() A.has_error(function() error({}) end, "x") end)
  fails("has_no.errors", function() A.has_no.errors(function() error("unexpected", 0) end) end,
    { "Expected function not to raise an error.", 'Raised: (string) "unexpected"' })
  fails("error_matches", function() A.error_matches(function() error("abc", 0) end, "^z") end,
    { 'Pattern: (string) "^z"', 'Raised:  (string) "abc"' })
  fails("error_matches without an error", function() A.error_matches(function() end, ".") end,
    { "No error was raised." })
  fails("has_error with message", function() A.has_error(function() end, nil, "should reject") end,
    { "should reject" })
  local ok, err = pcall(function() A.has_error(42) end)
  check(not ok and type(err) == "string", "has_error on a non-function is a usage error")
  contains(err, "expects a function, got (number) 42", "usage message")
end

group("assertion names")
do
  local ok, err = pcall(function() A.is.blorp(1) end)
  check(not ok and type(err) == "string", "unknown assertion raises a plain error")
  contains(err, "unknown assertion or modifier 'blorp' in assert.is.blorp", "names the unknown word")
  check(err:match("^[^\n]*testing_framework_selftest%.lua:%d+: ") ~= nil, "positioned at the caller", err)
  ok, err = pcall(function() A.is_not(1) end)
  contains(err, "assert.is.not names no assertion", "a chain of modifiers only")
  ok, err = pcall(function() A.are_not.equals_ish(1, 1) end)
  contains(err, "'ish'", "unknown trailing word")
  local chain = A.is
  passes("chains are not shared", function() chain.equal(1, 1); chain.same({}, {}) end)
  passes("upper case words", function() A.Is.Not.Equal(1, 2) end)
  passes("double negation", function() A.is_not.no.equal(1, 1) end)
  passes("does", function() A.does.match("a", "a") end)
end

------------------------------------------------------------------------------------------------
-- Spies and stubs
------------------------------------------------------------------------------------------------

group("spies")
do
  local spy, stub = ENV.spy, ENV.stub
  local s = spy.new(function(x)
    if type(x) == "number" then return x * 2, "extra" end
  end)
  check(spy.is_spy(s), "is_spy")
  check(not spy.is_spy({}), "is_spy on a table")
  local doubled, extra = s(21)
  eq(doubled, 42, "calls through")
  eq(extra, "extra", "returns every value")
  local arg = { 1 }
  s(arg, nil)
  arg[1] = 99
  eq(#s.calls, 2, "records calls")
  eq(s.calls[1].vals[1], 21, "vals")
  eq(s.calls[2].vals.n, 2, "vals.n counts trailing nils")
  eq(s.calls[2].vals[1][1], 1, "vals are a snapshot")
  check(rawequal(s.calls[2].refs[1], arg), "refs keep identity")
  passes("was.called", function() A.spy(s).was.called() end)
  passes("was.called(n)", function() A.spy(s).was.called(2) end)
  passes("called_with snapshot", function() A.spy(s).was.called_with({ 1 }, nil) end)
  passes("called_with", function() A.spy(s).was.called_with(21) end)
  passes("was_not.called_with", function() A.spy(s).was_not.called_with(22) end)
  passes("was_not.called(n)", function() A.spy(s).was_not.called(3) end)
  passes("called without spy modifier", function() A.called(s, 2) end)
  passes("called_at_least", function() A.spy(s).was.called_at_least(1) end)
  passes("called_at_most", function() A.spy(s).was.called_at_most(2) end)
  fails("was.called(n)", function() A.spy(s).was.called(3) end,
    { "Expected spy to be called.", "Expected calls: 3", "Actual calls:   2" })
  fails("called_with", function() A.spy(s).was.called_with(3) end,
    { "Expected spy to be called with the arguments.", "Expected arguments: (3)", "Call 1: (21)",
      "Call 2: ({ 1 }, nil)" })
  fails("called_with arity matters", function() A.spy(s).was.called_with({ 1 }) end)
  fails("was_not.called", function() A.spy(s).was_not.called() end, { "Expected spy not to be called." })
  fails("called_at_least", function() A.spy(s).was.called_at_least(5) end, { "Minimum: 5", "Calls: 2" })
  fails("called with message", function() A.spy(s).was.called(9, "retries") end, { "retries" })
  s:clear()
  eq(#s.calls, 0, "clear")
  fails("never called", function() A.spy(s).was.called_with(1) end, { "The spy was never called." })
  passes("was_not.called after clear", function() A.spy(s).was_not.called() end)
  local ok, err = pcall(function() A.spy({}).was.called() end)
  check(not ok and type(err) == "string", "a non-spy is a usage error")
  contains(err, "expects a spy, got (table) {}", "usage message")
  ok, err = pcall(function() spy.new(42) end)
  contains(err, "spy.new expects a function", "spy.new with a non-function")
  eq(#spy().calls, 0, "spy() makes a spy")

  local obj = { total = 0 }
  function obj:add(n) self.total = self.total + n; return self.total end
  local original = obj.add
  local on = spy.on(obj, "add")
  eq(obj:add(5), 5, "spy.on calls through")
  eq(obj.total, 5, "with the receiver")
  passes("method spy called_with", function() A.spy(obj.add).was.called_with(obj, 5) end)
  on:revert()
  check(rawequal(obj.add, original), "revert restores")
  on:revert()
  check(rawequal(obj.add, original), "revert twice is harmless")

  local st = stub(obj, "add", "stubbed", 2)
  local r1, r2 = obj:add(1)
  eq(r1, "stubbed", "stub returns its values")
  eq(r2, 2, "stub returns every value")
  eq(obj.total, 5, "stub does not call through")
  passes("stub assertion", function() A.stub(st).was.called(1) end)
  st:revert()
  check(rawequal(obj.add, original), "stub reverts")
  local free = stub.new():returns(7)
  eq(free(), 7, "free stub with returns")
  free:invokes(function(x) return x + 1 end)
  eq(free(1), 2, "invokes")
  eq(stub()(), nil, "stub() returns nothing")
  ok, err = pcall(function() spy.on(nil, "x") end)
  contains(err, "spy.on expects a table", "spy.on without a table")
end

group("spies revert with their scope")
do
  local result, _, env = run_spec([[
describe("scoped", function()
  setup(function() spy.on(TARGET, "block_level") end)
  it("sees both", function()
    stub(TARGET, "test_level", "stubbed")
    assert.is_true(spy.is_spy(TARGET.block_level))
    assert.are.equal("stubbed", TARGET.test_level())
  end)
  it("test-level stub is gone", function()
    assert.are.equal("real", TARGET.test_level())
    assert.is_true(spy.is_spy(TARGET.block_level))
  end)
end)
describe("later", function()
  it("block-level spy is gone", function() assert.is_false(spy.is_spy(TARGET.block_level)) end)
end)
]], nil, function(env)
    env.TARGET = { test_level = function() return "real" end, block_level = function() end }
  end)
  eq(result.passed, 3, "spies and stubs revert after their test or block")
  eq(env.TARGET.test_level(), "real", "nothing left replaced after the run")
end

------------------------------------------------------------------------------------------------
-- Reporters
------------------------------------------------------------------------------------------------

-- A tiny strict JSON decoder: returns the value, or raises on anything RFC 8259 forbids.
local JSON_NULL = setmetatable({}, { __tostring = function() return "null" end })

local function decode_json(text)
  local pos = 1
  local function fail(why) error("invalid JSON at " .. pos .. ": " .. why, 0) end
  local function space() pos = text:find("[^ \t\r\n]", pos) or #text + 1 end
  local value
  local function string_value()
    pos = pos + 1
    local parts = {}
    while true do
      local c = text:sub(pos, pos)
      if c == "" then fail("unterminated string") end
      if c == '"' then pos = pos + 1; return table.concat(parts) end
      if c:byte() < 32 then fail("raw control character") end
      if c == "\\" then
        local e = text:sub(pos + 1, pos + 1)
        local simple = ({ ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" })[e]
        if simple then
          parts[#parts + 1] = simple
          pos = pos + 2
        elseif e == "u" then
          local hex = text:sub(pos + 2, pos + 5)
          if not hex:match("^%x%x%x%x$") then fail("bad \\u escape") end
          parts[#parts + 1] = utf8.char(tonumber(hex, 16))
          pos = pos + 6
        else
          fail("bad escape")
        end
      else
        parts[#parts + 1] = c
        pos = pos + 1
      end
    end
  end
  function value()
    space()
    local c = text:sub(pos, pos)
    if c == "{" then
      local object = {}
      pos = pos + 1
      space()
      if text:sub(pos, pos) == "}" then pos = pos + 1; return object end
      while true do
        space()
        if text:sub(pos, pos) ~= '"' then fail("key expected") end
        local key = string_value()
        space()
        if text:sub(pos, pos) ~= ":" then fail("colon expected") end
        pos = pos + 1
        object[key] = value()
        space()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == "}" then return object end
        if d ~= "," then fail("comma expected") end
      end
    elseif c == "[" then
      local array = {}
      pos = pos + 1
      space()
      if text:sub(pos, pos) == "]" then pos = pos + 1; return array end
      while true do
        array[#array + 1] = value()
        space()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == "]" then return array end
        if d ~= "," then fail("comma expected") end
      end
    elseif c == '"' then
      return string_value()
    end
    local number = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
    if number and number ~= "" and number ~= "-" then
      if number:match("^-?0%d") then fail("leading zero") end
      pos = pos + #number
      return tonumber(number)
    end
    for word, result in pairs({ ["true"] = true, ["false"] = false, null = JSON_NULL }) do
      if text:sub(pos, pos + #word - 1) == word then pos = pos + #word; return result end
    end
    fail("unexpected " .. show(c))
  end
  local result = value()
  space()
  if pos <= #text then fail("trailing text") end
  return result
end

-- A small XML 1.0 well-formedness checker for what the JUnit reporter can produce: balanced
-- elements, quoted attributes, known entities, and only characters XML allows.
local function check_xml(doc)
  if not utf8.len(doc) then return false, "invalid UTF-8" end
  for _, code in utf8.codes(doc) do
    local allowed = code == 9 or code == 10 or code == 13 or (code >= 32 and code <= 0xD7FF)
      or (code >= 0xE000 and code <= 0xFFFD) or code >= 0x10000
    if not allowed then return false, "character U+" .. string.format("%04X", code) end
  end
  local function entities_ok(text)
    for ref in text:gmatch("&([^;]*);") do
      if not (ref == "amp" or ref == "lt" or ref == "gt" or ref == "quot" or ref == "apos"
          or ref:match("^#%d+$") or ref:match("^#x%x+$")) then
        return false
      end
    end
    return not text:gsub("&[^;]*;", ""):find("&", 1, true)
  end
  local body = doc:gsub("^<%?xml [^>]*%?>", "")
  local stack, roots, pos = {}, 0, 1
  while true do
    local lt = body:find("<", pos, true)
    local text = body:sub(pos, (lt or #body + 1) - 1)
    if not entities_ok(text) then return false, "bad text " .. show(text) end
    if #stack == 0 and text:find("%S") then return false, "text outside the root" end
    if not lt then break end
    local gt = body:find(">", lt, true)
    if not gt then return false, "unclosed tag" end
    local tag = body:sub(lt + 1, gt - 1)
    local closing = tag:match("^/([%w_:%-]+)$")
    if closing then
      if stack[#stack] ~= closing then return false, "mismatched </" .. closing .. ">" end
      stack[#stack] = nil
    else
      local name, attributes, empty = tag:match("^([%w_:%-]+)(.-)(/?)$")
      if not name then return false, "bad tag " .. show(tag) end
      local seen = {}
      local rest = attributes:gsub('%s+([%w_:%-]+)="([^"<]*)"', function(key, value)
        if seen[key] or not entities_ok(value) then seen.bad = true end
        seen[key] = true
        return ""
      end)
      if seen.bad or rest:find("%S") then return false, "bad attributes in " .. show(tag) end
      if #stack == 0 then roots = roots + 1 end
      if empty == "" then stack[#stack + 1] = name end
    end
    pos = gt + 1
  end
  if #stack > 0 then return false, "unclosed <" .. stack[#stack] .. ">" end
  if roots ~= 1 then return false, roots .. " root elements" end
  return true
end

local function unescape_xml(s)
  return (s:gsub("&(#?x?)(%w+);", function(kind, ref)
    if kind == "#" then return utf8.char(tonumber(ref)) end
    if kind == "#x" then return utf8.char(tonumber(ref, 16)) end
    return ({ amp = "&", lt = "<", gt = ">", quot = '"', apos = "'" })[ref]
  end))
end

-- A mixed run used by every reporter check: names and messages with characters that need care.
local REPORT_SPEC = [==[
describe("report", function()
  it("passes", function() end)
  it("fails <&> \"quoted\" 'single' # hash", function() assert.are.equal(1, 2) end)
  it("errors with control \1\27[31m and bad \255 bytes", function() error("bad \0 \1 \255 \239\191\190 <tag> & done") end)
  pending("skips")
end)
]==]

local report_result, REPORT_M = run_spec(REPORT_SPEC)

group("summary line")
do
  local M = REPORT_M
  eq(M.summary_line({ passed = 3, failed = 0, skipped = 0 }), "3 passed, 0 failed", "no skipped part")
  eq(M.summary_line({ passed = 1, failed = 2, skipped = 4 }), "1 passed, 2 failed, 4 skipped", "skipped part")
  eq(M.summary_line(report_result), "1 passed, 2 failed, 1 skipped", "from a run")
  for _, name in ipairs({ "text", "tap", "junit", "json" }) do
    local out = M.format(report_result, name)
    local lines = lines_of(out)
    eq(out:sub(-1), "\n", name .. " output ends with a newline")
    eq(lines[#lines], "1 passed, 2 failed, 1 skipped", name .. " output ends with the summary line")
  end
  local ok, err = pcall(M.format, report_result, "yaml")
  check(not ok, "unknown format raises")
  contains(err, "unknown format 'yaml'", "names the format")
end

group("text format")
do
  local M = REPORT_M
  local text = M.format_text(report_result)
  local lines = lines_of(text)
  eq(lines[1], 'FAIL spec/example_spec.lua:3: report fails <&> "quoted" \'single\' # hash', "failure header")
  eq(lines[2], "  spec/example_spec.lua:3: Expected objects to be equal.", "message indented")
  contains(text, "  stack traceback:\n  \tspec/example_spec.lua:3:", "traceback indented")
  contains(text, "\nERROR spec/example_spec.lua:4: report errors", "error header")
  lacks(text, "PASS", "passing tests not listed without verbose")
  lacks(text, "\27[0m", "no color by default")
  eq(lines[#lines - 1], "", "blank line before the summary")
  local verbose = M.format_text(report_result, { verbose = true })
  eq(lines_of(verbose)[1]:match("^PASS report passes %(%d+%.%d%d%ds%)$") ~= nil, true, "verbose pass line")
  contains(verbose, "\nSKIP report skips\n", "verbose skip line")
  local colored = M.format_text(report_result, { color = true, verbose = true })
  contains(colored, "\27[32mPASS\27[0m report passes", "green pass")
  contains(colored, "\27[31mFAIL\27[0m spec/example_spec.lua:3:", "red failure header")
  local colored_lines = lines_of(colored)
  eq(colored_lines[#colored_lines], "1 passed, 2 failed, 1 skipped", "summary never colored")
  eq(M.format_test_line({ name = "n", status = "skipped", message = "why" }), "SKIP n: why", "skip reason")
  local clean = M.format_text({ tests = {}, passed = 0, failed = 0, skipped = 0, errors = 0 })
  eq(clean, "0 passed, 0 failed\n", "empty run is only the summary")
  local shuffled = M.format_text({ tests = {}, passed = 0, failed = 0, skipped = 0, errors = 0, seed = 9 })
  eq(shuffled, "shuffled with seed 9\n\n0 passed, 0 failed\n", "seed reported")
end

group("tap format")
do
  local M = REPORT_M
  local lines = lines_of(M.format_tap(report_result))
  eq(lines[1], "TAP version 13", "version line")
  eq(lines[2], "1..4", "plan")
  eq(lines[3], "ok 1 - report passes", "ok line")
  eq(lines[4], "not ok 2 - report fails <&> \"quoted\" 'single' \\# hash", "not ok line escapes #")
  eq(lines[5], "  ---", "YAML block opens")
  local message = lines[6]:match("^  message: (.*)$")
  check(message ~= nil, "message key", lines[6])
  local ok, decoded = pcall(decode_json, message or "")
  check(ok, "message is a JSON (YAML) string", tostring(decoded))
  eq(decoded, report_result.tests[2].message, "message round-trips")
  eq(lines[7], "  severity: fail", "severity")
  eq(lines[8], '  at: "spec/example_spec.lua:3"', "location")
  check(lines[9]:match('^  traceback: "stack traceback:\\n') ~= nil, "traceback", lines[9])
  eq(lines[10], "  ...", "YAML block closes")
  check(lines[11]:match("^not ok 3 %- report errors with control") ~= nil, "numbered error", lines[11])
  eq(lines[14], "  severity: error", "error severity")
  local skip_line
  for _, line in ipairs(lines) do if line:find("# SKIP", 1, true) then skip_line = line end end
  eq(skip_line, "ok 4 - report skips # SKIP", "skip directive")
  for i, line in ipairs(lines) do
    if line:match("^  message: ") or line:match("^  traceback: ") then
      local okj, err = pcall(decode_json, line:match(": (.*)$"))
      check(okj, "YAML scalar on line " .. i .. " is valid", tostring(err))
    end
  end
end

group("junit format")
do
  local M = REPORT_M
  local doc = M.format_junit(report_result, "my <suite>")
  local ok, why = check_xml(doc)
  check(ok, "well-formed XML", why)
  check(doc:match('^<%?xml version="1.0" encoding="UTF%-8"%?>\n<testsuites ') ~= nil, "declaration and root")
  local suite = doc:match("<testsuite (.-)>")
  contains(suite, 'name="my &lt;suite&gt;"', "suite name escaped")
  contains(suite, 'tests="4"', "tests count")
  contains(suite, 'failures="1"', "failures count")
  contains(suite, 'errors="1"', "errors count")
  contains(suite, 'skipped="1"', "skipped count")
  check(suite:match('time="%d+%.%d%d%d"') ~= nil, "suite time", suite)
  local cases = {}
  for attributes, rest in doc:gmatch("<testcase (.-)(/?)>") do cases[#cases + 1] = { attributes, rest } end
  eq(#cases, 4, "one testcase per entry")
  eq(cases[1][2], "/", "passing testcase is empty")
  local name2 = unescape_xml(cases[2][1]:match('%sname="(.-)"'))
  eq(name2, "report fails <&> \"quoted\" 'single' # hash", "name escaped and recovered")
  contains(cases[2][1], 'classname="spec/example_spec.lua"', "classname is the file")
  contains(cases[2][1], 'line="3"', "line attribute")
  local failure = doc:match('<failure message="(.-)" type="failure">(.-)</failure>')
  eq(unescape_xml(failure), "spec/example_spec.lua:3: Expected objects to be equal.",
    "failure message attribute is the first line")
  local error_attributes, error_body = doc:match('<error (.-)>(.-)</error>')
  check(error_body ~= nil, "error element")
  contains(error_body, "bad \\x00 \\x01 \239\191\189 \239\191\189 &lt;tag&gt; &amp; done", "error body sanitized")
  contains(unescape_xml(cases[3][1]:match('%sname="(.-)"')), "control \\x01\\x1B[31m and bad \239\191\189 bytes",
    "control characters and invalid bytes in names replaced")
  contains(error_attributes, 'type="error"', "error type")
  contains(doc, "<skipped/>", "skipped element")
  lacks(doc, "1 passed", "document has no summary line")
  local stdout = M.format(report_result, "junit")
  local document = stdout:match("^(.*\n)[^\n]*\n$")
  check(check_xml(document), "document before the summary line is well-formed")
  local attr_doc = M.format_junit({ tests = { { name = "multi\nline\ttab", status = "failed",
    message = "first\nsecond", duration = 0 } }, passed = 0, failed = 1, skipped = 0, errors = 0 })
  check(check_xml(attr_doc), "entry without file is well-formed")
  contains(attr_doc, 'name="multi&#10;line&#9;tab"', "newlines and tabs kept in attributes")
  contains(attr_doc, 'classname="traitlab"', "classname falls back to the suite name")
  contains(attr_doc, 'message="first"', "message attribute is the first line")
end

group("json format")
do
  local M = REPORT_M
  local text = M.format_json(report_result)
  local ok, doc = pcall(decode_json, text)
  check(ok, "valid JSON", tostring(doc))
  if ok then
    eq(doc.passed, 1, "passed")
    eq(doc.failed, 2, "failed")
    eq(doc.skipped, 1, "skipped")
    eq(doc.errors, 1, "errors")
    eq(#doc.tests, 4, "tests array")
    eq(doc.tests[2].name, report_result.tests[2].name, "names round-trip")
    eq(doc.tests[2].message, report_result.tests[2].message, "messages round-trip")
    eq(doc.tests[2].line, 3, "line")
    eq(doc.tests[2].status, "failed", "status")
    eq(doc.tests[3].message, "spec/example_spec.lua:4: bad \0 \1 \239\191\189 \239\191\190 <tag> & done",
      "control characters escaped, invalid UTF-8 replaced")
    eq(type(doc.tests[1].duration), "number", "duration")
  end
  local empty = decode_json(M.format_json({ tests = {}, passed = 0, failed = 0, skipped = 0, errors = 0 }))
  eq(type(empty.tests), "table", "empty tests is an array")
  eq(M.format_json({ tests = {}, passed = 0, failed = 0, skipped = 0, errors = 0, duration = 0 / 0 }),
    '{"duration":null,"errors":0,"failed":0,"passed":0,"skipped":0,"tests":[]}\n', "exact shape, NaN as null")
  local stdout = M.format(report_result, "json")
  local document = stdout:match("^(.*\n)[^\n]*\n$")
  check(pcall(decode_json, document), "document before the summary line is valid JSON")
end

------------------------------------------------------------------------------------------------
-- A sandbox without os, io, debug or utf8
------------------------------------------------------------------------------------------------

group("sandbox")
do
  local sandbox = {}
  for _, name in ipairs({ "assert", "error", "getmetatable", "ipairs", "load", "next", "pairs", "pcall",
    "rawequal", "rawget", "rawlen", "rawset", "select", "setmetatable", "tonumber", "tostring",
    "type", "xpcall" }) do
    sandbox[name] = _G[name]
  end
  sandbox.string, sandbox.table, sandbox.math = string, table, math
  local M = assert(load(source, "=traitlab.testing", "t", sandbox))()
  M.install(sandbox)
  M.add_file("spec/sandboxed_spec.lua", assert(load([[
describe("sandboxed", function()
  it("passes", function() assert.are.same({ 1 }, { 1 }) end)
  it("fails", function() assert.are.equal(1, 2) end)
end)
]], "@spec/sandboxed_spec.lua", "t", sandbox)))
  local result = M.run({ shuffle = true })
  eq(result.passed, 1, "passes without os/debug")
  eq(result.failed, 1, "fails without os/debug")
  eq(result.seed, 0, "seed defaults to 0 without os")
  local t = by_name(result)
  eq(t["sandboxed fails"].message, "Expected objects to be equal.\nExpected: (number) 1\nActual:   (number) 2",
    "message without position")
  eq(t["sandboxed fails"].traceback, nil, "no traceback without debug")
  eq(t["sandboxed passes"].duration, 0, "zero durations without a clock")
  eq(t["sandboxed passes"].line, nil, "no line without debug")
  check(check_xml(M.format_junit(result)), "junit without utf8 library")
  check(pcall(decode_json, M.format_json(result)), "json without utf8 library")
end

------------------------------------------------------------------------------------------------
-- Summary
------------------------------------------------------------------------------------------------

print(string.format("%d passed, %d failed", passed, failed))
if failed > 0 then os.exit(1) end
