local Level = traits.define { name = "Level", default = 0, identifier = "com.fuzz.level" }
local Tags = traits.define { name = "Tags", type = "table", default = {} }
local tc = traits.collection(function(t) t.level = 2; t.tags = { "a", { b = true } } end)
local other = tc:modifyingTraits(function(t) t.horizontalSizeClass = "compact" end)
print(tostring(tc), tc == other, #tc:changedTraits(other), tc:encode())
print(traits.decode('{"com.fuzz.level": 3}').level)
print(pcall(traits.decode, '{"nope": 1}'), pcall(function() return tc.nope end))
local c = ui.Color.dynamic(function(t) return t.level > 1 and ui.Color("#112233") or ui.Color(1, 0, 0) end)
print(c:resolvedColor(tc))
