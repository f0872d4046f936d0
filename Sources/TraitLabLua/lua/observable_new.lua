-- ui.Observable as the host sets it at start: observable.lua is loaded on
-- the first call (ObservableLibrary.swift; `load` is the host's, and
-- returns that module's `new`), and every call goes on to `new` as a tail
-- call, so that its errors name the caller's line, as they did when
-- ui.Observable was `new` itself.

local load = ...
local new

return function(...)
  local f = new
  if f == nil then
    f = load()
    new = f
  end
  return f(...)
end
