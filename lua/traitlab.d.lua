---@meta traitlab

-- TraitLab's Lua API for lua-language-server (LuaLS): completion, hover docs
-- and type checks for scripts run by `traitlab`. Never run; `.luarc.json` at the
-- repository root puts this folder on LuaLS's `workspace.library`.
--
-- It follows the bindings in Sources/TraitLabLua and the API the README and
-- docs/guide.md describe. Tests/scenarios/editor_definitions_spec.lua compares the
-- names declared here with the live API, so keep to the layout it reads:
--   * a `---@class Name[: Parent]` line, then its `---@field` lines, and right
--     after them at most one `local NAME = {}` or `NAME = {}` that binds the
--     class to a table;
--   * functions as `function NAME.f(` (on the table) or `function NAME:m(`
--     (methods), NAME being a bound table;
--   * enums of strings as one-line `---@alias Name "a"|"b"|...`;
--   * a callback a script may set is an optional field of a function type
--     (`---@field draw? fun(self: ui.View)`); other fields are properties.

-- ---------------------------------------------------------------------------
-- Trait values

---A trait's value: the type is fixed by the definition (its default or `type`).
---Tables are plain data, copied on write and compared by value.
---@alias TraitValue boolean|integer|number|string|table|nil

---The value type of a trait or environment key: a type name or an enum from `traits.enum`.
---@alias TraitValueType "boolean"|"integer"|"number"|"string"|"table"|"color"|"image"|TraitEnum

---A trait named by its definition or by its property name (`"horizontalSizeClass"`).
---@alias TraitKey TraitDefinition|string

-- System trait cases, with UIKit's names (docs/guide.md, "Traits and trait collections").

---@alias UIUserInterfaceIdiom "unspecified"|"phone"|"pad"|"tv"|"carPlay"|"mac"|"vision"
---@alias UIUserInterfaceStyle "unspecified"|"light"|"dark"
---@alias UIUserInterfaceSizeClass "unspecified"|"compact"|"regular"
---@alias UITraitEnvironmentLayoutDirection "unspecified"|"leftToRight"|"rightToLeft"
---@alias UIContentSizeCategory "unspecified"|"extraSmall"|"small"|"medium"|"large"|"extraLarge"|"extraExtraLarge"|"extraExtraExtraLarge"|"accessibilityMedium"|"accessibilityLarge"|"accessibilityExtraLarge"|"accessibilityExtraExtraLarge"|"accessibilityExtraExtraExtraLarge"
---@alias UILegibilityWeight "unspecified"|"regular"|"bold"
---@alias UIAccessibilityContrast "unspecified"|"normal"|"high"
---@alias UIUserInterfaceLevel "unspecified"|"base"|"elevated"
---@alias UIDisplayGamut "unspecified"|"SRGB"|"P3"
---@alias UIUserInterfaceActiveAppearance "unspecified"|"active"|"inactive"
---@alias UIForceTouchCapability "unknown"|"unavailable"|"available"
---@alias UIImageDynamicRange "unspecified"|"standard"|"constrainedHigh"|"high"
---@alias UIToolbarItemPresentationSize "unspecified"|"regular"|"small"|"large"
---@alias UISceneCaptureState "unspecified"|"inactive"|"active"
---@alias UIListEnvironment "unspecified"|"none"|"plain"|"grouped"|"insetGrouped"|"sidebar"|"sidebarPlain"
---@alias UIHDRHeadroomUsageLimit "unspecified"|"active"|"inactive"
---@alias UISplitViewControllerLayoutEnvironment "none"|"expanded"|"collapsed"
---@alias UITabAccessoryEnvironment "unspecified"|"none"|"regular"|"inline"
---@alias UIFontTextStyle "largeTitle"|"title1"|"title2"|"title3"|"headline"|"body"|"callout"|"subheadline"|"footnote"|"caption1"|"caption2"|"extraLargeTitle"|"extraLargeTitle2"

---The system traits by property name, as a collection, mutable traits or overrides
---read them. Custom traits are read by their property (`tc.myAppTheme`) or their
---definition (`tc[ThemeTrait]`).
---@class SystemTraitValues
---@field userInterfaceIdiom UIUserInterfaceIdiom
---@field userInterfaceStyle UIUserInterfaceStyle
---@field horizontalSizeClass UIUserInterfaceSizeClass
---@field verticalSizeClass UIUserInterfaceSizeClass
---@field displayScale number Points to pixels; 0 when unspecified.
---@field layoutDirection UITraitEnvironmentLayoutDirection
---@field preferredContentSizeCategory UIContentSizeCategory
---@field legibilityWeight UILegibilityWeight
---@field accessibilityContrast UIAccessibilityContrast
---@field userInterfaceLevel UIUserInterfaceLevel
---@field displayGamut UIDisplayGamut
---@field activeAppearance UIUserInterfaceActiveAppearance
---@field forceTouchCapability UIForceTouchCapability
---@field imageDynamicRange UIImageDynamicRange
---@field toolbarItemPresentationSize UIToolbarItemPresentationSize
---@field sceneCaptureState UISceneCaptureState
---@field listEnvironment UIListEnvironment
---@field typesettingLanguage string? An optional trait: nil when unset.
---@field hdrHeadroomUsageLimit UIHDRHeadroomUsageLimit iOS 26.
---@field splitViewControllerLayoutEnvironment UISplitViewControllerLayoutEnvironment iOS 26.
---@field tabAccessoryEnvironment UITabAccessoryEnvironment iOS 26.
---@field resolvesNaturalAlignmentWithBaseWritingDirection boolean iOS 26.
---@field [TraitDefinition] TraitValue
---@field [string] any A custom trait's property.

---Trait values given as a table: `traits.collection { ... }`, `ui.Screen { ... }`,
---`screen:setTraits { ... }`. Keys are property names or definitions.
---@class SystemTraitValues.init
---@field userInterfaceIdiom? UIUserInterfaceIdiom
---@field userInterfaceStyle? UIUserInterfaceStyle
---@field horizontalSizeClass? UIUserInterfaceSizeClass
---@field verticalSizeClass? UIUserInterfaceSizeClass
---@field displayScale? number
---@field layoutDirection? UITraitEnvironmentLayoutDirection
---@field preferredContentSizeCategory? UIContentSizeCategory
---@field legibilityWeight? UILegibilityWeight
---@field accessibilityContrast? UIAccessibilityContrast
---@field userInterfaceLevel? UIUserInterfaceLevel
---@field displayGamut? UIDisplayGamut
---@field activeAppearance? UIUserInterfaceActiveAppearance
---@field forceTouchCapability? UIForceTouchCapability
---@field imageDynamicRange? UIImageDynamicRange
---@field toolbarItemPresentationSize? UIToolbarItemPresentationSize
---@field sceneCaptureState? UISceneCaptureState
---@field listEnvironment? UIListEnvironment
---@field typesettingLanguage? string
---@field hdrHeadroomUsageLimit? UIHDRHeadroomUsageLimit
---@field splitViewControllerLayoutEnvironment? UISplitViewControllerLayoutEnvironment
---@field tabAccessoryEnvironment? UITabAccessoryEnvironment
---@field resolvesNaturalAlignmentWithBaseWritingDirection? boolean
---@field [TraitDefinition] TraitValue
---@field [string] any A custom trait's property.

-- ---------------------------------------------------------------------------
-- traits

---A trait: its name, value type, default and property name. Read-only.
---System traits are `traits.HorizontalSizeClass` and the like; define your own with
---`traits.define { ... }`.
---@class TraitDefinition
---@field name string Shown in messages and dumps; a system trait's key in `traits`.
---@field default TraitValue The value when nothing sets the trait.
---@field type TraitValueType
---@field identifier string? Reverse-DNS identifier; traits with one take part in `tc:encode()`.
---@field affectsColorAppearance boolean Views redraw (`draw`) when it changes.
---@field property string The property name: `tc.myAppTheme`, `view.traitOverrides.myAppTheme`.
---@field cases string[]? An enum trait's cases; nil for other types.
---@field isOptional boolean True when `nil` is a value (defined with `type` and no default).
---@field isSystem boolean True for UIKit's traits.

---What `traits.define` takes.
---@class TraitDefinitionSpec
---@field name string Required.
---@field default? TraitValue|ui.Color|ui.Image Required unless `type` is given; a case of an enum makes an enum trait; a named colour or image makes a `color` or `image` trait holding its name.
---@field type? TraitValueType Without `default`, declares an optional trait (nil is a value).
---@field identifier? string Reverse-DNS, unique; enables encoding.
---@field affectsColorAppearance? boolean Default false.
---@field property? string Default: `name` with its first letter lower-cased.
---@field swift? SwiftDeclaration How the app declared it (written by `traitlab swift import`).

---How a definition was declared in an app's Swift source: written by `traitlab swift import`,
---read by `traitlab swift export` to write it back as it was (docs/swift.md). Every field is optional.
---@class SwiftDeclaration
---@field type? string The type's name, qualified when nested (`AppTraits.ThemeTrait`).
---@field access? string `public`, `package`, `fileprivate` ...
---@field nonisolated? boolean
---@field available? string[] Each `@available(...)`'s arguments (`"iOS 26, *"`).
---@field doc? string The `///` lines above the type.
---@field before? string|string[] Conditional compilation before the declaration (`#if canImport(UIKit)`); a list for nested `#if`s, outermost first.
---@field after? string|string[] And after it (`#endif`).
---@field wrapsExtensions? boolean|integer Whether those `#if`s (or how many of the outermost) also hold the type's extensions.
---@field valueType? string The type written on `defaultValue` (`CGFloat`).
---@field default? string The default's expression as written (`ThemeSelection.system`).
---@field defaultValue? TraitValue The value that expression stands for.
---@field defaultBefore? string The `#if` in the type's body `defaultValue` was chosen from: the lines before it.
---@field defaultAfter? string And after it (`#endif`).
---@field rawType? string Enums: the raw type (`Int`, `String`).
---@field cases? string[] Enums: the Swift case names.
---@field rawValues? string[] Enums: each case's raw value as written ("" when implicit).
---@field conformances? string[] Enums: the protocols after the raw type.
---@field foreign? boolean Enums: declared outside Swift (an Objective-C enum); export does not declare it.
---@field entry? boolean Keys: declared with `@Entry`.
---@field bridgeAvailable? string[] Keys: `@available` arguments of the bridge conformance.
---@field bridgeOnType? boolean Keys: the type itself conforms to `UITraitBridgedEnvironmentKey`.
---@field defaultForm? "var"|"getter" How `defaultValue` was declared when not `static let`.

---An enum of string cases, from `traits.enum`. `MyAppTheme.pastel` is `"pastel"`;
---indexing an unknown case is an error. `#MyAppTheme` is the number of cases.
---@class TraitEnum
---@field name string
---@field cases string[]
---@field [string] string A case, as its own string.
---@operator len: integer

---An immutable set of trait values (UITraitCollection). A trait that is not set
---reads as its default; reading an unknown property name is an error.
---`tc == other` compares values; `tostring(tc)` lists the values that differ from
---the defaults; `pairs(tc)` iterates them. `tc[color]` is `color:resolvedColor(tc)`,
---kept per collection like a trait's value.
---@class TraitCollection : SystemTraitValues
---@field [Color] Color The colour resolved for this collection.
local TraitCollection = {}

---The definitions whose values differ between the two collections.
---@param other TraitCollection
---@return TraitDefinition[]
---@nodiscard
function TraitCollection:changedTraits(other) end

---A copy with the changes made by `mutations` (UITraitCollection.modifyingTraits).
---```lua
---local compact = tc:modifyingTraits(function(t) t.horizontalSizeClass = "compact" end)
---```
---@param mutations fun(t: MutableTraits)
---@return TraitCollection
---@nodiscard
function TraitCollection:modifyingTraits(mutations) end

---A JSON object keyed by identifier; traits without an identifier are left out.
---`traits.decode` reads it back.
---@return string
---@nodiscard
function TraitCollection:encode() end

---Whether every trait `other` specifies has the same value here (containsTraits(in:)).
---@param other TraitCollection
---@return boolean
---@nodiscard
function TraitCollection:containsTraits(other) end

---Whether a trait that affects colour appearance differs (hasDifferentColorAppearance(comparedTo:)).
---@param other TraitCollection
---@return boolean
---@nodiscard
function TraitCollection:hasDifferentColorAppearance(other) end

---Calls `body` with this collection as `traits.current`, then restores the outer
---one (also on error); returns what `body` returns (performAsCurrent(_:)).
---@generic R
---@param body fun(): R
---@return R
function TraitCollection:performAsCurrent(body) end

---The traits given to a mutation function (`traits.collection(function(t) ... end)`,
---`tc:modifyingTraits`, a bridge's `write`). Valid only while that function runs.
---@class MutableTraits : SystemTraitValues

---An environment's trait overrides (`view.traitOverrides`). Setting a value
---overrides the trait for the environment and everything below it, from the next
---update; reading a trait with no override is an error (check with `contains`).
---@class TraitOverrides : SystemTraitValues
local TraitOverrides = {}

---Whether there is an override for the trait (also when it equals the default).
---@param trait TraitKey
---@return boolean
---@nodiscard
function TraitOverrides:contains(trait) end

---Removes the override for the trait, if any.
---@param trait TraitKey
function TraitOverrides:remove(trait) end

---The `traits` global: trait definitions, collections and UIKit's system traits.
---@class traitlab.traits
---@field UserInterfaceIdiom TraitDefinition `userInterfaceIdiom`: unspecified, phone, pad, tv, carPlay, mac, vision.
---@field UserInterfaceStyle TraitDefinition `userInterfaceStyle`: unspecified, light, dark.
---@field HorizontalSizeClass TraitDefinition `horizontalSizeClass`: unspecified, compact, regular.
---@field VerticalSizeClass TraitDefinition `verticalSizeClass`: unspecified, compact, regular.
---@field DisplayScale TraitDefinition `displayScale`: a number, 0 when unspecified.
---@field LayoutDirection TraitDefinition `layoutDirection`: unspecified, leftToRight, rightToLeft.
---@field PreferredContentSizeCategory TraitDefinition `preferredContentSizeCategory`: unspecified, extraSmall … accessibilityExtraExtraExtraLarge.
---@field LegibilityWeight TraitDefinition `legibilityWeight`: unspecified, regular, bold.
---@field AccessibilityContrast TraitDefinition `accessibilityContrast`: unspecified, normal, high.
---@field UserInterfaceLevel TraitDefinition `userInterfaceLevel`: unspecified, base, elevated.
---@field DisplayGamut TraitDefinition `displayGamut`: unspecified, SRGB, P3.
---@field ActiveAppearance TraitDefinition `activeAppearance`: unspecified, active, inactive.
---@field ForceTouchCapability TraitDefinition `forceTouchCapability`: unknown, unavailable, available.
---@field ImageDynamicRange TraitDefinition `imageDynamicRange`: unspecified, standard, constrainedHigh, high.
---@field ToolbarItemPresentationSize TraitDefinition `toolbarItemPresentationSize`: unspecified, regular, small, large.
---@field SceneCaptureState TraitDefinition `sceneCaptureState`: unspecified, inactive, active.
---@field ListEnvironment TraitDefinition `listEnvironment`: unspecified, none, plain, grouped, insetGrouped, sidebar, sidebarPlain.
---@field TypesettingLanguage TraitDefinition `typesettingLanguage`: an optional string.
---@field HDRHeadroomUsageLimit TraitDefinition `hdrHeadroomUsageLimit` (iOS 26): unspecified, active, inactive.
---@field SplitViewControllerLayoutEnvironment TraitDefinition `splitViewControllerLayoutEnvironment` (iOS 26): none, expanded, collapsed.
---@field TabAccessoryEnvironment TraitDefinition `tabAccessoryEnvironment` (iOS 26): unspecified, none, regular, inline.
---@field ResolvesNaturalAlignmentWithBaseWritingDirection TraitDefinition `resolvesNaturalAlignmentWithBaseWritingDirection` (iOS 26): a boolean.
---@field systemTraitsAffectingColorAppearance TraitDefinition[] Idiom, style, gamut, contrast, level and active appearance.
---@field systemTraitsAffectingImageLookup TraitDefinition[] The color-appearance traits plus layout direction, display scale, size classes, content size category and legibility weight.
---@field current TraitCollection Read-only (UITraitCollection.current): the environment's collection inside layout, drawing, constraint and trait-change callbacks; what the innermost `performAsCurrent` set; else `ui.Screen.main`'s.
traits = {}

---Defines an enum of string cases for enum traits.
---```lua
---local MyAppTheme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
---MyAppTheme.pastel   --> "pastel"
---```
---@param name string
---@param cases string[]
---@param swift? SwiftDeclaration How the app declared it (written by `traitlab swift import`).
---@return TraitEnum
function traits.enum(name, cases, swift) end

---Defines a custom trait. A second definition with an identifier or property
---already in use is an error.
---```lua
---local ThemeTrait = traits.define {
---  name = "Theme", default = MyAppTheme.standard, identifier = "com.myapp.theme",
---  affectsColorAppearance = true, property = "myAppTheme",
---}
---```
---@param spec TraitDefinitionSpec
---@return TraitDefinition
function traits.define(spec) end

---Makes a trait collection from a mutation function (UITraitCollection(mutations:)),
---from a table of values, from a list of collections (init(traitsFrom:): for each
---trait the last collection that specifies it wins), or empty.
---```lua
---local tc = traits.collection(function(t) t.userInterfaceIdiom = "phone" end)
---local tc2 = traits.collection { horizontalSizeClass = "compact", [ThemeTrait] = "bold" }
---local both = traits.collection { tc, tc2 }
---```
---@param init? SystemTraitValues.init|fun(t: MutableTraits)|TraitCollection[]
---@return TraitCollection
---@nodiscard
function traits.collection(init) end

---Reads what `tc:encode()` wrote. An unknown identifier is an error naming it.
---@param json string
---@return TraitCollection
---@nodiscard
function traits.decode(json) end

---Every registered definition: the system traits, then custom ones in definition order.
---@return TraitDefinition[]
---@nodiscard
function traits.definitions() end

---The definition with this property name or name, or nil.
---@param name string
---@return TraitDefinition?
---@nodiscard
function traits.named(name) end

-- ---------------------------------------------------------------------------
-- ui: trait environments

---The token `registerForTraitChanges` returns; pass it to `unregisterForTraitChanges`.
---@class TraitChangeRegistration
---@field isActive boolean False once unregistered (or its target was collected).

---A target-action registration: the action is looked up on the target when a change
---is delivered and called as a method with as many of `(env, previous)` as it
---declares. Built-in actions: "setNeedsLayout", "setNeedsDisplay", "layoutIfNeeded",
---"setNeedsUpdateProperties", "updateTraitsIfNeeded".
---@class TraitChangeTargetAction
---@field target? table|userdata Held weakly; defaults to the environment itself.
---@field action string The method name.

---What every trait environment has: screens, window scenes, windows, views, view
---controllers and presentation controllers. An environment is the same Lua value
---for as long as it lives. Its `traitCollection` is its parent's with its own
---overrides applied, recomputed at `ui.update()`.
---To give your own fields types, declare a subclass: `---@class CardView : ui.View`.
---@class TraitEnvironment
---@field name string? Shown in dumps and `tostring`.
---@field className string The class it was made from (`"View"`, or a subclass's name).
---@field traitCollection TraitCollection Read-only; the previous value until the next update.
---@field traitOverrides TraitOverrides Overrides for this environment and below (a screen has none: use `screen:setTraits`).
---@field traitParent TraitEnvironment? Where this environment inherits its traits from.
---@field traitChildren TraitEnvironment[] The environments that inherit from this one.
---@field traitCollectionDidChange? fun(self: TraitEnvironment, previous: TraitCollection) Called for every trait change (the deprecated catch-all).
local TraitEnvironment = {}

---Calls `handler` when one of `traits` changes value for this environment
---(`previous` is the collection before the change). The registration never keeps
---the environment alive. An empty list is an error.
---```lua
---view:registerForTraitChanges({ traits.HorizontalSizeClass, ThemeTrait }, function(view, previous) end)
---view:registerForTraitChanges(traits.systemTraitsAffectingColorAppearance, { action = "setNeedsDisplay" })
---```
---@generic E : TraitEnvironment
---@param self E
---@param traits TraitDefinition|TraitDefinition[]
---@param handler fun(env: E, previous: TraitCollection)|TraitChangeTargetAction
---@return TraitChangeRegistration
function TraitEnvironment:registerForTraitChanges(traits, handler) end

---Ends a registration. Unregistering twice is harmless.
---@param token TraitChangeRegistration
function TraitEnvironment:unregisterForTraitChanges(token) end

---Updates this environment's traits (and what it inherits from) now, instead of at
---the next `ui.update()`.
function TraitEnvironment:updateTraitsIfNeeded() end

---Makes a subclass of this class; its instances are made by calling it.
---```lua
---local CardView = ui.View:subclass("CardView", { layoutSubviews = function(self) end })
---local card = CardView { name = "card" }
---```
---@generic T : TraitEnvironment
---@param self T
---@param name string
---@param methods? table<string, any> Methods and fields every instance sees.
---@return T
function TraitEnvironment:subclass(name, methods) end

---A device: the root of the trait hierarchy, with the device's traits. It has no
---overrides; `setTraits` simulates the system changing a device trait.
---`ui.Screen.main` is the default profile, an iPhone in portrait (a device of
---the catalogue: `--device` chooses another). A device screen
---(`ui.Screen { device = "iPad Pro 13-inch (M5)" }`) has the device's traits
---and size; setting `orientation` rotates it at the next update.
---@class ui.Screen : TraitEnvironment
---@overload fun(init?: ui.Screen.init): ui.Screen
---@field device string? The catalogue's name of the device (`ui.devices`); nil for a screen made of traits alone.
---@field orientation ui.Orientation? Settable on a device screen: a rotation, applied at the next update.
---@field size ui.Size? The screen's size in points in its orientation (device screens).
---@field bounds ui.Size? The same as `size`.
---@field traitCollectionDidChange? fun(self: ui.Screen, previous: TraitCollection)
local Screen = {}

---@alias ui.Orientation "portrait"|"portraitUpsideDown"|"landscapeLeft"|"landscapeRight"
---@alias ui.SceneSize "full"|"2/3"|"1/2"|"1/3"|"slideOver"|ui.Size

---A size in points.
---@class ui.Size
---@field width number
---@field height number

---The default screen, used by window scenes made without `screen`.
---@type ui.Screen
Screen.main = nil

---Changes device traits, as the system would (dark mode, a rotation).
---```lua
---screen:setTraits { userInterfaceStyle = "dark" }
---```
---@param values SystemTraitValues.init|fun(t: MutableTraits)
function Screen:setTraits(values) end

---@class ui.Screen.init : SystemTraitValues.init
---@field name? string
---@field device? string A device of the catalogue (`ui.devices`); its traits and size.
---@field orientation? ui.Orientation Default "portrait" (needs `device`).

---A window scene on a screen; it holds windows.
---@class ui.WindowScene : TraitEnvironment
---@overload fun(init?: ui.WindowScene.init): ui.WindowScene
---@field screen ui.Screen
---@field windows ui.Window[]
---@field isConnected boolean False after `disconnect()`.
---@field size ui.SceneSize Settable: a resize (Split View, Slide Over, Stage Manager); size classes follow it at the next update.
---@field bounds ui.Size? The scene's size in points (nil on a screen that is no device at "full").
---@field traitCollectionDidChange? fun(self: ui.WindowScene, previous: TraitCollection)
local WindowScene = {}

---Disconnects the scene: its windows leave the hierarchy.
function WindowScene:disconnect() end

---@class ui.WindowScene.init
---@field name? string
---@field screen? ui.Screen Default: `ui.Screen.main`.
---@field size? ui.SceneSize Default "full".
---@field traitCollectionDidChange? fun(self: ui.WindowScene, previous: TraitCollection)
---@field [string] any Your own fields.

---A view. It inherits its traits from its superview (or its view controller).
---Lifecycle callbacks are fields: set them in the constructor table or later.
---@class ui.View : TraitEnvironment
---@overload fun(init?: ui.View.init): ui.View
---@field superview ui.View?
---@field subviews ui.View[]
---@field window ui.Window?
---@field windowScene ui.WindowScene? The scene of the window it is in.
---@field backgroundColor ui.Color?
---@field resolvedBackgroundColor ui.Color? `backgroundColor` resolved for the view's traits (read-only).
---@field tintColor ui.Color? Its own tint colour; nil inherits the superview's.
---@field resolvedTintColor ui.Color The tint it shows: its own or the nearest superview's, else `systemBlue`, resolved for its traits (read-only).
---@field image ui.Image? A `ui.ImageView`'s image set (other views have none).
---@field resolvedImage ui.ImageVariant? A `ui.ImageView`'s variant for its traits (read-only).
---@field contentConfiguration HostingConfiguration? SwiftUI content hosted in this view (UIHostingConfiguration).
---@field minimumContentSizeCategory UIContentSizeCategory? Settable (iOS 15): clamps `preferredContentSizeCategory` here and below; nil for none.
---@field maximumContentSizeCategory UIContentSizeCategory? Settable (iOS 15): clamps `preferredContentSizeCategory` here and below; nil for none.
---@field font ui.Font? A label's font (nil on other views).
---@field adjustsFontForContentSizeCategory boolean? A label's: re-scale the font when the content size category changes.
---@field text string? A label's text.
---@field textColor ui.Color? A label's text colour as assigned.
---@field resolvedTextColor ui.Color? A label's text colour resolved against its traits. Read-only.
---@field layoutSubviews? fun(self: ui.View) Runs in the update after `setNeedsLayout`; trait reads are tracked.
---@field draw? fun(self: ui.View) Runs after `setNeedsDisplay` and when a color-appearance trait changes; trait reads are tracked.
---@field updateProperties? fun(self: ui.View) Runs after `setNeedsUpdateProperties`; trait reads are tracked.
---@field updateConstraints? fun(self: ui.View) Runs after `setNeedsUpdateConstraints` (and when the view enters a window), before layout; trait reads are tracked.
---@field overrideUserInterfaceStyle UIUserInterfaceStyle Settable (iOS 13): the style of this view and what inherits from it; "unspecified" inherits. Its own `traitOverrides` win.
---@field traitCollectionDidChange? fun(self: ui.View, previous: TraitCollection)
local View = {}

---Adds a subview at the end (moving it if it had a superview). Adding a view below
---itself is an error.
---@param view ui.View
function View:addSubview(view) end

---Inserts a subview at a position (1 is the back).
---@param view ui.View
---@param index integer
function View:insertSubview(view, index) end

function View:removeFromSuperview() end

---`layoutSubviews` runs at the next update.
function View:setNeedsLayout() end

---`draw` runs at the next update.
function View:setNeedsDisplay() end

---`updateProperties` runs at the next update.
function View:setNeedsUpdateProperties() end

---Updates traits and lays out now, from the outermost ancestor in an unbroken line that needs layout.
function View:layoutIfNeeded() end

---Runs pending `updateProperties` now: its ancestors' first, then this view's and its subviews' (iOS 26).
function View:updatePropertiesIfNeeded() end

---`updateConstraints` runs at the next update (and, for a controller's view, `updateViewConstraints`).
function View:setNeedsUpdateConstraints() end

---Runs pending `updateConstraints` now: its ancestors' first, then this view's and its subviews'.
function View:updateConstraintsIfNeeded() end

---@class ui.View.init
---@field name? string
---@field backgroundColor? ui.Color
---@field tintColor? ui.Color
---@field image? ui.Image
---@field contentConfiguration? HostingConfiguration
---@field minimumContentSizeCategory? UIContentSizeCategory
---@field maximumContentSizeCategory? UIContentSizeCategory
---@field layoutSubviews? fun(self: ui.View)
---@field draw? fun(self: ui.View)
---@field updateProperties? fun(self: ui.View)
---@field updateConstraints? fun(self: ui.View)
---@field overrideUserInterfaceStyle? UIUserInterfaceStyle
---@field traitCollectionDidChange? fun(self: ui.View, previous: TraitCollection)
---@field [string] any Your own fields.

---A label (UILabel): its font follows Dynamic Type when `adjustsFontForContentSizeCategory` is on.
---@class ui.Label : ui.View
---@overload fun(init?: ui.Label.init): ui.Label
local Label = {}

---@class ui.Label.init : ui.View.init
---@field font? ui.Font
---@field adjustsFontForContentSizeCategory? boolean
---@field text? string
---@field textColor? ui.Color

---A font (UIFont): `ui.Font.preferred(style [, tc])` or `ui.Font.system(size [, weight])`.
---@class ui.Font
---@field pointSize number
---@field weight string "regular", "semibold", ...
---@field leading number The line height in points.
---@field textStyle UIFontTextStyle? A preferred font's text style.
---@field scalesWithContentSize boolean Whether a label adjusting for the content size re-scales it.
local Font = {}

---UIFont.preferredFont(forTextStyle:compatibleWith:): the HIG's size for the style at the collection's category (default: `traits.current`'s).
---@param style UIFontTextStyle
---@param traitCollection? TraitCollection
---@return ui.Font
---@nodiscard
function Font.preferred(style, traitCollection) end

---UIFont.systemFont(ofSize:weight:): a font of fixed size.
---@param size number
---@param weight? string
---@return ui.Font
---@nodiscard
function Font.system(size, weight) end

---UIFontMetrics(forTextStyle:): scales values and fonts as a text style scales.
---@class ui.FontMetrics
---@overload fun(style: UIFontTextStyle): ui.FontMetrics
---@field textStyle UIFontTextStyle
local FontMetrics = {}

---@param value number
---@param traitCollection? TraitCollection
---@return number
---@nodiscard
function FontMetrics:scaledValue(value, traitCollection) end

---@param font ui.Font
---@param maximumPointSize? number
---@param traitCollection? TraitCollection
---@return ui.Font
---@nodiscard
function FontMetrics:scaledFont(font, maximumPointSize, traitCollection) end

---UIContentSizeCategory's ordering. Read-only; `ui.ContentSizeCategory.large` is `"large"`.
---@class ui.ContentSizeCategory
---@field all UIContentSizeCategory[] The twelve categories in UIKit's order (a fresh list).
local ContentSizeCategory = {}

----1, 0 or 1 as `a` is smaller than, the same as or larger than `b` (UIKit's order, not the strings').
---@param a UIContentSizeCategory
---@param b UIContentSizeCategory
---@return integer
---@nodiscard
function ContentSizeCategory.compare(a, b) end

---Whether `c` is one of the five accessibility sizes.
---@param c UIContentSizeCategory
---@return boolean
---@nodiscard
function ContentSizeCategory.isAccessibilityCategory(c) end

---A window: a view that inherits from its window scene and shows a root view controller.
---@class ui.Window : ui.View
---@overload fun(init?: ui.Window.init): ui.Window
---@field windowScene ui.WindowScene? Settable: the scene the window is in.
---@field rootViewController ui.ViewController? Settable.
local Window = {}

---@class ui.Window.init : ui.View.init
---@field windowScene? ui.WindowScene
---@field rootViewController? ui.ViewController

---A view controller. Its `view` is created on first access (then `viewDidLoad`).
---Lifecycle callbacks are fields: set them in the constructor table or later.
---@class ui.ViewController : TraitEnvironment
---@overload fun(init?: ui.ViewController.init): ui.ViewController
---@field view ui.View Loads the view on first access.
---@field viewIfLoaded ui.View?
---@field isViewLoaded boolean
---@field parent ui.ViewController?
---@field children ui.ViewController[]
---@field window ui.Window? The window its view is in.
---@field presentedViewController ui.ViewController? What it presents, or what its `present` call made an ancestor present.
---@field presentingViewController ui.ViewController? Its presenter, or the presenter of its nearest presented ancestor.
---@field presentationController ui.PresentationController? Set while it is presented.
---@field modalPresentationStyle ModalPresentationStyle Settable: how it is shown when presented (default "automatic").
---@field definesPresentationContext boolean Settable: whether context presentations requested at or below it are made by it.
---@field overrideUserInterfaceStyle UIUserInterfaceStyle Settable (iOS 13): the style of the controller, its views and its children; not what it presents.
---@field updateViewConstraints? fun(self: ui.ViewController) Runs when its view needs its constraints updated; trait reads are tracked.
---@field viewDidLoad? fun(self: ui.ViewController)
---@field viewWillAppear? fun(self: ui.ViewController) Traits are still those from before the view entered the window.
---@field viewIsAppearing? fun(self: ui.ViewController) Traits are up to date: do trait-dependent setup here.
---@field viewDidAppear? fun(self: ui.ViewController)
---@field viewWillDisappear? fun(self: ui.ViewController)
---@field viewDidDisappear? fun(self: ui.ViewController)
---@field viewWillLayoutSubviews? fun(self: ui.ViewController) Trait reads are tracked.
---@field viewDidLayoutSubviews? fun(self: ui.ViewController) Trait reads are tracked.
---@field updateProperties? fun(self: ui.ViewController) Runs after `setNeedsUpdateProperties`; trait reads are tracked.
---@field traitCollectionDidChange? fun(self: ui.ViewController, previous: TraitCollection)
local ViewController = {}

---Adds a child view controller (add its view to your view hierarchy yourself).
---@param child ui.ViewController
function ViewController:addChild(child) end

function ViewController:removeFromParent() end

---Presents another view controller; it gets a `presentationController`.
---@param other ui.ViewController
function ViewController:present(other) end

---Dismisses what this controller presents, or itself when it is presented.
function ViewController:dismiss() end

function ViewController:loadViewIfNeeded() end

---Marks its view for `updateProperties` at the next update.
function ViewController:setNeedsUpdateProperties() end

---Runs pending `updateProperties` now: its ancestors' first, then its own and its view's subtree's (iOS 26).
function ViewController:updatePropertiesIfNeeded() end

---Gives a child the traits `collection` specifies (nil removes them); the child's
---own `traitOverrides` win (setOverrideTraitCollection(_:forChild:)).
---@param collection TraitCollection?
---@param child ui.ViewController
function ViewController:setOverrideTraitCollection(collection, child) end

---What `setOverrideTraitCollection` gave the child, or nil.
---@param child ui.ViewController
---@return TraitCollection?
---@nodiscard
function ViewController:overrideTraitCollection(child) end

---@class ui.ViewController.init
---@field name? string
---@field viewDidLoad? fun(self: ui.ViewController)
---@field viewWillAppear? fun(self: ui.ViewController)
---@field viewIsAppearing? fun(self: ui.ViewController)
---@field viewDidAppear? fun(self: ui.ViewController)
---@field viewWillDisappear? fun(self: ui.ViewController)
---@field viewDidDisappear? fun(self: ui.ViewController)
---@field viewWillLayoutSubviews? fun(self: ui.ViewController)
---@field viewDidLayoutSubviews? fun(self: ui.ViewController)
---@field updateProperties? fun(self: ui.ViewController)
---@field updateViewConstraints? fun(self: ui.ViewController)
---@field modalPresentationStyle? ModalPresentationStyle
---@field definesPresentationContext? boolean
---@field overrideUserInterfaceStyle? UIUserInterfaceStyle
---@field traitCollectionDidChange? fun(self: ui.ViewController, previous: TraitCollection)
---@field [string] any Your own fields.

---A view controller that hosts a SwiftUI view (UIHostingController).
---@class ui.HostingController : ui.ViewController
---@overload fun(init?: ui.HostingController.init): ui.HostingController
---@field rootView SwiftUIView? Settable: replaces the hosted view.
local HostingController = {}

---@class ui.HostingController.init : ui.ViewController.init
---@field rootView? SwiftUIView

---UIKit's modal presentation styles.
---@alias ModalPresentationStyle "automatic"|"fullScreen"|"overFullScreen"|"pageSheet"|"formSheet"|"currentContext"|"overCurrentContext"|"popover"

---Manages one presentation: it inherits from the window that shows the presentation
---(not from the presenting controller), and the presented controller inherits from
---it. Made by `present()`, not by scripts.
---@class ui.PresentationController : TraitEnvironment
---@field presentationStyle ModalPresentationStyle The style the presented controller asked for.
---@field adaptivePresentationStyle ModalPresentationStyle The style shown in the window's size classes now.
---@field overrideTraitCollection TraitCollection? Settable (deprecated in iOS 17): traits for the presented controller; its `traitOverrides` win.
---@field containerViewWillLayoutSubviews? fun(self: ui.PresentationController) Runs when the presentation starts and when a trait it read changes; trait reads are tracked.
---@field containerViewDidLayoutSubviews? fun(self: ui.PresentationController) Trait reads are tracked.
local PresentationController = {}

---A color: fixed, or dynamic (resolved against a trait collection).
---```lua
---local red = ui.Color(1, 0, 0)           -- components from 0 to 1, alpha optional
---local gray = ui.Color("#808080")
---local label = ui.Color.dynamic(function(tc) return tc.userInterfaceStyle == "dark" and gray or red end)
---```
---The components are read from fixed colors; a dynamic one must be resolved first.
---UIKit's dynamic system colours are `ui.Color.<name>` for every name `ui.Color.names()`
---lists (`ui.Color.systemBackground`, `label`, `systemBlue`, `systemGray6`, `separator`, ...).
---@class ui.Color
---@overload fun(red: number, green: number, blue: number, alpha?: number): ui.Color
---@overload fun(hex: string): ui.Color
---@field red number
---@field green number
---@field blue number
---@field alpha number
---@field hex string `"#RRGGBB"`, or `"#RRGGBBAA"` when not opaque.
---@field isDynamic boolean
---@field name string A system colour's or colour set's name (`ui.Color.systemBackground.name`).
local Color = {}

---The names of UIKit's dynamic system colours, `ui.Color.<name>`.
---@return string[]
---@nodiscard
function Color.names() end

---A colour set of an asset catalogue (`UIColor(named:in:compatibleWith:)`); nil when absent.
---@param name string With its namespace: `"Brand/Accent"`.
---@param catalog? ui.AssetCatalog Default: `ui.assets` (`--assets`).
---@return ui.Color?
---@nodiscard
function Color.named(name, catalog) end

---An asset catalogue (an `.xcassets` folder), read as Xcode writes it.
---@class ui.AssetCatalog
---@field path string
---@field colors string[] Colour set names, sorted, namespaces included.
---@field images string[] Image set names, sorted, namespaces included.
---@field warnings string[] What was read but not used (a second set of a name).

---An image set of a catalogue (`UIImage(named:)`'s asset).
---@class ui.Image
---@field name string
---@field variants ui.ImageVariant[] The images with a file, as Contents.json lists them.
---@field traitsRead string[] The traits whose values can change the variant chosen.
---@field renderingIntent string? `template` or `original` when the set says.
local Image = {}

---The variant these traits get (`UIImageAsset.image(with:)`); default: `traits.current`.
---@param traitCollection? TraitCollection
---@return ui.ImageVariant?
---@nodiscard
function Image:resolved(traitCollection) end

---One image of an image set.
---@class ui.ImageVariant
---@field file string `"hero-dark@3x.png"`
---@field path string Inside the catalogue: `"Hero.imageset/hero-dark@3x.png"`.
---@field scale integer? 1, 2 or 3; nil for a single-scale image.
---@field traits table<string, string|integer> The traits the variant asks for (`{ userInterfaceStyle = "dark", displayScale = 3 }`).

---`ui.Image.named`.
---@class ui.ImageLibrary
---@field named fun(name: string, catalog?: ui.AssetCatalog): ui.Image? `UIImage(named:)`: default catalogue `ui.assets`.

---A color whose value depends on the traits it is resolved with.
---@param provider fun(traitCollection: TraitCollection): ui.Color
---@return ui.Color
---@nodiscard
function Color.dynamic(provider) end

---The fixed color for these traits (default: `traits.current`); the provider runs
---with them current.
---@param traitCollection? TraitCollection
---@return ui.Color
---@nodiscard
function Color:resolvedColor(traitCollection) end

---What `ui.stats()` returns: live counts and cumulative counters.
---@class ui.Stats
---@field environments integer Live trait environments.
---@field traitUpdates integer Environments whose collection changed, summed over all updates.
---@field handlersCalled integer Trait change registrations called.
---@field layouts integer
---@field draws integer
---@field propertyUpdates integer `updateProperties` runs.
---@field overridesSet integer
---@field updates integer Updates that had work to do.
---@field passes integer Passes those updates ran.
---@field environmentsVisited integer Environments visited by trait propagation, in total.
---@field lastUpdateVisited integer Environments visited by the last update.
---@field collectionsCreated integer Trait collections created so far.
---@field luaMemory integer Bytes Lua has allocated now.

---One event passed to the function given to `ui.trace`.
---@class ui.TraceEvent
---@field kind "update"|"traitsChanged"|"handler"|"lifecycle"|"override"
---@field message string The line `ui.trace(true)` prints.
---@field pass? integer "update": the pass number.
---@field environment? TraitEnvironment Every kind but "update".
---@field traits? TraitDefinition[] "traitsChanged": what changed; "handler": what the handler was called for.
---@field callback? string "lifecycle": the callback's name (`"viewIsAppearing"`).
---@field trait? TraitDefinition "override": the trait whose override was set or removed.

---The `ui` global: trait environments, the update cycle, colors and instrumentation.
---@class traitlab.ui
---@field Screen ui.Screen
---@field WindowScene ui.WindowScene
---@field Window ui.Window
---@field View ui.View
---@field ViewController ui.ViewController
---@field HostingController ui.HostingController
---@field PresentationController ui.PresentationController
---@field Color ui.Color
---@field Label ui.Label
---@field Font ui.Font
---@field FontMetrics ui.FontMetrics
---@field ContentSizeCategory ui.ContentSizeCategory
---@field AssetCatalog fun(path: string): ui.AssetCatalog Reads an `.xcassets` folder (errors name the file and what is wrong).
---@field Image ui.ImageLibrary
---@field ImageView ui.View A view showing an image set (`UIImageView`): `image`, `resolvedImage`.
---@field assets ui.AssetCatalog The app's main bundle: the catalogue `--assets PATH` named, else an empty one.
---@field hierarchyMode "ios17"|"legacy" The trait flow: iOS 17's (default) or the one before it.
---@field devices string[] The device catalogue's names (Apple's layout guidelines), for `ui.Screen { device = ... }` and `--device`.
---@field ios string The iOS version this world runs, as `UIDevice.systemVersion` reads ("26.0"). Read-only.
---@field observationTracking boolean Whether tracked methods track `ui.Observable` reads: always on iOS 26; on iOS 18 set it to `true` to opt in (the `UIObservationTrackingEnabled` key); an error before 18.
ui = {}

---Applies everything pending, as one run-loop turn: trait collections top-down
---with their change callbacks, appearance callbacks, then properties, layout and
---drawing; repeats until nothing is pending. The REPL runs one after every input.
function ui.update() end

---The one environment named `name` in a connected window scene (or a screen
---such a scene is on); nil when there is none, an error naming the matches
---when several have that name (use `ui.findAll`).
---@param name string
---@return TraitEnvironment?
---@nodiscard
function ui.find(name) end

---Every environment named `name` in the connected window scenes and their
---screens, in tree order.
---@param name string
---@return TraitEnvironment[]
---@nodiscard
function ui.findAll(name) end

---Counters of the work done so far.
---@return ui.Stats
---@nodiscard
function ui.stats() end

---The subtree below `node`. "tree" (the default): each node with its overrides,
---the root with its non-default traits, values the last update changed marked
---`(was ...)`. "full": every node's non-default traits. "json": one object per
---node (`class`, `name`, `overrides`, `traits`, `changed`, `children`). "dot":
---the Graphviz graph `ui.picture` draws. Text fits `width` columns (default:
---`COLUMNS`, else the terminal's width, else 100).
---@param node TraitEnvironment
---@param format? "tree"|"full"|"json"|"dot"
---@param width? integer
---@return string
---@nodiscard
function ui.dump(node, format, width) end

---Options of `ui.picture`.
---@class ui.PictureOptions
---@field trait? TraitDefinition|string Colour how this trait's values flow.
---@field why? TraitEnvironment With `trait`: draw in red the path its value took to this node (`:why` as a picture).
---@field timeout? number Seconds `dot` may take (default 20); it is stopped after that.

---Draws the subtree below `node` with Graphviz's `dot` into `path` (SVG or PNG,
---by the extension) and returns the path. Not available under `--sandbox`.
---@param node TraitEnvironment
---@param path string
---@param options? ui.PictureOptions
---@return string path
function ui.picture(node, path, options) end

---`true` prints each engine event to standard error, a function receives each event,
---a string writes them to that file as JSON lines (one object per event: `seq`,
---`kind`, and by kind `pass`, `environment`, `traits`, `values`, `callback`,
---`trait`, `value`), `false` or nil stops.
---@param handler boolean|string|fun(event: ui.TraceEvent)|nil
function ui.trace(handler) end

---An object like an instance of a Swift `@Observable` class: a property read in
---a tracked method (`layoutSubviews`, `draw`, `updateProperties`,
---`viewWillLayoutSubviews`, `viewDidLayoutSubviews`) is tracked, and setting it
---to a different value later invalidates exactly that work, which runs again at
---the next update. Reads elsewhere are not tracked. `pairs`, `#` and `tostring`
---go over its values.
---@param values? table The initial properties (copied).
---@return table
---@nodiscard
function ui.Observable(values) end

---Whether this world's iOS is at least `version` ("18", "18.0", "18.2"), like
---Swift's `#available(iOS 18.0, *)`: the major versions are compared.
---@param version string|integer
---@return boolean
---@nodiscard
function ui.available(version) end

-- ---------------------------------------------------------------------------
-- swiftui

-- SwiftUI's value types for the built-in environment keys.

---@alias SwiftUIColorScheme "light"|"dark"
---@alias SwiftUIColorSchemeContrast "standard"|"increased"
---@alias SwiftUIDynamicTypeSize "xSmall"|"small"|"medium"|"large"|"xLarge"|"xxLarge"|"xxxLarge"|"accessibility1"|"accessibility2"|"accessibility3"|"accessibility4"|"accessibility5"
---@alias SwiftUILayoutDirection "leftToRight"|"rightToLeft"
---@alias SwiftUIUserInterfaceSizeClass "compact"|"regular"
---@alias SwiftUILegibilityWeight "regular"|"bold"

---An environment key (EnvironmentValues property). Read-only.
---@class EnvironmentKey
---@field name string
---@field default TraitValue
---@field type TraitValueType
---@field isOptional boolean
---@field isBridged boolean True once `swiftui.bridge` gave it a bridge.
---@field isBuiltin boolean True for SwiftUI's own keys (colorScheme, ...).

---What `swiftui.EnvironmentKey` takes.
---@class EnvironmentKeySpec
---@field name string Required: the EnvironmentValues property.
---@field default? TraitValue Required unless `type` is given.
---@field type? TraitValueType Without `default`, declares an optional key.
---@field swift? SwiftDeclaration How the app declared it (written by `traitlab swift import`).

---The two directions of a bridged key (UITraitBridgedEnvironmentKey).
---@class EnvironmentBridge
---@field read fun(traitCollection: TraitCollection): TraitValue Traits to the key's value.
---@field write fun(mutableTraits: MutableTraits, value: TraitValue) The key's value into traits, for UIKit content inside SwiftUI.

---A SwiftUI view's environment, read-only, by key name or key object. A body's reads
---are its dependencies. `view:environment(key, value)` sets a modifier on a view.
---@class EnvironmentValues
---@overload fun(self: SwiftUIView, key: EnvironmentKey|string, value: TraitValue): SwiftUIView
---@field colorScheme SwiftUIColorScheme
---@field colorSchemeContrast SwiftUIColorSchemeContrast
---@field dynamicTypeSize SwiftUIDynamicTypeSize
---@field layoutDirection SwiftUILayoutDirection
---@field horizontalSizeClass SwiftUIUserInterfaceSizeClass?
---@field verticalSizeClass SwiftUIUserInterfaceSizeClass?
---@field legibilityWeight SwiftUILegibilityWeight?
---@field displayScale number
---@field [EnvironmentKey] TraitValue
---@field [string] any A key you defined.

---A modeled SwiftUI view: a name, a `body` function, static content and
---`environment` modifiers. Nothing is drawn: what `body` returns is `rendered`.
---`view:environment("myAppTheme", "standard")` sets a modifier (`.environment(\.myAppTheme, .standard)`)
---and returns the view.
---@class SwiftUIView
---@field name string?
---@field rendered any What `body` returned last.
---@field bodyCount integer How many times `body` ran.
---@field environment EnvironmentValues The environment as the view sees it.
---@field content SwiftUIView[] Its static child views.
---@field isHosted boolean

---What `swiftui.View` takes.
---@class SwiftUIViewSpec
---@field name? string
---@field body? fun(env: EnvironmentValues): any Runs when first hosted and when a value it read changes.
---@field content? SwiftUIView[] Static child views.

---A UIKit view inside SwiftUI (UIViewRepresentable).
---@class ViewRepresentable : SwiftUIView
---@field uiView ui.View? What `makeView` returned, while hosted.

---@class ViewRepresentableSpec
---@field name? string
---@field makeView fun(context: RepresentableContext): ui.View Runs once, when first hosted in a window.
---@field updateView? fun(view: ui.View, context: RepresentableContext) Runs after make and when the environment changes.

---A UIKit view controller inside SwiftUI (UIViewControllerRepresentable).
---@class ViewControllerRepresentable : SwiftUIView
---@field viewController ui.ViewController? What `makeViewController` returned, while hosted.

---@class ViewControllerRepresentableSpec
---@field name? string
---@field makeViewController fun(context: RepresentableContext): ui.ViewController Runs once, when first hosted in a window.
---@field updateViewController? fun(viewController: ui.ViewController, context: RepresentableContext) Runs after make and when the environment changes.

---@class RepresentableContext
---@field environment EnvironmentValues

---SwiftUI content for a UIKit view's `contentConfiguration` (UIHostingConfiguration).
---@class HostingConfiguration
---@field rootView SwiftUIView
---@field view ui.View? The view whose configuration it is.

---The `swiftui` global: environment keys, bridges, views and hosting.
---@class traitlab.swiftui
---@field ColorScheme TraitEnum light, dark.
---@field ColorSchemeContrast TraitEnum standard, increased.
---@field DynamicTypeSize TraitEnum xSmall … xxxLarge, accessibility1 … accessibility5.
---@field LayoutDirection TraitEnum leftToRight, rightToLeft.
---@field UserInterfaceSizeClass TraitEnum compact, regular.
---@field LegibilityWeight TraitEnum regular, bold.
swiftui = {}

---Defines an environment key (EnvironmentValues.name). Names are unique.
---```lua
---local ThemeKey = swiftui.EnvironmentKey { name = "myAppTheme", default = "standard" }
---```
---@param spec EnvironmentKeySpec
---@return EnvironmentKey
function swiftui.EnvironmentKey(spec) end

---Bridges a key to traits (UITraitBridgedEnvironmentKey). A key is bridged once.
---```lua
---swiftui.bridge(ThemeKey, {
---  read  = function(traitCollection) return traitCollection.myAppTheme end,
---  write = function(mutableTraits, value) mutableTraits.myAppTheme = value end,
---})
---```
---@param key EnvironmentKey|string
---@param bridge EnvironmentBridge
---@return EnvironmentKey
function swiftui.bridge(key, bridge) end

---Makes a SwiftUI view.
---```lua
---local cell = swiftui.View { name = "CellView", body = function(env) return env.myAppTheme end }
---```
---@param spec? SwiftUIViewSpec
---@return SwiftUIView
function swiftui.View(spec) end

---UIKit view controller content for SwiftUI.
---@param spec ViewControllerRepresentableSpec
---@return ViewControllerRepresentable
function swiftui.ViewControllerRepresentable(spec) end

---UIKit view content for SwiftUI.
---@param spec ViewRepresentableSpec
---@return ViewRepresentable
function swiftui.ViewRepresentable(spec) end

---Hosts a SwiftUI view in a UIKit view: `view.contentConfiguration = swiftui.HostingConfiguration(cell)`.
---@param rootView SwiftUIView
---@return HostingConfiguration
function swiftui.HostingConfiguration(rootView) end

-- ---------------------------------------------------------------------------
-- plugins

---What a plugin file returns. Annotate it with `---@type PluginManifest` for completion.
---@class PluginManifest
---@field name? string Default: the file or folder name.
---@field version? string Default "0.0.0".
---@field description? string
---@field requires? string[] Plugins loaded first; a missing or cyclic requirement is an error.
---@field setup? fun(api: traitlab) Defines the plugin's traits, keys and bridges.

---One loaded plugin, as `plugins.list()` gives it.
---@class PluginInfo
---@field name string
---@field version string
---@field path string The file it was loaded from.

---The `plugins` global: plugins found on the plugin path.
---@class traitlab.plugins
plugins = {}

---Loads a plugin once (its requirements first) and returns its manifest.
---@param name string A name on the plugin path, or a path to a file or folder.
---@return PluginManifest
function plugins.load(name) end

---The loaded plugins, in load order.
---@return PluginInfo[]
---@nodiscard
function plugins.list() end

---Runs a plugin again: what it defines replaces what it defined before, and live
---trees pick it up at the next update. If it fails, nothing changes and the error
---is raised.
---@param name string
---@return PluginManifest manifest
---@return string[] dropped Messages about overrides dropped because their value no longer fits.
function plugins.reload(name) end

---Searches a folder for plugins before the rest of the plugin path.
---@param dir string
function plugins.addPath(dir) end

---The folders searched for plugins, in order.
---@return string[]
---@nodiscard
function plugins.path() end

-- ---------------------------------------------------------------------------
-- require("traitlab"): the same objects as the globals.

---@class traitlab
---@field traits traitlab.traits
---@field ui traitlab.ui
---@field swiftui traitlab.swiftui
---@field plugins traitlab.plugins
local traitlab = { traits = traits, ui = ui, swiftui = swiftui, plugins = plugins }

return traitlab
