-- Class tables are plain tables a script can write raw (an existing key never
-- reaches __newindex, and rawset reaches none). Instances find built-in
-- methods in a copy no script reaches, and properties before the class chain,
-- so writing a class never replaces a built-in or hides a property for its
-- objects; a callback made no function is an error at the update, not
-- silently skipped.
-- args: --sandbox
-- stdout: ^done$
local C = ui.View:subclass("RtClassView", { layoutSubviews = function() end })
rawset(C, "superview", 7)
rawset(C, "traitOverrides", 8)
rawset(C, "traitCollection", 9)
local c = C {}
if c.superview ~= nil then print("ESCAPED: a raw class field hides superview") end
if type(c.traitOverrides) ~= "userdata" then print("ESCAPED: a raw class field hides traitOverrides") end
if type(c.traitCollection) ~= "userdata" then print("ESCAPED: a raw class field hides traitCollection") end
ui.View.addSubview = function() print("ESCAPED: a built-in replaced for every view") end
ui.View.setNeedsLayout = nil
rawset(ui.View, "removeFromSuperview", 0)
local v, w = ui.View {}, ui.View {}
v:addSubview(w)
if w.superview ~= v then print("ESCAPED: addSubview did not add") end
v:setNeedsLayout()
w:removeFromSuperview()
if w.superview ~= nil then print("ESCAPED: removeFromSuperview did not remove") end
-- An instance still cannot take a built-in's name, whatever the class table holds now.
if pcall(function() v.addSubview = print end) then print("ESCAPED: an instance field named addSubview") end
if pcall(function() v.setNeedsLayout = print end) then print("ESCAPED: an instance field named setNeedsLayout") end
-- A callback replaced by a number through an existing key: an error at the update.
C.layoutSubviews = 42
local window = ui.Window { windowScene = ui.WindowScene {} }
window.rootViewController = ui.ViewController {}
window.rootViewController.view:addSubview(c)
local ok, err = pcall(ui.update)
if ok or not tostring(err):find("callback 'layoutSubviews' of RtClassView is a number, not a function", 1, true) then
  print("ESCAPED: a non-function callback was skipped: " .. tostring(err))
end
C.layoutSubviews = function() end
c:setNeedsLayout()
ui.update()
print("done")
