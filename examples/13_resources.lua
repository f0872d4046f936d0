-- What a card shows: its background colour and icon from the app's asset
-- catalogue (examples/Resources.xcassets), across light and dark, a sheet's
-- elevated level, increased contrast, and iPhone against iPad.
--
--   traitlab examples/13_resources.lua
--   traitlab --assets examples/Resources.xcassets examples/13_resources.lua
--
-- The catalogue is read as Xcode writes it; each variant is chosen as
-- UIImageAsset.image(with:) and UIColor(named:in:compatibleWith:) choose it.

-- (ui.assets is the --assets catalogue; without one it is empty.)
local assets = #ui.assets.colors > 0 and ui.assets or ui.AssetCatalog "examples/Resources.xcassets"
print(("catalogue: %d colours (%s), %d images (%s)"):format(
  #assets.colors, table.concat(assets.colors, ", "), #assets.images, table.concat(assets.images, ", ")))

-- A card on a screen of a device, presented as a sheet or not.
local function card(device, settings, presented)
  local screen = ui.Screen { device = device }
  screen:setTraits(settings)
  local window = ui.Window { windowScene = ui.WindowScene { screen = screen } }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  local host = root
  if presented then
    host = ui.ViewController { name = "sheet" }
    root:present(host)
  end
  local view = ui.View { name = "card", backgroundColor = ui.Color.named("CardBackground", assets) }
  local icon = ui.ImageView { name = "icon", image = ui.Image.named("Icon", assets) }
  local title = ui.View { name = "title", backgroundColor = ui.Color.systemBackground }
  view:addSubview(icon)
  view:addSubview(title)
  host.view:addSubview(view)
  ui.update()
  return view, icon, title
end

local rows = {
  { "iPhone, light", "iPhone 15 Pro", { userInterfaceStyle = "light" } },
  { "iPhone, dark", "iPhone 15 Pro", { userInterfaceStyle = "dark" } },
  { "iPhone, dark, sheet", "iPhone 15 Pro", { userInterfaceStyle = "dark" }, true },
  { "iPhone, high contrast", "iPhone 15 Pro", { accessibilityContrast = "high" } },
  { "iPhone, dark, high contrast", "iPhone 15 Pro", { userInterfaceStyle = "dark", accessibilityContrast = "high" } },
  { "iPad, light", "iPad Pro 13-inch (M5)", { userInterfaceStyle = "light" } },
  { "iPad, dark", "iPad Pro 13-inch (M5)", { userInterfaceStyle = "dark" } },
}

print(("%-28s %-11s %-24s %s"):format("where", "card", "icon", "title (systemBackground)"))
for _, row in ipairs(rows) do
  local view, icon, title = card(row[2], row[3], row[4])
  print(("%-28s %-11s %-24s %s"):format(row[1], tostring(view.resolvedBackgroundColor),
    icon.resolvedImage.file, tostring(title.resolvedBackgroundColor)))
end

-- The dump says which traits chose each value.
local view = card("iPhone 15 Pro", { userInterfaceStyle = "dark" }, true)
print()
print(ui.dump(view))
