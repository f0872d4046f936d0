/// `UIFont.TextStyle`: the text styles of Dynamic Type, with their sizes at
/// every content size category.
///
/// ```swift
/// TextStyle.body.metrics(at: .large)                       // 17 pt, leading 22, regular
/// TextStyle.body.metrics(at: .accessibilityExtraExtraExtraLarge).pointSize  // 53
/// ```
public enum TextStyle: String, CaseIterable, Sendable {
    /// `largeTitle` (Large Title).
    case largeTitle
    /// `title1` (Title 1).
    case title1
    /// `title2` (Title 2).
    case title2
    /// `title3` (Title 3).
    case title3
    /// `headline` (Headline), the one semibold style.
    case headline
    /// `body` (Body).
    case body
    /// `callout` (Callout).
    case callout
    /// `subheadline` (Subhead).
    case subheadline
    /// `footnote` (Footnote).
    case footnote
    /// `caption1` (Caption 1).
    case caption1
    /// `caption2` (Caption 2).
    case caption2
    /// `extraLargeTitle` (iOS 17.0+ on Apple's page for `UIFont.TextStyle`).
    case extraLargeTitle
    /// `extraLargeTitle2` (iOS 17.0+ on Apple's page for `UIFont.TextStyle`).
    case extraLargeTitle2

    /// The iOS version that introduced the style: 7 for the first ones, 9
    /// for `title1`–`title3` and `callout`, 11 for `largeTitle`, 17 for the
    /// extra large titles (each constant's availability on
    /// https://developer.apple.com/documentation/uikit/uifont/textstyle).
    public var introduced: Int {
        switch self {
        case .headline, .body, .subheadline, .footnote, .caption1, .caption2: return 7
        case .title1, .title2, .title3, .callout: return 9
        case .largeTitle: return 11
        case .extraLargeTitle, .extraLargeTitle2: return 17
        }
    }

    /// The style's size, weight and leading at `category` (the HIG's table;
    /// `unspecified` reads as `large`, the default). The extra large titles
    /// are not in the HIG's iOS tables (only in its visionOS one): see
    /// the engine's `DynamicTypeTable.extraLargeTitles` for where their values come from.
    public func metrics(at category: ContentSizeCategory) -> TextStyleMetrics? {
        let i = category == .unspecified ? 3 : ContentSizeCategory.sizes.firstIndex(of: category)! // invariant: a size
        if let row = DynamicTypeTable.rows.first(where: { $0.style == self }) {
            return TextStyleMetrics(pointSize: row.sizes[i].0, leading: row.sizes[i].1, weight: row.weight)
        }
        guard let extra = DynamicTypeTable.extraLargeTitles.first(where: { $0.style == self }),
              let reference = DynamicTypeTable.rows.first(where: { $0.style == extra.scalesLike }) else { return nil }
        // The measured default size, scaled at other categories as the reference
        // style's size is (UIFontMetrics' rule), rounded to whole points as the
        // HIG's table is; the leading keeps the reference's ratio to its size.
        let size = (extra.defaultSize * reference.sizes[i].0 / reference.sizes[3].0).rounded()
        let leading = (size * reference.sizes[i].1 / reference.sizes[i].0).rounded()
        return TextStyleMetrics(pointSize: size, leading: leading, weight: extra.weight)
    }
}

/// One text style at one content size category: what the HIG's table gives.
public struct TextStyleMetrics: Hashable, Sendable {
    /// The point size.
    public let pointSize: Double
    /// The leading (line height) in points, the table's "Leading" column.
    public let leading: Double
    /// `"regular"`, `"semibold"` (headline) or `"bold"` (the extra large
    /// titles): `UIFont.Weight`'s names.
    public let weight: String
}

/// The Dynamic Type sizes of iOS and iPadOS: one row per text style, its
/// weight, then size/leading in points at each category in UIKit's order
/// (xSmall, Small, Medium, Large (default), xLarge, xxLarge, xxxLarge, AX1,
/// AX2, AX3, AX4, AX5).
///
/// Source: Human Interface Guidelines, Typography, "Specifications" →
/// "iOS, iPadOS Dynamic Type sizes" and "iOS, iPadOS larger accessibility
/// type sizes" (https://developer.apple.com/design/human-interface-guidelines/typography#iOS-iPadOS-Dynamic-Type-sizes).
enum DynamicTypeTable {
    struct Row {
        let style: TextStyle
        let weight: String
        let sizes: [(Double, Double)]
    }

    static let source = "https://developer.apple.com/design/human-interface-guidelines/typography#Specifications"

    static let rows: [Row] = [
        //                 xSmall    Small     Medium    Large     xLarge    xxLarge   xxxLarge  AX1       AX2       AX3       AX4       AX5
        Row(style: .largeTitle, weight: "regular",
            sizes: [(31, 38), (32, 39), (33, 40), (34, 41), (36, 43), (38, 46), (40, 48), (44, 52), (48, 57), (52, 61), (56, 66), (60, 70)]),
        Row(style: .title1, weight: "regular",
            sizes: [(25, 31), (26, 32), (27, 33), (28, 34), (30, 37), (32, 39), (34, 41), (38, 46), (43, 51), (48, 57), (53, 62), (58, 69)]),
        Row(style: .title2, weight: "regular",
            sizes: [(19, 24), (20, 25), (21, 26), (22, 28), (24, 30), (26, 32), (28, 34), (34, 41), (39, 47), (44, 52), (50, 59), (56, 66)]),
        Row(style: .title3, weight: "regular",
            sizes: [(17, 22), (18, 23), (19, 24), (20, 25), (22, 28), (24, 30), (26, 32), (31, 38), (37, 44), (43, 51), (49, 58), (55, 65)]),
        Row(style: .headline, weight: "semibold",
            sizes: [(14, 19), (15, 20), (16, 21), (17, 22), (19, 24), (21, 26), (23, 29), (28, 34), (33, 40), (40, 48), (47, 56), (53, 62)]),
        Row(style: .body, weight: "regular",
            sizes: [(14, 19), (15, 20), (16, 21), (17, 22), (19, 24), (21, 26), (23, 29), (28, 34), (33, 40), (40, 48), (47, 56), (53, 62)]),
        Row(style: .callout, weight: "regular",
            sizes: [(13, 18), (14, 19), (15, 20), (16, 21), (18, 23), (20, 25), (22, 28), (26, 32), (32, 39), (38, 46), (44, 52), (51, 60)]),
        Row(style: .subheadline, weight: "regular",
            sizes: [(12, 16), (13, 18), (14, 19), (15, 20), (17, 22), (19, 24), (21, 28), (25, 31), (30, 37), (36, 43), (42, 50), (49, 58)]),
        Row(style: .footnote, weight: "regular",
            sizes: [(12, 16), (12, 16), (12, 16), (13, 18), (15, 20), (17, 22), (19, 24), (23, 29), (27, 33), (33, 40), (38, 46), (44, 52)]),
        Row(style: .caption1, weight: "regular",
            sizes: [(11, 13), (11, 13), (11, 13), (12, 16), (14, 19), (16, 21), (18, 23), (22, 28), (26, 32), (32, 39), (37, 44), (43, 51)]),
        Row(style: .caption2, weight: "regular",
            sizes: [(11, 13), (11, 13), (11, 13), (11, 13), (13, 18), (15, 20), (17, 22), (20, 25), (24, 30), (29, 35), (34, 41), (40, 48)]),
    ]

    /// The extra large titles (iOS 17). Apple's HIG lists them only in its
    /// visionOS table, and the `UIFont.TextStyle` page gives no sizes. Their
    /// size at the default category (Large) is what
    /// `UIFont.preferredFont(forTextStyle:)` returns on iOS 17, as measured and
    /// published at https://www.iosfontsizes.com and in the gist of the code that
    /// measured it, https://gist.github.com/zacwest/916d31da5d03405809c4 ("extraLargeTitle iOS 17:
    /// 36.0, SFUI-Bold"; "extraLargeTitle2 iOS 17: 28.0, SFUI-Bold").
    /// At the other categories nobody publishes a measurement: TraitLab
    /// scales the default size as a style of the same default size scales
    /// (largeTitle's curve for extraLargeTitle, title1's for extraLargeTitle2:
    /// what `UIFontMetrics` does for a custom size). docs/guide.md says so.
    struct ExtraLargeTitle {
        let style: TextStyle
        let defaultSize: Double
        let weight: String
        let scalesLike: TextStyle
    }

    static let extraLargeTitles: [ExtraLargeTitle] = [
        ExtraLargeTitle(style: .extraLargeTitle, defaultSize: 36, weight: "bold", scalesLike: .largeTitle),
        ExtraLargeTitle(style: .extraLargeTitle2, defaultSize: 28, weight: "bold", scalesLike: .title1),
    ]
}
