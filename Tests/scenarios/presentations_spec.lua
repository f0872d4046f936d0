-- Presentations as UIKit makes them (docs/guide.md, "Presentations"): presented content
-- inherits through the window, requests are forwarded, styles adapt.

local function device(idiom, width, height)
  local screen = ui.Screen { userInterfaceIdiom = idiom, userInterfaceStyle = "light",
                             horizontalSizeClass = width, verticalSizeClass = height }
  local window = ui.Window { name = "window", windowScene = ui.WindowScene { screen = screen } }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  ui.update()
  return screen, window, root
end
local function iPad() return device("pad", "regular", "regular") end
local function iPhone() return device("phone", "compact", "regular") end

describe("presented content", function()
  -- https://developer.apple.com/documentation/uikit/uiviewcontroller/overrideuserinterfacestyle
  -- "the new style applies to the view controller, its entire view hierarchy,
  -- and any embedded child view controllers" (not what it presents).
  it("does not inherit the presenting controller's overrides", function()
    local _, _, root = iPad()
    root.traitOverrides.legibilityWeight = "bold"
    root.overrideUserInterfaceStyle = "dark"
    local sheet = ui.ViewController { name = "sheet" }
    root:present(sheet)
    ui.update()
    assert.equal("dark", root.view.traitCollection.userInterfaceStyle)
    assert.equal("light", sheet.traitCollection.userInterfaceStyle)
    assert.equal("unspecified", sheet.traitCollection.legibilityWeight)
  end)

  -- https://developer.apple.com/documentation/uikit/uiview/overrideuserinterfacestyle
  -- "If the view is a UIWindow object, the new style applies to everything in
  -- the window, including the root view controller and all presentation
  -- controllers that display content in that window."
  it("inherits through the window that shows it", function()
    local _, window, root = iPad()
    window.overrideUserInterfaceStyle = "dark"
    window.traitOverrides.legibilityWeight = "bold"
    local sheet = ui.ViewController { name = "sheet" }
    root:present(sheet)
    ui.update()
    assert.equal(window, sheet.presentationController.traitParent)
    assert.equal(sheet.presentationController, sheet.traitParent)
    assert.equal("dark", sheet.view.traitCollection.userInterfaceStyle)
    assert.equal("bold", sheet.view.traitCollection.legibilityWeight)
  end)
end)

describe("presenting", function()
  -- https://developer.apple.com/documentation/uikit/uiviewcontroller/present(_:animated:completion:)
  -- "If the current view controller is unable to fulfill a request, it
  -- forwards the request up the view controller hierarchy to its nearest
  -- parent, which can then handle or forward the request."
  it("forwards a child's request up to the controller that makes it", function()
    local _, _, root = iPad()
    local child = ui.ViewController { name = "child" }
    root:addChild(child); root.view:addSubview(child.view)
    local sheet = ui.ViewController { name = "sheet" }
    child:present(sheet)
    assert.equal(root, sheet.presentingViewController)
    assert.equal(sheet, root.presentedViewController)
    -- "the view controller that called the method has this property set to
    -- the view controller that it presented" (presentedViewController)
    assert.equal(sheet, child.presentedViewController)
  end)

  -- https://developer.apple.com/documentation/uikit/uiviewcontroller/definespresentationcontext
  -- "UIKit starts at the presenting view controller and walks up the view
  -- controller hierarchy. If it finds a view controller whose value for this
  -- property is true, it asks that view controller to present the new view controller."
  it("makes a context presentation from the controller that defines the context", function()
    local _, _, root = iPad()
    local container = ui.ViewController { name = "container", definesPresentationContext = true }
    local inner = ui.ViewController { name = "inner" }
    root:addChild(container); root.view:addSubview(container.view)
    container:addChild(inner); container.view:addSubview(inner.view)
    local detail = ui.ViewController { name = "detail", modalPresentationStyle = "currentContext" }
    inner:present(detail)
    assert.equal(container, detail.presentingViewController)
  end)

  -- definesPresentationContext: "If no view controller defines the
  -- presentation context, UIKit asks the window's root view controller to
  -- handle the presentation."
  it("makes a context presentation from the root when no controller defines one", function()
    local _, _, root = iPad()
    local inner = ui.ViewController { name = "inner" }
    root:addChild(inner); root.view:addSubview(inner.view)
    local detail = ui.ViewController { modalPresentationStyle = "overCurrentContext" }
    inner:present(detail)
    assert.equal(root, detail.presentingViewController)
  end)

  -- https://developer.apple.com/documentation/uikit/uiviewcontroller/presentingviewcontroller
  -- "If the view controller is not presented, but one of its ancestors is
  -- being presented, this property holds the view controller presenting the nearest ancestor."
  it("gives a presented controller's child the presenter of its nearest presented ancestor", function()
    local _, _, root = iPad()
    local nav = ui.ViewController { name = "nav" }
    local page = ui.ViewController { name = "page" }
    nav:addChild(page); nav.view:addSubview(page.view)
    root:present(nav)
    assert.equal(root, page.presentingViewController)
  end)

  it("refuses a modal presentation style that UIKit does not have", function()
    local vc = ui.ViewController {}
    local ok, err = pcall(function() vc.modalPresentationStyle = "sideways" end)
    assert.is_false(ok)
    assert.matches("popover", tostring(err))
    assert.equal("automatic", vc.modalPresentationStyle)
  end)

  -- https://developer.apple.com/documentation/uikit/uiviewcontroller/dismiss(animated:completion:)
  -- "If you call this method on the presented view controller itself, UIKit
  -- asks the presenting view controller to handle the dismissal."
  it("dismisses from the presented controller or a child of it", function()
    local _, _, root = iPad()
    local nav, page = ui.ViewController {}, ui.ViewController {}
    nav:addChild(page)
    root:present(nav)
    page:dismiss()
    assert.is_nil(root.presentedViewController)
    assert.is_nil(nav.presentationController)
  end)
end)

describe("adaptive presentations", function()
  -- https://developer.apple.com/documentation/uikit/uimodalpresentationstyle/popover
  -- "In a horizontally regular environment, this style displays the view
  -- controller in a popover view." UITraitCollection.userInterfaceLevel: "the
  -- system assigns the UIUserInterfaceLevel.elevated level to alerts and popovers."
  it("shows a popover on an iPad, its content at the elevated level", function()
    local _, _, root = iPad()
    local pop = ui.ViewController { modalPresentationStyle = "popover" }
    root:present(pop)
    ui.update()
    assert.equal("popover", pop.presentationController.adaptivePresentationStyle)
    assert.equal("elevated", pop.view.traitCollection.userInterfaceLevel)
    assert.equal("unspecified", root.view.traitCollection.userInterfaceLevel)
  end)

  -- UIModalPresentationStyle.popover: "In iOS 13 and later, for horizontally
  -- or vertically compact environments, this option behaves the same as
  -- UIModalPresentationStyle.formSheet"; .formSheet: "In a compact-width,
  -- regular-height size class, the system displays the view controller as a sheet".
  it("adapts a popover to a sheet in a horizontally compact environment", function()
    local _, _, root = iPhone()
    local pop = ui.ViewController { modalPresentationStyle = "popover" }
    root:present(pop)
    ui.update()
    assert.equal("popover", pop.presentationController.presentationStyle)
    assert.equal("pageSheet", pop.presentationController.adaptivePresentationStyle)
  end)

  -- .formSheet / .pageSheet: "In a compact-height size class, the behavior is
  -- the same as UIModalPresentationStyle.fullScreen." Full-screen content
  -- stays at the window's level.
  it("adapts a form sheet to full screen in a compact height, at the window's level", function()
    local screen, _, root = device("phone", "compact", "compact")
    local form = ui.ViewController { modalPresentationStyle = "formSheet" }
    root:present(form)
    ui.update()
    assert.equal("fullScreen", form.presentationController.adaptivePresentationStyle)
    assert.equal("unspecified", form.traitCollection.userInterfaceLevel)
    screen:setTraits { verticalSizeClass = "regular" }   -- rotated back to portrait
    ui.update()
    assert.equal("pageSheet", form.presentationController.adaptivePresentationStyle)
    assert.equal("elevated", form.traitCollection.userInterfaceLevel)
  end)

  -- UIModalPresentationStyle.automatic: "For most view controllers, UIKit
  -- maps this style to the UIModalPresentationStyle.pageSheet style".
  it("shows the automatic style as a page sheet", function()
    local _, _, root = iPad()
    local sheet = ui.ViewController {}
    root:present(sheet)
    ui.update()
    assert.equal("automatic", sheet.modalPresentationStyle)
    assert.equal("pageSheet", sheet.presentationController.adaptivePresentationStyle)
  end)
end)

describe("a presentation controller", function()
  -- https://developer.apple.com/documentation/uikit/uipresentationcontroller/overridetraitcollection
  -- "Use this property to provide an interface trait collection for the
  -- presented view controller, overriding one or more values in the iOS trait environment."
  it("gives the presented controller its overrideTraitCollection", function()
    local _, _, root = iPad()
    local sheet = ui.ViewController {}
    root:present(sheet)
    sheet.presentationController.overrideTraitCollection = traits.collection { horizontalSizeClass = "compact" }
    ui.update()
    assert.equal("compact", sheet.view.traitCollection.horizontalSizeClass)
    assert.equal("regular", root.view.traitCollection.horizontalSizeClass)
    sheet.presentationController.traitOverrides.horizontalSizeClass = "regular"
    ui.update()
    assert.equal("regular", sheet.view.traitCollection.horizontalSizeClass, "its traitOverrides win")
    sheet.presentationController.overrideTraitCollection = nil
    assert.is_nil(sheet.presentationController.overrideTraitCollection)
  end)

  -- https://developer.apple.com/documentation/uikit/uipresentationcontroller/containerviewwilllayoutsubviews()
  -- "In iOS 18 and later, UIKit supports automatic trait tracking inside this
  -- method for traits from this presentation controller's traitCollection".
  it("runs its container layout callbacks and tracks the traits they read", function()
    local screen, _, root = iPad()
    local log = {}
    local sheet = ui.ViewController {}
    root:present(sheet)
    local pc = sheet.presentationController
    pc.containerViewWillLayoutSubviews = function(self) log[#log + 1] = "will " .. self.traitCollection.userInterfaceStyle end
    pc.containerViewDidLayoutSubviews = function(self) log[#log + 1] = "did" end
    ui.update()
    assert.same({ "will light", "did" }, log)
    screen:setTraits { legibilityWeight = "bold" }   -- not read: no layout
    ui.update()
    assert.equal(2, #log)
    screen:setTraits { userInterfaceStyle = "dark" }
    ui.update()
    assert.same({ "will light", "did", "will dark", "did" }, log)
  end)
end)

-- Dumps and pictures name a presentation's style, and what it adapted to
-- (UIModalPresentationStyle.popover adapts to a sheet in a horizontally
-- compact environment: Apple's UIAdaptivePresentationControllerDelegate).
describe("dumps of presentations", function()
  it("name the style and what it is shown as", function()
    local scene = ui.WindowScene { screen = ui.Screen { device = "iPhone 15" } }
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController { name = "dump root" }
    window.rootViewController = root
    root:present(ui.ViewController { name = "dump popover", modalPresentationStyle = "popover" })
    ui.update()
    assert.matches("PresentationController  (popover, shown as pageSheet)", ui.dump(window), 1, true)
  end)
end)
