-- view:insertSubview(v, math.mininteger) trapped on integer overflow (SIGILL)
-- converting to a 0-based index. Every extreme index is now a clear error.
-- stdout: ^done$
local parent, child = ui.View {}, ui.View {}
for _, i in ipairs { math.mininteger, math.mininteger + 1, -1, 0, 2, math.maxinteger, math.maxinteger - 1, 2^53, -2^63 } do
  local ok, err = pcall(parent.insertSubview, parent, child, i)
  assert(not ok and tostring(err):find("out of range"), tostring(i) .. ": " .. tostring(err))
end
assert(not pcall(parent.insertSubview, parent, child, 0 / 0))
assert(not pcall(parent.insertSubview, parent, child, 1.5))
parent:insertSubview(child, 1)
assert(parent.subviews[1] == child)
-- Moving within the same parent: 1 is the only valid position.
assert(not pcall(parent.insertSubview, parent, child, 2))
parent:insertSubview(child, 1.0)
print("done")
