-- luacheck's standard "traitlab": the globals a script run by traitlab has,
-- Lua 5.4's and TraitLab's four (traits, ui, swiftui, plugins), for a project's
-- .luacheckrc (luacheck's "Custom sets of globals": a std is a table of
-- `globals` and `read_globals`, given a name through `stds`):
--
--   stds.traitlab = require "traitlab.luacheck"
--   std = "traitlab"          -- or "max+traitlab", "traitlab+busted" ...
--
-- scripts/install.sh installs this file as PREFIX/share/lua/5.1/traitlab/luacheck.lua,
-- where Debian's luacheck (a Lua 5.1 program) requires from for /usr/local;
-- for another prefix put PREFIX/share/lua/5.1/?.lua on LUA_PATH.
-- Tests/scenarios/editor_definitions_spec.lua checks the member names below
-- against the live API, in both directions.

-- A table of members, each of which may be read (and indexed further:
-- classes, definitions and enums are not checked member by member).
local function members(names)
  local fields = {}
  for name in names:gmatch("%S+") do fields[name] = { other_fields = true } end
  return { fields = fields }
end

local read_globals = {
  traits = members [[
    enum define collection decode definitions named current
    systemTraitsAffectingColorAppearance systemTraitsAffectingImageLookup
    UserInterfaceIdiom UserInterfaceStyle HorizontalSizeClass VerticalSizeClass DisplayScale
    LayoutDirection PreferredContentSizeCategory LegibilityWeight AccessibilityContrast
    UserInterfaceLevel DisplayGamut ActiveAppearance ForceTouchCapability ImageDynamicRange
    ToolbarItemPresentationSize SceneCaptureState ListEnvironment TypesettingLanguage
    HDRHeadroomUsageLimit SplitViewControllerLayoutEnvironment TabAccessoryEnvironment
    ResolvesNaturalAlignmentWithBaseWritingDirection
  ]],
  ui = members [[
    Screen WindowScene Window View ViewController HostingController PresentationController
    Color update stats dump picture trace hierarchyMode devices find findAll
    Observable available ios observationTracking
    Label Font FontMetrics ContentSizeCategory
    AssetCatalog Image ImageView assets
  ]],
  swiftui = members [[
    EnvironmentKey bridge View ViewControllerRepresentable ViewRepresentable HostingConfiguration
    ColorScheme ColorSchemeContrast DynamicTypeSize LayoutDirection UserInterfaceSizeClass
    LegibilityWeight
  ]],
  plugins = members [[ load list reload addPath path ]],
}

-- What scripts set (docs/guide.md): `ui.hierarchyMode = "legacy"`,
-- `ui.observationTracking = true`, and the main screen's properties, callbacks
-- and their own fields (`ui.Screen.main.orientation = "landscapeLeft"`, a
-- rotation; `ui.Screen.main.traitCollectionDidChange = function ... end`).
read_globals.ui.fields.hierarchyMode.read_only = false
read_globals.ui.fields.observationTracking.read_only = false
read_globals.ui.fields.Screen.fields = { main = { read_only = false, other_fields = true } }

local std = { read_globals = read_globals }

-- Lua 5.4's own globals, as luacheck defines them (its built-in std "lua54"),
-- when luacheck loads this file; so `std = "traitlab"` alone is complete.
local ok, builtin = pcall(require, "luacheck.builtin_standards")
if ok and type(builtin) == "table" and type(builtin.lua54) == "table" then
  for _, kind in ipairs { "globals", "read_globals" } do
    for name, def in pairs(builtin.lua54[kind] or {}) do
      std[kind] = std[kind] or {}
      if std[kind][name] == nil then std[kind][name] = def end
    end
  end
end

return std
