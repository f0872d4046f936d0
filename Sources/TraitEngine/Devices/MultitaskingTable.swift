/// The size classes of Split View on iPad, as the layout guidelines' multitasking
/// table gave them (``source``): by iPad model, fraction and orientation. Apple
/// has since removed the table from the page; its models are the iPads of 2023.
/// Slide Over is always compact width, regular height (``slideOverSource``).
public enum MultitaskingTable {
    /// The layout guidelines as revised on June 21, 2023, which carried the
    /// table ("On iPad, size classes also apply when your app or game runs in a
    /// multitasking configuration").
    public static let source = "https://developer.apple.com/design/human-interface-guidelines/layout (revision of June 21, 2023: multitasking size classes)"

    /// Slide Over's size classes: compact width, regular height, in both
    /// orientations on every iPad (Adopting Multitasking Enhancements on iPad,
    /// Figure 2-1; WWDC15 session 205, "Getting Started with Multitasking on
    /// iPad in iOS 9": "Slide Over: compact").
    public static let slideOverSource = "https://developer.apple.com/library/archive/documentation/WindowsViews/Conceptual/AdoptingMultitaskingOniPad/QuickStartForSlideOverAndSplitView.html; https://developer.apple.com/videos/play/wwdc2015/205/"

    /// One model's row: size classes by fraction, nil where the table says "N/A".
    public struct Row: Sendable {
        /// The model as the table names it.
        public let model: String
        /// The model's screen in portrait, in points (layout guidelines' screen-size table).
        public let portraitSize: Size
        /// The catalogue's devices the row is about (none: the model is not in the catalogue).
        public let devices: [String]
        /// The size classes of the 2/3 pane, in portrait and in landscape.
        public let twoThirds: (portrait: SizeClasses?, landscape: SizeClasses?)
        /// The size classes of a 1/2 pane, in portrait (none: "N/A") and in landscape.
        public let half: (portrait: SizeClasses?, landscape: SizeClasses?)
        /// The size classes of the 1/3 pane, in portrait and in landscape.
        public let oneThird: (portrait: SizeClasses?, landscape: SizeClasses?)

        /// The table's size classes for a Split View fraction; nil for any other size or "N/A".
        public func sizeClasses(_ size: SceneSize, _ orientation: Orientation) -> SizeClasses? {
            let cell: (portrait: SizeClasses?, landscape: SizeClasses?)
            switch size {
            case .twoThirds: cell = twoThirds
            case .half: cell = half
            case .oneThird: cell = oneThird
            default: return nil
            }
            return orientation.isLandscape ? cell.landscape : cell.portrait
        }
    }

    private static let cR = SizeClasses.compactRegular, rR = SizeClasses.regularRegular

    /// The table, row by row.
    public static let rows: [Row] = [
        Row(model: "12.9” iPad Pro", portraitSize: Size(1024, 1366), devices: ["iPad Pro 12.9-inch (6th generation)"],
            twoThirds: (cR, rR), half: (nil, rR), oneThird: (cR, cR)),
        Row(model: "11” iPad Pro", portraitSize: Size(834, 1194), devices: ["iPad Pro 11-inch (4th generation)"],
            twoThirds: (cR, rR), half: (nil, cR), oneThird: (cR, cR)),
        Row(model: "10.5” iPad Pro", portraitSize: Size(834, 1112), devices: ["iPad Pro (10.5-inch)"],
            twoThirds: (cR, rR), half: (nil, cR), oneThird: (cR, cR)),
        Row(model: "9.7” iPad", portraitSize: Size(768, 1024), devices: ["iPad (6th generation)"],
            twoThirds: (cR, rR), half: (nil, cR), oneThird: (cR, cR)),
        Row(model: "7.9” iPad mini 4", portraitSize: Size(768, 1024), devices: [],
            twoThirds: (cR, rR), half: (nil, cR), oneThird: (cR, cR)),
    ]

    /// The row about the catalogue's device `name`, if the table has one.
    public static func row(forDevice name: String) -> Row? {
        rows.first { $0.devices.contains(name) }
    }
}
