-- viewWillAppear sees stale traits; viewIsAppearing sees the traits of the
-- window the view is entering. Do trait-dependent setup in viewIsAppearing.
-- Run: traitlab examples/06_appearance.lua

local screen = ui.Screen { userInterfaceIdiom = "pad", horizontalSizeClass = "regular", displayScale = 2 }
local scene = ui.WindowScene { screen = screen }
local window = ui.Window { windowScene = scene }

local vc = ui.ViewController {
  name = "detail",
  viewWillAppear = function(self)
    print("viewWillAppear:   horizontalSizeClass = " .. self.traitCollection.horizontalSizeClass)
  end,
  viewIsAppearing = function(self)
    print("viewIsAppearing:  horizontalSizeClass = " .. self.traitCollection.horizontalSizeClass)
  end,
  viewDidAppear = function(self)
    print("viewDidAppear:    (after layout)")
  end,
}
window.rootViewController = vc
ui.update()
