-- The order of one update, as UIKit runs it (docs/guide.md, "The update cycle"):
--   viewDidLoad sees the predicted traits (ui.Screen.main's: an iPhone, compact);
--   viewWillAppear still sees them (stale: the view is not in the window yet);
--   viewIsAppearing runs once the window laid the view out: fresh traits (an iPad, regular);
--   then the view's layout, bracketed by the controller's callbacks, and viewDidAppear.
-- Do trait-dependent setup in viewIsAppearing (or in layout), not in viewWillAppear.
-- Run: traitlab examples/06_appearance.lua

local screen = ui.Screen { userInterfaceIdiom = "pad", horizontalSizeClass = "regular", displayScale = 2 }
local scene = ui.WindowScene { screen = screen }
local window = ui.Window { windowScene = scene }

local function size(env) return env.traitCollection.horizontalSizeClass end

local vc = ui.ViewController {
  name = "detail",
  viewDidLoad = function(self)
    print("viewDidLoad:             horizontalSizeClass = " .. size(self) .. " (predicted)")
  end,
  viewWillAppear = function(self)
    print("viewWillAppear:          horizontalSizeClass = " .. size(self))
  end,
  viewIsAppearing = function(self)
    print("viewIsAppearing:         horizontalSizeClass = " .. size(self))
  end,
  viewWillLayoutSubviews = function(self)
    print("viewWillLayoutSubviews:  horizontalSizeClass = " .. size(self.view))
  end,
  viewDidLayoutSubviews = function(self)
    print("viewDidLayoutSubviews")
  end,
  viewDidAppear = function(self)
    print("viewDidAppear:           (after layout)")
  end,
}
vc.view.layoutSubviews = function(self)
  print("layoutSubviews:          horizontalSizeClass = " .. size(self))
end
window.rootViewController = vc
ui.update()
