-- Devices, orientations and scene sizes (docs/devices.md). Each expectation is a row
-- of the Apple source named beside it:
--   HIG  = Human Interface Guidelines, "Layout" → "Specifications": the device
--          screen-size table and the "iOS, iPadOS device size classes" table,
--          https://developer.apple.com/design/human-interface-guidelines/layout#Specifications
--   MT   = the multitasking size-class table the same guidelines carried in
--          their revision of June 21, 2023 (Split View by iPad model, fraction
--          and orientation)
--   SO   = "Adopting Multitasking Enhancements on iPad", Figure 2-1 (Slide
--          Over is compact width, regular height),
--          https://developer.apple.com/library/archive/documentation/WindowsViews/Conceptual/AdoptingMultitaskingOniPad/QuickStartForSlideOverAndSplitView.html
--   UD   = UIInterfaceOrientation.portraitUpsideDown: "UIViewController doesn't
--          support this case on devices without a Home button",
--          https://developer.apple.com/documentation/uikit/uiinterfaceorientation/portraitupsidedown
-- Sizes no table lists follow TraitLab's one rule (docs/devices.md, "Sizes no
-- table lists"): regular width from 678 points wide and 414 tall, regular
-- height from 568 tall.

-- A scene with a window and a view on `screen`, updated; returns the scene and the view.
local function world(screen, size)
  local scene = ui.WindowScene { screen = screen, size = size }
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController {}
  window.rootViewController = root
  local view = ui.View { name = "content" }
  root.view:addSubview(view)
  ui.update()
  return scene, view
end

local function classes(view)
  local tc = view.traitCollection
  return tc.horizontalSizeClass .. "/" .. tc.verticalSizeClass
end

describe("the device catalogue", function()
  it("lists Apple's product names, the default screen among them", function()
    assert.is_true(#ui.devices >= 50)
    local names = {}
    for _, n in ipairs(ui.devices) do names[n] = true end
    for _, n in ipairs { "iPad Pro 13-inch (M5)", "iPhone 15 Pro Max", "iPhone SE (3rd generation)", ui.Screen.main.device } do
      assert.is_true(names[n], n)
    end
  end)

  it("gives a device screen the device's traits and portrait size (HIG screen-size table)", function()
    local ipad = ui.Screen { device = "iPad Pro 13-inch (M5)" }
    assert.same({ width = 1032, height = 1376 }, ipad.size)
    local tc = ipad.traitCollection
    assert.equal("pad", tc.userInterfaceIdiom)
    assert.equal(2, tc.displayScale)
    assert.equal("P3", tc.displayGamut)
    local se = ui.Screen { device = "iPhone SE (3rd generation)" }
    assert.same({ width = 375, height = 667 }, se.size)
    assert.equal("phone", se.traitCollection.userInterfaceIdiom)
    assert.equal("portrait", se.orientation)
  end)

  it("accepts the guidelines' own row name for a device", function()
    assert.equal("iPad Pro 13-inch (M5)", ui.Screen { device = "iPad Pro 13-inch" }.device)
  end)

  it("names a row for its newest product and still accepts the names it had before", function()
    -- The iPad Pro (M5) took over the guidelines' rows of the iPad Pro (M4) (same screens).
    assert.equal("iPad Pro 13-inch (M5)", ui.Screen { device = "iPad Pro 13-inch (M4)" }.device)
    assert.equal("iPad Pro 11-inch (M5)", ui.Screen { device = "iPad Pro 11-inch (M4)" }.device)
    assert.same({ width = 834, height = 1210 }, ui.Screen { device = "iPad Pro 11-inch (M4)" }.size)
  end)

  it("gives the iPhone 12 mini and 13 mini the size UIKit reports to apps, not the guidelines' 360 x 780", function()
    for _, name in ipairs { "iPhone 12 mini", "iPhone 13 mini" } do
      assert.same({ width = 375, height = 812 }, ui.Screen { device = name }.size, name)
      assert.same({ width = 812, height = 375 }, ui.Screen { device = name, orientation = "landscapeLeft" }.size, name)
    end
  end)

  it("refuses an unknown device, suggesting the right spelling", function()
    local ok, err = pcall(ui.Screen, { device = "iphone 15 pro max" })
    assert.is_false(ok)
    assert.matches('did you mean "iPhone 15 Pro Max"', err, 1, true)
  end)

  it("keeps other traits given with a device (the user's settings)", function()
    local s = ui.Screen { device = "iPhone 15", userInterfaceStyle = "dark" }
    assert.equal("dark", s.traitCollection.userInterfaceStyle)
    assert.equal("phone", s.traitCollection.userInterfaceIdiom)
  end)
end)

describe("iPhones by model and orientation (HIG device size classes)", function()
  it("every iPhone is compact width, regular height in portrait", function()
    for _, name in ipairs { "iPhone 15 Pro Max", "iPhone 15 Pro", "iPhone SE (3rd generation)", "iPhone 13 mini" } do
      local _, view = world(ui.Screen { device = name })
      assert.equal("compact/regular", classes(view), name)
    end
  end)

  it("the larger iPhones are regular width, compact height in landscape", function()
    for _, name in ipairs { "iPhone 15 Pro Max", "iPhone 15 Plus", "iPhone 8 Plus", "iPhone XR", "iPhone 11" } do
      local _, view = world(ui.Screen { device = name, orientation = "landscapeLeft" })
      assert.equal("regular/compact", classes(view), name)
    end
  end)

  it("the other iPhones are compact width, compact height in landscape", function()
    for _, name in ipairs { "iPhone 15 Pro", "iPhone 15", "iPhone SE (3rd generation)", "iPhone 13 mini" } do
      local _, view = world(ui.Screen { device = name, orientation = "landscapeRight" })
      assert.equal("compact/compact", classes(view), name)
    end
  end)

  it("swaps the size in landscape", function()
    local phone = ui.Screen { device = "iPhone 15 Pro Max", orientation = "landscapeLeft" }
    assert.same({ width = 932, height = 430 }, phone.size)
  end)

  it("an iPhone without a Home button does not turn upside down (UD)", function()
    local ok, err = pcall(ui.Screen, { device = "iPhone 15 Pro", orientation = "portraitUpsideDown" })
    assert.is_false(ok)
    assert.matches("does not turn to", err, 1, true)
    local se = ui.Screen { device = "iPhone SE (3rd generation)", orientation = "portraitUpsideDown" }
    assert.equal("portraitUpsideDown", se.orientation)
  end)

  it("an iPhone offers only the full screen", function()
    local ok, err = pcall(ui.WindowScene, { screen = ui.Screen { device = "iPhone 15 Pro Max" }, size = "1/3" })
    assert.is_false(ok)
    assert.matches('offers no "1/3"', err, 1, true)
  end)
end)

describe("iPad full screen, Split View and Slide Over", function()
  it("an iPad is regular width, regular height full screen in both orientations (HIG)", function()
    for _, o in ipairs { "portrait", "landscapeLeft" } do
      local _, view = world(ui.Screen { device = "iPad Pro 12.9-inch (6th generation)", orientation = o })
      assert.equal("regular/regular", classes(view), o)
    end
  end)

  it("12.9-inch iPad Pro in landscape: 2/3 and 1/2 regular width, 1/3 compact (MT)", function()
    local expected = { ["2/3"] = "regular/regular", ["1/2"] = "regular/regular", ["1/3"] = "compact/regular" }
    for size, want in pairs(expected) do
      local _, view = world(ui.Screen { device = "iPad Pro 12.9-inch (6th generation)", orientation = "landscapeLeft" }, size)
      assert.equal(want, classes(view), size)
    end
  end)

  it("11-inch iPad Pro in landscape: only 2/3 is regular width (MT)", function()
    local expected = { ["2/3"] = "regular/regular", ["1/2"] = "compact/regular", ["1/3"] = "compact/regular" }
    for size, want in pairs(expected) do
      local _, view = world(ui.Screen { device = "iPad Pro 11-inch (4th generation)", orientation = "landscapeRight" }, size)
      assert.equal(want, classes(view), size)
    end
  end)

  it("every fraction is compact width in portrait (MT)", function()
    for _, size in ipairs { "2/3", "1/3" } do
      local _, view = world(ui.Screen { device = "iPad Pro 12.9-inch (6th generation)" }, size)
      assert.equal("compact/regular", classes(view), size)
    end
  end)

  it("1/2 is not offered in portrait (MT marks it N/A)", function()
    local ok, err = pcall(ui.WindowScene, { screen = ui.Screen { device = "iPad Air 11-inch (M3)" }, size = "1/2" })
    assert.is_false(ok)
    assert.matches('offers no "1/2" scene in "portrait"', err, 1, true)
  end)

  it("Slide Over is compact width, regular height in both orientations (SO)", function()
    for _, o in ipairs { "portrait", "landscapeLeft" } do
      local scene, view = world(ui.Screen { device = "iPad Pro 13-inch (M5)", orientation = o }, "slideOver")
      assert.equal("compact/regular", classes(view), o)
      assert.equal("slideOver", scene.size)
    end
  end)

  it("a scene's bounds are its size in points", function()
    local scene = world(ui.Screen { device = "iPad Pro 12.9-inch (6th generation)", orientation = "landscapeLeft" }, "1/2")
    assert.same({ width = 678, height = 1024 }, scene.bounds)
  end)
end)

describe("sizes no table lists follow one rule", function()
  -- docs/devices.md: regular width from 678 x 414 points, regular height from 568.
  it("a Stage Manager window of 700 x 900 is regular width, regular height", function()
    local scene, view = world(ui.Screen { device = "iPad Pro 13-inch (M5)" }, { width = 700, height = 900 })
    assert.equal("regular/regular", classes(view))
    assert.same({ width = 700, height = 900 }, scene.size)
  end)

  it("narrower than 678 points is compact width", function()
    local _, view = world(ui.Screen { device = "iPad Pro 13-inch (M5)" }, { width = 677, height = 900 })
    assert.equal("compact/regular", classes(view))
  end)

  it("shorter than 568 points is compact height", function()
    local _, view = world(ui.Screen { device = "iPad Pro 13-inch (M5)" }, { width = 900, height = 567 })
    assert.equal("regular/compact", classes(view))
  end)

  it("refuses a size that is not positive", function()
    assert.has_error(function() ui.WindowScene { size = { width = 0, height = 100 } } end)
    assert.has_error(function() ui.WindowScene { size = { width = math.mininteger, height = 100 } } end)
    assert.has_error(function() ui.WindowScene { size = { width = 0 / 0, height = 100 } } end)
    assert.has_error(function() ui.WindowScene { size = "1/4" } end)
  end)
end)

describe("rotations and resizes are trait changes like any other", function()
  it("nothing changes until the next update", function()
    local phone = ui.Screen { device = "iPhone 15 Pro Max" }
    local _, view = world(phone)
    phone.orientation = "landscapeLeft"
    assert.equal("landscapeLeft", phone.orientation)
    assert.equal("compact/regular", classes(view))
    ui.update()
    assert.equal("regular/compact", classes(view))
  end)

  it("a rotation of an iPhone calls a size-class registration once per environment whose size class changed", function()
    local phone = ui.Screen { device = "iPhone 15 Pro Max" }
    local scene, view = world(phone)
    local calls = {}
    for _, env in ipairs { scene, view, view.superview } do
      env:registerForTraitChanges({ traits.HorizontalSizeClass }, function(e) calls[#calls + 1] = e end)
    end
    phone.orientation = "landscapeLeft"
    ui.update()
    assert.equal(3, #calls)
    phone.orientation = "landscapeRight"   -- the same size classes: nothing to call
    ui.update()
    assert.equal(3, #calls)
  end)

  it("resizing an iPad scene from full screen to Slide Over and back", function()
    local scene, view = world(ui.Screen { device = "iPad Pro 13-inch (M5)" })
    local seen = {}
    view:registerForTraitChanges({ traits.HorizontalSizeClass }, function(v) seen[#seen + 1] = v.traitCollection.horizontalSizeClass end)
    scene.size = "slideOver"
    ui.update()
    scene.size = "full"
    ui.update()
    assert.same({ "compact", "regular" }, seen)
  end)

  it("a scene's own override of a size class wins over its size", function()
    local scene, view = world(ui.Screen { device = "iPad Pro 13-inch (M5)" }, "1/3")
    scene.traitOverrides.horizontalSizeClass = "regular"
    ui.update()
    assert.equal("regular/regular", classes(view))
    assert.is_true(scene.traitOverrides:contains(traits.HorizontalSizeClass))
    scene.traitOverrides:remove(traits.HorizontalSizeClass)
    ui.update()
    assert.equal("compact/regular", classes(view))
    assert.is_false(scene.traitOverrides:contains(traits.HorizontalSizeClass))
  end)

  it("a rotation that would leave a scene at a size the device does not offer is refused", function()
    local ipad = ui.Screen { device = "iPad Air 11-inch (M3)", orientation = "landscapeLeft" }
    world(ipad, "1/2")
    assert.has_error(function() ipad.orientation = "portrait" end)
    assert.equal("landscapeLeft", ipad.orientation)
  end)

  it("a screen of traits alone does not rotate", function()
    assert.has_error(function() ui.Screen { userInterfaceIdiom = "pad" }.orientation = "landscapeLeft" end)
  end)
end)

describe("dumps name the device", function()
  it("the screen's line says device, orientation, size and OS; a scene's its size", function()
    local scene = world(ui.Screen { device = "iPad Pro 13-inch (M5)" }, "slideOver")
    local text = ui.dump(scene.screen)
    assert.matches("iPad Pro 13-inch (M5), portrait, 1032x1376 pt, iOS " .. ui.ios, text, 1, true)
    assert.matches("slideOver: 375x1376 pt, compact width, regular height", text, 1, true)
  end)
end)
