-- A plugin named on the command line is available to require and
-- plugins.load by name in the sandbox; nothing else is.
-- args: --sandbox --plugin evil
-- stdout: ^evil evil true$
local m = plugins.load("evil")
print(m.name .. " " .. require("evil").name .. " " .. tostring((pcall(plugins.load, "secret")) == false))
