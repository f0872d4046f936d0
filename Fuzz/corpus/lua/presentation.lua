local window = ui.Window { windowScene = ui.WindowScene {} }
local root = ui.ViewController { name = "root" }
window.rootViewController = root
local sheet = ui.ViewController { name = "sheet",
  viewWillAppear = function(self) end, viewDidDisappear = function(self) end }
root:present(sheet)
sheet.presentationController.traitOverrides.userInterfaceLevel = "elevated"
ui.update()
print(sheet.view.traitCollection.userInterfaceLevel, sheet.view.window == window)
sheet:dismiss()
ui.update()
print(ui.dump(root), ui.dump(root, "json"), ui.dump(root, "dot"))
