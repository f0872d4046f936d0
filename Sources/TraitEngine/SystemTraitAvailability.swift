/// Which iOS version introduced each system trait: one row per trait, with
/// the Apple page whose availability line says so.
///
/// A world running an earlier version (``OSVersion``) refuses the trait
/// wherever a Swift program would fail to compile against that deployment
/// target: reading it, overriding it, registering for it, passing it.
///
/// ```swift
/// SystemTraitAvailability.introduced(SystemTraits.listEnvironment)   // 18
/// try SystemTraitAvailability.require(SystemTraits.listEnvironment, in: .iOS17)  // throws, naming iOS 18
/// ```
public enum SystemTraitAvailability {
    /// One row: a trait, the iOS major version that introduced it, and the page.
    public struct Row {
        /// The trait.
        public let trait: TraitDefinition
        /// The iOS major version whose SDK introduced it.
        public let introduced: Int
        /// The page whose availability line gives the version.
        public let source: String
    }

    private static let doc = "https://developer.apple.com/documentation/uikit/"

    /// Every system trait with its version, in ``SystemTraits/all``'s order.
    public static let rows: [Row] = {
        let T = SystemTraits.self
        // (The collection property's page; iOS 17 added a UITrait... type for
        // each, but the property, which an app reads, is older.)
        return [
            Row(trait: T.userInterfaceIdiom, introduced: 8, source: doc + "uitraitcollection/userinterfaceidiom"),
            Row(trait: T.userInterfaceStyle, introduced: 12, source: doc + "uitraitcollection/userinterfacestyle"),
            Row(trait: T.horizontalSizeClass, introduced: 8, source: doc + "uitraitcollection/horizontalsizeclass"),
            Row(trait: T.verticalSizeClass, introduced: 8, source: doc + "uitraitcollection/verticalsizeclass"),
            Row(trait: T.displayScale, introduced: 8, source: doc + "uitraitcollection/displayscale"),
            Row(trait: T.layoutDirection, introduced: 10, source: doc + "uitraitcollection/layoutdirection"),
            Row(trait: T.preferredContentSizeCategory, introduced: 10, source: doc + "uitraitcollection/preferredcontentsizecategory"),
            Row(trait: T.legibilityWeight, introduced: 13, source: doc + "uitraitcollection/legibilityweight"),
            Row(trait: T.accessibilityContrast, introduced: 13, source: doc + "uitraitcollection/accessibilitycontrast"),
            Row(trait: T.userInterfaceLevel, introduced: 13, source: doc + "uitraitcollection/userinterfacelevel"),
            Row(trait: T.displayGamut, introduced: 10, source: doc + "uitraitcollection/displaygamut"),
            Row(trait: T.activeAppearance, introduced: 14, source: doc + "uitraitcollection/activeappearance"),
            Row(trait: T.forceTouchCapability, introduced: 9, source: doc + "uitraitcollection/forcetouchcapability"),
            Row(trait: T.imageDynamicRange, introduced: 17, source: doc + "uitraitcollection/imagedynamicrange"),
            Row(trait: T.toolbarItemPresentationSize, introduced: 17, source: doc + "uitraitcollection/toolbaritempresentationsize"),
            Row(trait: T.sceneCaptureState, introduced: 17, source: doc + "uitraitcollection/scenecapturestate"),
            Row(trait: T.listEnvironment, introduced: 18, source: doc + "uitraitcollection/listenvironment"),
            Row(trait: T.typesettingLanguage, introduced: 17, source: doc + "uitraitcollection/typesettinglanguage"),
            Row(trait: T.hdrHeadroomUsageLimit, introduced: 26, source: doc + "uitraitcollection/hdrheadroomusagelimit"),
            Row(trait: T.splitViewControllerLayoutEnvironment, introduced: 26,
                source: doc + "uitraitcollection/splitviewcontrollerlayoutenvironment"),
            Row(trait: T.tabAccessoryEnvironment, introduced: 26, source: doc + "uitraitcollection/tabaccessoryenvironment"),
            Row(trait: T.resolvesNaturalAlignmentWithBaseWritingDirection, introduced: 26,
                source: doc + "uitraitcollection/resolvesnaturalalignmentwithbasewritingdirection"),
        ]
    }()

    /// The traits introduced after the oldest modelled version, by definition id.
    private static let later: [Int: Int] = {
        var m: [Int: Int] = [:]
        for r in rows where r.introduced > OSVersion.supported[0].major { m[r.trait.id] = r.introduced }
        return m
    }()

    /// The version that introduced `trait` (nil: not a system trait, or one
    /// every modelled version has).
    public static func introduced(_ trait: TraitDefinition) -> Int? {
        trait.isSystem ? later[trait.id] : nil
    }

    /// Whether `os` has `trait` (custom traits: always).
    @inline(__always)
    public static func isAvailable(_ trait: TraitDefinition, in os: OSVersion) -> Bool {
        guard trait.isSystem, let v = later[trait.id] else { return true }
        return os.major >= v
    }

    /// Throws the error a use of `trait` raises in a world running `os`
    /// without it, naming the version that introduced it.
    public static func require(_ trait: TraitDefinition, in os: OSVersion) throws {
        guard !isAvailable(trait, in: os), let v = later[trait.id] else { return }
        throw TraitError("\(trait.property) (UITraitCollection.\(trait.property)) is available from iOS \(v) (this world runs iOS \(os.major))")
    }

    /// `collection` without the traits `os` lacks.
    public static func filtering(_ collection: TraitCollection, for os: OSVersion) -> TraitCollection {
        guard os.major < OSVersion.newest.major,
              collection.entries.contains(where: { !isAvailable($0.definition, in: os) }) else { return collection }
        return TraitCollection(sortedEntries: collection.entries.filter { isAvailable($0.definition, in: os) })
    }
}
