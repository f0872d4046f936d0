-- An output handler of our own (-o handlers/lines.lua or -o handlers.lines):
-- one line per test with its status, then the counts. -Xoutput options are
-- its arguments: the first, if any, prefixes every line.
return function(options)
  local busted = require "busted"
  local handler = require("busted.outputHandlers.base")()
  local prefix = options.arguments[1] or ">"

  handler.testEnd = function(element, _, status)
    io.write(prefix, " ", status, " ", handler.getFullName(element), "\n")
    return nil, true
  end

  handler.suiteEnd = function()
    io.write(prefix, " ", handler.successesCount, " ok, ", handler.failuresCount, " failed, ",
      handler.errorsCount, " errors, ", handler.pendingsCount, " pending\n")
    return nil, true
  end

  handler.error = function(element, _, message)
    io.write(prefix, " error in ", element.descriptor, ": ", tostring(message), "\n")
    return nil, true
  end

  busted.subscribe({ "test", "end" }, handler.testEnd, { predicate = handler.cancelOnPending })
  busted.subscribe({ "suite", "end" }, handler.suiteEnd)
  busted.subscribe({ "error", "file" }, handler.error)
  return handler
end
