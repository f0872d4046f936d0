/// UIKit's system traits, with UIKit's property names, cases and defaults.
///
/// Each definition's `name` is its type name without the `UITrait` prefix
/// (`HorizontalSizeClass`), and its identifier is `UIKit.<property>` so system
/// values take part in JSON encoding.
public enum SystemTraits {
    private static func enumTrait(_ name: String, _ cases: [String], colors: Bool = false, property: String? = nil,
                                  defaultCase: String? = nil) -> TraitDefinition {
        let e = TraitEnum(name: "UI" + name, cases: cases)
        let property = property ?? TraitDefinition.defaultProperty(for: name)
        return try! TraitDefinition(name: name, valueType: .enumeration(e), defaultValue: .string(defaultCase ?? cases[0]), // invariant: literal cases
                                    identifier: "UIKit." + property, property: property, affectsColorAppearance: colors, isSystem: true)
    }

    /// `userInterfaceIdiom` (`UIUserInterfaceIdiom`): `unspecified`, `phone`, `pad`, `tv`, `carPlay`, `mac` or `vision`. Affects color appearance.
    public static let userInterfaceIdiom = enumTrait("UserInterfaceIdiom", ["unspecified", "phone", "pad", "tv", "carPlay", "mac", "vision"], colors: true)
    /// `userInterfaceStyle` (`UIUserInterfaceStyle`): `unspecified`, `light` or `dark`. Affects color appearance.
    public static let userInterfaceStyle = enumTrait("UserInterfaceStyle", ["unspecified", "light", "dark"], colors: true)
    /// `horizontalSizeClass` (`UIUserInterfaceSizeClass`): `unspecified`, `compact` or `regular`.
    public static let horizontalSizeClass = enumTrait("HorizontalSizeClass", ["unspecified", "compact", "regular"])
    /// `verticalSizeClass` (`UIUserInterfaceSizeClass`): `unspecified`, `compact` or `regular`.
    public static let verticalSizeClass = enumTrait("VerticalSizeClass", ["unspecified", "compact", "regular"])
    /// `displayScale`: the points-to-pixels scale, a number; 0 is unspecified.
    public static let displayScale = try! TraitDefinition(name: "DisplayScale", valueType: .number, defaultValue: .number(0), // invariant: literal
                                                          identifier: "UIKit.displayScale", isSystem: true)
    /// `layoutDirection` (`UITraitEnvironmentLayoutDirection`): `unspecified`, `leftToRight` or `rightToLeft`.
    public static let layoutDirection = enumTrait("LayoutDirection", ["unspecified", "leftToRight", "rightToLeft"])
    /// `preferredContentSizeCategory` (`UIContentSizeCategory`): the text size, from `extraSmall` to `accessibilityExtraExtraExtraLarge`, or `unspecified`.
    public static let preferredContentSizeCategory = enumTrait("PreferredContentSizeCategory", [
        "unspecified", "extraSmall", "small", "medium", "large", "extraLarge", "extraExtraLarge",
        "extraExtraExtraLarge", "accessibilityMedium", "accessibilityLarge", "accessibilityExtraLarge",
        "accessibilityExtraExtraLarge", "accessibilityExtraExtraExtraLarge",
    ])
    /// `legibilityWeight` (`UILegibilityWeight`, Bold Text): `unspecified`, `regular` or `bold`.
    public static let legibilityWeight = enumTrait("LegibilityWeight", ["unspecified", "regular", "bold"])
    /// `accessibilityContrast` (`UIAccessibilityContrast`, Increase Contrast): `unspecified`, `normal` or `high`. Affects color appearance.
    public static let accessibilityContrast = enumTrait("AccessibilityContrast", ["unspecified", "normal", "high"], colors: true)
    /// `userInterfaceLevel` (`UIUserInterfaceLevel`): `unspecified`, `base` or `elevated`. Affects color appearance.
    public static let userInterfaceLevel = enumTrait("UserInterfaceLevel", ["unspecified", "base", "elevated"], colors: true)
    /// `displayGamut` (`UIDisplayGamut`): `unspecified`, `SRGB` or `P3`. Affects color appearance.
    public static let displayGamut = enumTrait("DisplayGamut", ["unspecified", "SRGB", "P3"], colors: true)
    /// `activeAppearance` (`UIUserInterfaceActiveAppearance`): `unspecified`, `active` or `inactive`. Affects color appearance.
    public static let activeAppearance = enumTrait("ActiveAppearance", ["unspecified", "active", "inactive"], colors: true)
    /// `forceTouchCapability` (`UIForceTouchCapability`): `unknown`, `unavailable` or `available`.
    public static let forceTouchCapability = enumTrait("ForceTouchCapability", ["unknown", "unavailable", "available"])
    /// `imageDynamicRange` (`UIImage.DynamicRange`): `unspecified`, `standard`, `constrainedHigh` or `high`.
    public static let imageDynamicRange = enumTrait("ImageDynamicRange", ["unspecified", "standard", "constrainedHigh", "high"])
    /// `toolbarItemPresentationSize` (`UINSToolbarItemPresentationSize`): `unspecified`, `regular`, `small` or `large`.
    public static let toolbarItemPresentationSize = enumTrait("ToolbarItemPresentationSize", ["unspecified", "regular", "small", "large"])
    /// `sceneCaptureState` (`UISceneCaptureState`): `unspecified`, `inactive` or `active`.
    public static let sceneCaptureState = enumTrait("SceneCaptureState", ["unspecified", "inactive", "active"])
    /// `listEnvironment` (`UIListEnvironment`): `unspecified`, `none`, `plain`, `grouped`, `insetGrouped`, `sidebar` or `sidebarPlain`.
    public static let listEnvironment = enumTrait("ListEnvironment", ["unspecified", "none", "plain", "grouped", "insetGrouped", "sidebar", "sidebarPlain"])
    /// `typesettingLanguage`: a language tag (`"ja"`), or none (``TraitValue/none``) to follow the content's language.
    public static let typesettingLanguage = try! TraitDefinition(name: "TypesettingLanguage", valueType: .string, defaultValue: .none, // invariant: literal
                                                                 isOptional: true, identifier: "UIKit.typesettingLanguage", isSystem: true)
    /// `hdrHeadroomUsageLimit` (`UIHDRHeadroomUsageLimit`, iOS 26): `unspecified`,
    /// `active` or `inactive`: whether HDR content should hold back its headroom.
    public static let hdrHeadroomUsageLimit = enumTrait("HDRHeadroomUsageLimit", ["unspecified", "active", "inactive"],
                                                        property: "hdrHeadroomUsageLimit")
    /// `splitViewControllerLayoutEnvironment` (`UISplitViewController.LayoutEnvironment`,
    /// iOS 26): `none`, `expanded` or `collapsed`: whether the environment is
    /// inside a split view controller, and how it shows.
    public static let splitViewControllerLayoutEnvironment = enumTrait("SplitViewControllerLayoutEnvironment",
                                                                       ["none", "expanded", "collapsed"])
    /// `tabAccessoryEnvironment` (`UITabAccessory.Environment`, iOS 26):
    /// `unspecified`, `none`, `regular` or `inline`: where a tab bar's
    /// bottom accessory shows.
    public static let tabAccessoryEnvironment = enumTrait("TabAccessoryEnvironment", ["unspecified", "none", "regular", "inline"])
    /// `resolvesNaturalAlignmentWithBaseWritingDirection` (iOS 26): a boolean,
    /// false by default: whether natural text alignment follows the text's
    /// base writing direction rather than the layout direction.
    public static let resolvesNaturalAlignmentWithBaseWritingDirection = try! TraitDefinition( // invariant: literal
        name: "ResolvesNaturalAlignmentWithBaseWritingDirection", valueType: .boolean, defaultValue: .bool(false),
        identifier: "UIKit.resolvesNaturalAlignmentWithBaseWritingDirection", isSystem: true)

    /// Every system trait, in a stable order.
    public static let all: [TraitDefinition] = [
        userInterfaceIdiom, userInterfaceStyle, horizontalSizeClass, verticalSizeClass, displayScale,
        layoutDirection, preferredContentSizeCategory, legibilityWeight, accessibilityContrast,
        userInterfaceLevel, displayGamut, activeAppearance, forceTouchCapability, imageDynamicRange,
        toolbarItemPresentationSize, sceneCaptureState, listEnvironment, typesettingLanguage,
        hdrHeadroomUsageLimit, splitViewControllerLayoutEnvironment, tabAccessoryEnvironment,
        resolvesNaturalAlignmentWithBaseWritingDirection,
    ]

    /// `UITraitCollection.systemTraitsAffectingColorAppearance`.
    public static let affectingColorAppearance: [TraitDefinition] = [
        userInterfaceIdiom, userInterfaceStyle, displayGamut, accessibilityContrast, userInterfaceLevel, activeAppearance,
    ]

    /// `UITraitCollection.systemTraitsAffectingImageLookup`.
    public static let affectingImageLookup: [TraitDefinition] = affectingColorAppearance + [
        layoutDirection, displayScale, horizontalSizeClass, verticalSizeClass, preferredContentSizeCategory, legibilityWeight,
    ]
}
