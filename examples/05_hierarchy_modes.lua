-- Where a child view controller gets its traits: from its view's superview
-- (iOS 17) or from its parent view controller (before iOS 17).
-- Run: traitlab examples/05_hierarchy_modes.lua   (or with --hierarchy legacy)

local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local parent = ui.ViewController { name = "parent" }
window.rootViewController = parent

-- A container view inside the parent's view is regular width.
local container = ui.View { name = "container" }
parent.view:addSubview(container)
container.traitOverrides.horizontalSizeClass = "regular"

-- The child's view sits in the container.
local child = ui.ViewController { name = "child" }
parent:addChild(child)
container:addSubview(child.view)

for _, mode in ipairs { "ios17", "legacy" } do
  ui.hierarchyMode = mode
  ui.update()
  print(string.format("%-6s  parent=%-8s container=%-8s child=%-8s child.view=%s", mode,
    parent.traitCollection.horizontalSizeClass, container.traitCollection.horizontalSizeClass,
    child.traitCollection.horizontalSizeClass, child.view.traitCollection.horizontalSizeClass))
  io.write(ui.dump(window))   -- the tree the traits flow down in this mode
end
print("in ios17 the child inherits from its view's superview (the container); in legacy from its parent")
