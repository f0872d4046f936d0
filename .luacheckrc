-- luacheck configuration for scripts run by traitlab: Lua 5.4 and TraitLab's
-- four globals. Tests/scenarios/editor_definitions_spec.lua checks the member
-- names below against the live API.
std = "lua54"
-- Callbacks have fixed signatures (`function(self, previous)`): not every
-- argument is used, and that is fine.
unused_args = false
-- The project keeps no line-length limit.
max_line_length = false

-- A global table with these members, each of which may be read (and indexed
-- further: classes, definitions and enums are not checked member by member).
local function members(names)
  local fields = {}
  for name in names:gmatch("%S+") do fields[name] = { other_fields = true } end
  return { fields = fields }
end

read_globals = {
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
-- The members scripts assign: `ui.hierarchyMode = "legacy"`, `ui.observationTracking = true`.
read_globals.ui.fields.hierarchyMode.read_only = false
read_globals.ui.fields.observationTracking.read_only = false

files["**/*_spec.lua"] = { std = "+busted" }

-- Declarations for lua-language-server, never run.
exclude_files = { "lua/traitlab.d.lua", ".build*/**" }
