-- traitlab test's capture of reports (the driver, busted.lua, loads this
-- part): what TraitLab adds to busted's output handlers. Machine formats
-- keep standard output for their document; TAP keeps one line per result;
-- JUnit and JSON are always documents their parsers accept. A matrix's own
-- reports are busted_matrix.lua's.

local driver = ...   -- what the driver shares with its parts
local tl, opts = driver.tl, driver.opts
---------------------------------------------------------------------------
-- Machine formats: standard output carries the document alone. Everything
-- else written to fd 1 (spec prints, busted's notes) goes to standard error;
-- the handler's document is captured at `suite end` and written to the real
-- standard output at exit, with characters XML forbids replaced in JUnit.

local capture
local matrix = driver.part('busted_matrix')
-- (driver.machineFormat: 'junit' or 'json' once busted loads that handler;
-- driver.activeOutput: the output handler busted loaded first.)


-- TAP is a line protocol: a test's name or a pending test's message with a
-- line break would add lines of its own ("ok 2", a second plan), and "# SKIP"
-- or "# TODO" in a name is a directive (TAP 13: escape the '#' as "\#"; a
-- busted tag such as #fast is left as busted writes it). busted's handler
-- writes them as they are; here they reach it as one line.
local tapPatched = false
local function tapOneLine()
  if tapPatched then return end
  tapPatched = true
  local function oneLine(text)
    return (tostring(text):gsub('\r\n', '\\n'):gsub('[\r\n]', '\\n'))
  end
  local makeTAP = require 'busted.outputHandlers.TAP'
  package.loaded['busted.outputHandlers.TAP'] = function(...)
    local handler = makeTAP(...)
    local format = handler.format
    handler.format = function(...)
      local t = format(...)
      -- An error outside any block (a file that does not load, a root that
      -- does not exist) has an element without a trace, which busted's
      -- handler reads for its "# FILE @ LINE" comment (and stops the run):
      -- it gets the error's own place, or the file's name and line 0.
      local element = t.element
      if type(element) == 'table' and (type(element.trace) ~= 'table' or element.trace.currentline == nil) then
        local trace = type(t.trace) == 'table' and t.trace or {}
        local src = trace.short_src or (type(element.trace) == 'table' and element.trace.short_src)
                    or driver.specFileOf[element] or element.name
        t.element = setmetatable({ trace = { short_src = tostring(src or '?'), currentline = trace.currentline or 0 } },
                                 { __index = element })
      end
      t.name = oneLine(t.name):gsub('\\?#(%s*)(%a*)', function(space, word)
        local w = word:upper()
        if w == 'SKIP' or w == 'TODO' then return '\\#' .. space .. word end
      end)
      return t
    end
    -- (A failure's message is busted's to write: it puts '# ' on each line.)
    local testEnd = handler.testEnd
    handler.testEnd = function(element, parent, status, ...)
      local t = status == 'pending' and handler.pendings[#handler.pendings]
      if t and t.message ~= nil then t.message = oneLine(t.message) end
      return testEnd(element, parent, status, ...)
    end
    return handler
  end
end

-- The handler busted loads (named by --format, -o or a .busted file) decides.
local makeOutputLoader = require 'busted.modules.output_handler_loader'
package.loaded['busted.modules.output_handler_loader'] = function(...)
  local loadHandler = makeOutputLoader(...)
  return function(busted, output, options)
    driver.activeOutput = driver.activeOutput or output
    if not opts.worker and (output == 'junit' or output == 'json') and not driver.machineFormat then
      driver.machineFormat = output
      tl.redirect_stdout()
    end
    if output == 'TAP' and not opts.worker then tapOneLine() end
    if output == 'junit' and opts.matrix and not opts.worker then
      local handler = matrix.junit(busted, options)
      handler:subscribe(options)
      return handler
    end
    if output ~= 'json' then return loadHandler(busted, output, options) end
    -- busted's JSON handler encodes its elements as they are, and a pending
    -- test's holds a function (its default_fn), which dkjson refuses: with a
    -- pending test it wrote nothing and busted counted an error (busted issue
    -- #729, open). While it writes, a value JSON cannot hold becomes dkjson's
    -- own placeholder string (json.encodeexception).
    local json, encode = require 'dkjson', nil
    busted.subscribe({ 'suite', 'end' }, function()
      encode = encode or json.encode
      json.encode = function(value, state)
        state = state or {}
        if state.exception == nil then state.exception = json.encodeexception end
        return encode(value, state)
      end
      return nil, true
    end, { priority = 1 })
    local handler = loadHandler(busted, output, options)
    busted.subscribe({ 'suite', 'end' }, function()
      if encode then json.encode, encode = encode, nil end
      return nil, true
    end)
    return handler
  end
end

local function startCapture()
  if driver.machineFormat and not capture then
    capture = io.tmpfile()
    if capture then io.output(capture) end
  end
  return nil, true
end

-- XML is text: each byte that is not part of valid UTF-8 becomes U+FFFD (a
-- test named or failing with "\255" would make the document ill-formed).
local function validUTF8(text)
  local out, i = {}, 1
  while true do
    local ok, bad = utf8.len(text, i)
    if ok then out[#out + 1] = text:sub(i); break end
    out[#out + 1] = text:sub(i, bad - 1)
    out[#out + 1] = '\u{FFFD}'
    i = bad + 1
  end
  return table.concat(out)
end

local function endCapture()
  if capture then
    io.output():flush()
    io.output(io.stdout)
    capture:seek('set')
    local text = capture:read('a') or ''
    capture:close()
    capture = nil
    if driver.machineFormat == 'junit' then
      -- XML 1.0's Char excludes the C0 controls but tab, LF and CR, and
      -- U+FFFE and U+FFFF.
      text = validUTF8(text):gsub('[%z\1-\8\11\12\14-\31]', '\u{FFFD}'):gsub('\239\191[\190\191]', '\u{FFFD}')
    elseif driver.machineFormat == 'json' then
      -- JSON text is UTF-8 (RFC 8259, section 8.1); dkjson copies bytes as they are.
      text = validUTF8(text)
    end
    tl.write_stdout(text)
  end
  return nil, true
end

return { startCapture = startCapture, endCapture = endCapture }
