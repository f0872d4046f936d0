-- A busted helper (--helper=helpers/announce.lua): it receives -Xhelper's
-- options as `arg`, keeps them where the spec can see them, and subscribes to
-- busted's events to print a line after each test.
local busted = require "busted"

local seen = {}
for i = 1, #arg do seen[i] = arg[i] end
_G.helper_arguments = seen

busted.subscribe({ "test", "end" }, function(element, _, status)
  print("[helper] " .. status .. ": " .. element.name)
  return nil, true
end)
