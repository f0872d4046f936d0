-- A full escape once found: `view.__index` handed out the environment's
-- private field table, whose `__handlers` / `__targets` the host then used as
-- tables without a type check (a number became a memory address). Now no
-- "__" name reaches a script, the metatable is the class (protected), and
-- registration data lives where no script can reach or replace it.
-- args: --sandbox
-- stdout: ^done$
local v = ui.View {}
for _, k in ipairs { "__index", "__newindex", "__handlers", "__targets", "__owned", "__gc",
                     "__metatable", "__backgroundColor", "__rootView", "__contentConfiguration" } do
  if v[k] ~= nil then print("ESCAPED: view." .. k .. " is a " .. type(v[k])) end
  if pcall(function() v[k] = 0x4141414141414141 end) then print("ESCAPED: view." .. k .. " was written") end
end
assert(rawequal(getmetatable(v), ui.View), "getmetatable(view) is the class")
assert(not pcall(setmetatable, v, {}), "the metatable cannot be replaced")
-- Forged registration data cannot be planted in the constructor table either.
assert(not pcall(ui.View, { __handlers = 0x4141414141414141 }))
assert(not pcall(ui.View, { __owned = 12345 }))
-- Registrations still work, and a hostile handler table is impossible to reach.
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local root = ui.ViewController {}
window.rootViewController = root
ui.update()
local calls = 0
root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() calls = calls + 1 end)
root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { action = "poke" })
function root.view:poke() calls = calls + 1 end
root.view.traitOverrides.userInterfaceStyle = "dark"
ui.update()
assert(calls == 2, "both registrations ran: " .. calls)
-- User fields and subclass methods still work (docs/guide.md, "The hierarchy and overrides").
local Card = ui.View:subclass("Card", { hello = function(self) return "hi " .. self.items[1] end })
local c = Card { items = { "a" } }
c.extra = 5
assert(c:hello() == "hi a" and c.extra == 5 and rawequal(getmetatable(c), Card))
c.extra = nil
assert(c.extra == nil)
print("done")
