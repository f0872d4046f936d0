-- Trait values enter checked (docs/guide.md, "Traits and trait collections"): a number trait
-- refuses NaN and infinities (NaN is not equal to itself, so a collection
-- holding it never equals its copy, and every update reports a change); a
-- screen's displayScale is a scale from 1 to 10; JSON refuses integers past
-- 64 bits both ways; ui.devices cannot be changed for the rest of the run.
-- stdout: ^all refused$
local function refused(f, pattern)
  local ok, err = pcall(f)
  assert(not ok, 'accepted: ' .. pattern)
  assert(tostring(err):find(pattern), tostring(err))
end
refused(function() ui.Screen { displayScale = 0/0 } end, 'finite number, got nan')
refused(function() ui.Screen { displayScale = 1/0 } end, 'finite number, got inf')
refused(function() ui.Screen { displayScale = 0 } end, 'from 1 to 10')
refused(function() ui.Screen { displayScale = -1 } end, 'from 1 to 10')
refused(function() ui.Screen { displayScale = 1e308 } end, 'from 1 to 10')
local s = ui.Screen { displayScale = 2 }
refused(function() s:setTraits { displayScale = -1 } end, 'from 1 to 10')
refused(function() s:setTraits(function(m) m.displayScale = 0 end) end, 'from 1 to 10')
traits.define { name = 'Weight', type = 'number', default = 1 }
local v = ui.View {}
refused(function() v.traitOverrides.weight = 0/0 end, 'finite number')
refused(function() v.traitOverrides.weight = -1/0 end, 'finite number')
refused(function() traits.collection { weight = 0/0 } end, 'finite number')
refused(function() traits.decode('{"UIKit.displayScale": -9223372036854775810}') end, 'integer out of range')
refused(function() traits.decode('{"UIKit.displayScale": 9223372036854775808}') end, 'integer out of range')
local first = ui.devices[1]
ui.devices[1] = 'forged'
assert(ui.devices[1] == first, 'ui.devices changed')
refused(function() ui.devices = {} end, 'read%-only')
print('all refused')
