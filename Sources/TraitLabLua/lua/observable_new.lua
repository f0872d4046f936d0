-- ui.Observable as the host sets it at start: observable.lua is loaded on
-- the first call (ObservableLibrary.swift; `load` is the host's, and
-- returns that module's `new`), and every call goes on to `new` as a tail
-- call, so that its errors name the caller's line, as they did when
-- ui.Observable was `new` itself.
--
-- Also returns the module's _ENV, made now, at start: what observable.lua
-- keeps in locals when it loads, as the globals hold it now (a script run
-- before the first call cannot hand the module other functions), over the
-- globals for what it reads as it runs (`error`), as before. The host keeps
-- it; nothing here does.

local load = ...

local env = setmetatable({
  next = next, type = type, tostring = tostring, setmetatable = setmetatable,
  rawequal = rawequal, rawget = rawget, rawset = rawset, rawlen = rawlen,
  string = { format = string.format },
  table = { sort = table.sort, concat = table.concat },
  math = { maxinteger = math.maxinteger },
}, { __index = _ENV })

local new

return function(...)
  local f = new
  if f == nil then
    f = load()
    new = f
  end
  return f(...)
end, env
