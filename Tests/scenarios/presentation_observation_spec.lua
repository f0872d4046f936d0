-- Observation tracking in a presentation controller's container layout callbacks
-- (docs/guide.md, "Observable models"). Apple lists containerViewWillLayoutSubviews and
-- containerViewDidLayoutSubviews among the methods UIKit tracks ("Automatic observation
-- tracking", https://developer.apple.com/documentation/uikit/automatic-observation-tracking):
-- a ui.Observable value read there lays the container out again when it changes
-- (iOS 26; iOS 18 with ui.observationTracking = true).

describe("a presentation controller's container layout", function()
  it("runs again when an observable value it read changes", function()
    if not ui.available("26") then return end
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController {}
    window.rootViewController = root
    local sheet = ui.ViewController {}
    root:present(sheet)
    local model = ui.Observable { inset = 8 }
    local seen = {}
    local pc = sheet.presentationController
    pc.containerViewWillLayoutSubviews = function() seen[#seen + 1] = "will " .. model.inset end
    pc.containerViewDidLayoutSubviews = function() seen[#seen + 1] = "did" end
    ui.update()
    assert.same({ "will 8", "did" }, seen)
    seen = {}
    ui.update()
    assert.same({}, seen)   -- nothing changed
    model.inset = 16
    ui.update()
    assert.same({ "will 16", "did" }, seen)
    scene:disconnect()
    ui.update()
  end)
end)
