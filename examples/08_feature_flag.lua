-- A feature flag as a trait, persisted across runs: the window scene registers
-- for the flag and writes its collection's encoding to a JSON file (keyed by
-- trait identifier; a flag at its default, false, is left out: `{}`), and the
-- next run restores it from there.
-- Run twice: traitlab examples/08_feature_flag.lua [file]
local path = arg and arg[1] or ((os.getenv("TMPDIR") or "/tmp") .. "/traitlab-feature-flags.json")

local NewCheckout = traits.define {
  name = "NewCheckoutEnabled", default = false,
  identifier = "com.example.feature.newCheckout", property = "newCheckoutEnabled",
}

local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local checkout = ui.ViewController { name = "checkout" }
window.rootViewController = checkout

-- Restore: the file holds an encoded collection, so decode understands it.
local f = io.open(path)
if f then
  local saved = traits.decode(f:read("a"))
  f:close()
  scene.traitOverrides.newCheckoutEnabled = saved.newCheckoutEnabled
  print("restored from " .. path .. ": newCheckoutEnabled = " .. tostring(saved.newCheckoutEnabled))
else
  print("no saved flags at " .. path .. " (first run)")
end
ui.update()
print("checkout sees newCheckoutEnabled = " .. tostring(checkout.traitCollection.newCheckoutEnabled))

-- Persist every change the scene sees.
scene:registerForTraitChanges({ NewCheckout }, function(s)
  local json = traits.collection { [NewCheckout] = s.traitCollection.newCheckoutEnabled }:encode()
  local out = assert(io.open(path, "w"))
  out:write(json)
  out:close()
  print("saved " .. json)
end)

-- Flip the flag; the next run starts from the flipped value.
scene.traitOverrides.newCheckoutEnabled = not checkout.traitCollection.newCheckoutEnabled
ui.update()
print("checkout now sees newCheckoutEnabled = " .. tostring(checkout.traitCollection.newCheckoutEnabled))
