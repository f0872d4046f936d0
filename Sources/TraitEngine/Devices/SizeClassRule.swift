/// The size classes of a size no table of Apple's lists: a Stage Manager window
/// (`{ width, height }`), a device the tables leave out, a Split View fraction
/// of such a device.
///
/// Apple documents no threshold, so this rule is TraitLab's, read off Apple's
/// tables: each bound is the smallest value at which a tabled row is regular,
/// and every row of the device and multitasking tables agrees with the rule
/// (a unit test checks each one).
/// - Regular width when the width is at least 678 pt (the 12.9-inch iPad Pro's
///   landscape 1/2 Split View, the narrowest regular-width row; the widest
///   compact-width iPad row is its portrait 2/3 at 639 pt) and the height is at
///   least 414 pt (the iPhone 8 Plus in landscape, the least tall of the iPhones
///   the device table makes regular-width in landscape; the iPhone 17 Pro, 402 pt
///   tall there, is compact).
/// - Regular height when the height is at least 568 pt (the iPhone SE (1st
///   generation) in portrait; the tallest compact-height row is an iPhone Pro
///   Max in landscape at 440 pt).
public enum SizeClassRule {
    /// The narrowest width, in points, that is regular.
    public static let regularWidthMinimum = 678.0
    /// The least height, in points, at which a wide enough size is regular width.
    public static let regularWidthMinimumHeight = 414.0
    /// The least height, in points, that is regular.
    public static let regularHeightMinimum = 568.0

    /// Where the rule comes from, for a reader.
    public static let source = "TraitLab's rule, read off the layout guidelines' size-class tables (docs/devices.md)"

    /// The size classes of a scene of `size` by this rule.
    public static func sizeClasses(_ size: Size) -> SizeClasses {
        let wide = size.width >= regularWidthMinimum && size.height >= regularWidthMinimumHeight
        return SizeClasses(wide ? .regular : .compact, size.height >= regularHeightMinimum ? .regular : .compact)
    }
}

/// The widths of Split View panes and Slide Over, in points.
///
/// Apple's tables give the size classes of each fraction, not its width. These
/// widths are TraitLab's, from one rule that reproduces the widths measured on
/// the 9.7-inch, 10.5-inch and 12.9-inch iPads under iOS 9 to 11 (collected at
/// https://gist.github.com/macguru/b7a01e3f0e9ae6f350d5 and
/// https://gist.github.com/sgl0v/3509f3ae628f4047cdb6): the panes are split by
/// a 10 pt divider; the narrow pane ("1/3", and Slide Over) is 375 pt on the
/// iPads whose long side is at least 1366 pt and 320 pt on the others; "1/2"
/// halves what the divider leaves; "2/3" is the rest beside the narrow pane.
/// A scene is as tall as the screen.
enum SplitView {
    static let divider = 10.0

    static func narrowPane(longSide: Double) -> Double { longSide >= 1366 ? 375 : 320 }

    /// The width of `size` ("2/3", "1/2", "1/3" or Slide Over) on a screen
    /// `screen` wide whose long side is `longSide`.
    static func width(of size: SceneSize, screen: Size, longSide: Double) -> Double {
        let narrow = narrowPane(longSide: longSide)
        switch size {
        case .twoThirds: return screen.width - divider - narrow
        case .half: return ((screen.width - divider) / 2).rounded(.down)
        default: return narrow
        }
    }
}
