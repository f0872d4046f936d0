-- traitlab test's matrix reports (busted_capture.lua and the driver load
-- this part): a matrix's JUnit, one testsuite per combination and file, and
-- the table of each combination's counts that closes the text report.

local driver = ...   -- what the driver shares with its parts
local tl, opts = driver.tl, driver.opts
local combinationOf = driver.combinationOf

-- JUnit for a matrix run: busted's handler makes one testsuite per run; here
-- each combination and spec file is a testsuite of its own, named
-- "[combination] file", with the combination's options as its properties
-- (as JUnit's schema has them), in the order they ran.
local function matrixJUnit(busted, options)
  local xml = require 'pl.xml'
  local handler = require 'busted.outputHandlers.base'()
  local top = xml.new('testsuites', { tests = 0, errors = 0, failures = 0, skip = 0 })
  local start = busted.monotime()
  local suites, order, current, seconds = {}, {}, nil, {}
  local function fileOf(element)
    local e = element
    while e and e.descriptor ~= "file" do e = busted.context.parent(e) end
    return e
  end
  local function suiteFor(element)
    local file = fileOf(element)
    local combo = (file and file.combo) or combinationOf[element]
    -- (An error of a file itself is on an element named after its combination.)
    local name = tostring(file and (driver.specFileOf[file] or file.name) or element.name)
    local key = (combo and combo.label or '') .. ' ' .. name
    local suite = suites[key]
    if not suite then
      suite = xml.new('testsuite', { name = (combo and combo.label .. ' ' or '') .. name,
                                     tests = 0, errors = 0, failures = 0, skip = 0, time = '0.00',
                                     timestamp = os.date('!%Y-%m-%dT%H:%M:%S') })
      if combo then
        suite:addtag('properties')
        for _, p in ipairs(combo.properties) do suite:addtag('property', { name = p.name, value = p.value }):up() end
        suite:up()
      end
      suites[key] = suite
      order[#order + 1] = suite
    end
    return suite
  end
  local function add(suite, field, n)
    suite.attr[field] = suite.attr[field] + n
    top.attr[field] = top.attr[field] + n
  end
  local function status(node, tag, message, trace)
    node:addtag(tag)
    if message then node:text(message) end
    if trace and trace.traceback then node:text(trace.traceback) end
    node:up()
  end
  handler.testStart = function(element)
    local suite = suiteFor(element)
    current = xml.new('testcase', { classname = element.trace.short_src .. ':' .. element.trace.currentline,
                                    name = handler.getFullName(element) })
    suite:add_direct_child(current)
    return nil, true
  end
  handler.testEnd = function(element, _, result)
    local suite = suiteFor(element)
    add(suite, 'tests', 1)
    current:set_attrib('time', ('%.2f'):format(element.duration or 0))
    seconds[suite] = (seconds[suite] or 0) + (element.duration or 0)
    suite:set_attrib('time', ('%.2f'):format(seconds[suite]))
    if result == 'pending' then
      add(suite, 'skip', 1)
      local formatted = handler.pendings[#handler.pendings]
      status(current, 'skipped', formatted and formatted.message, formatted and element.trace ~= formatted.trace and formatted.trace)
    end
    return nil, true
  end
  handler.failureTest = function(element, _, message, trace)
    add(suiteFor(element), 'failures', 1)
    status(current, 'failure', message, trace)
    return nil, true
  end
  handler.errorTest = function(element, _, message, trace)
    add(suiteFor(element), 'errors', 1)
    status(current, 'error', message, trace)
    return nil, true
  end
  handler.error = function(element, _, message, trace)
    if element.descriptor == 'it' then return nil, true end
    local suite = suiteFor(element)
    add(suite, 'errors', 1)
    local node = xml.new('testcase', { classname = tostring(element.name), name = handler.getFullName(element) })
    status(node, 'error', message, trace)
    suite:add_direct_child(node)
    return nil, true
  end
  handler.exit = function()
    for _, suite in ipairs(order) do top:add_direct_child(suite) end
    top.attr.time = ('%.2f'):format(busted.monotime() - start)
    local text = xml.tostring(top, '', '\t', nil, false)
    local file = type(options.arguments) == 'table' and type(options.arguments[1]) == 'string'
                 and io.open(options.arguments[1], 'w+b')
    if file then
      file:write(text, '\n')
      file:close()
    else
      io.write(text, '\n')
      io.flush()
    end
    return nil, true
  end
  local subscribe = handler.subscribe
  handler.subscribe = function(self, opts_)
    subscribe(self, opts_)
    busted.subscribe({ 'test', 'start' }, handler.testStart, { predicate = handler.cancelOnPending })
    busted.subscribe({ 'test', 'end' }, handler.testEnd, { predicate = handler.cancelOnPending })
    busted.subscribe({ 'failure', 'it' }, handler.failureTest)
    busted.subscribe({ 'error', 'it' }, handler.errorTest)
    busted.subscribe({ 'failure' }, handler.error)
    busted.subscribe({ 'error' }, handler.error)
    busted.subscribe({ 'exit' }, handler.exit)
  end
  return handler
end

-- The text report's last table: each combination's counts, in the order
-- the combinations ran.
local function countsTable(comboCounts)
  local width = #'combination'
  for _, combo in ipairs(opts.matrix) do width = math.max(width, utf8.len(combo.label) or #combo.label) end
  -- (Padded by hand: string.format takes widths below 100 only, and a label can be longer.)
  local lines = { '', 'combination' .. (' '):rep(width - #'combination') .. ('  %6s  %6s  %7s'):format('passed', 'failed', 'skipped') }
  for c, combo in ipairs(opts.matrix) do
    local row = comboCounts[combo.label]
    -- (Under --shard, a combination this slice runs no file of has no row.)
    if driver.shards.ranAny(c) then
      local pad = width - (utf8.len(combo.label) or #combo.label)
      lines[#lines + 1] = combo.label .. (' '):rep(pad) .. ('  %6d  %6d  %7d'):format(row.passed, row.failed, row.skipped)
    end
  end
  tl.write_stdout(table.concat(lines, '\n') .. '\n')
end

-- A matrix's progress while the report waits for the next worker run to
-- end: on a terminal, one line on standard error, rewritten as worker runs
-- end and cleared before the report goes on (busted_workers.lua decides
-- when), so a long matrix shows it is moving. Nothing elsewhere: logs and
-- reports stay as they are.
local function progress(done, total)
  if not opts.matrix or total < 2 or not tl.is_terminal(2) then return end
  io.stderr:write(('\rtraitlab test: %d of %d worker runs done'):format(done, total), done == total and '\r\27[K' or '')
  io.stderr:flush()
end

-- Clears the progress line before the report goes on.
local function clearProgress()
  io.stderr:write('\r\27[K')
  io.stderr:flush()
end

return { junit = matrixJUnit, countsTable = countsTable, progress = progress, clearProgress = clearProgress }
