/// UIKit's dynamic system colours, one row per colour, each with its source.
///
/// A row gives the colour's value in light and dark appearance, with
/// increased contrast, and (for the background colours) at the elevated
/// interface level, as `UIColor.resolvedColor(with:)` returns them. Sources:
///
/// - `hig`: the Human Interface Guidelines, "Color" page, "Specifications":
///   the iOS and iPadOS system colours table (Default light, Default dark,
///   Increased contrast light, Increased contrast dark), as published before
///   June 2025, for iOS 13 to 18.
/// - `hig26`: the same table after Apple's June 2025 update of the page, for
///   iOS 26 (Apple changed the values of the tinted colours).
/// - `uikit`: colours the HIG lists by name without a table of values
///   (labels, fills, separators, backgrounds, link): the value UIKit's
///   `resolvedColor(with:)` returns on the iOS 17 simulator for a collection
///   with that style, contrast and level. The elevated and increased-contrast
///   backgrounds are the HIG's grey values (`systemGray6` dark is
///   `secondarySystemBackground` dark, and so on), which the table shows.
///   The HIG's "Accessibility" page ("Color and effects": Increase Contrast
///   "increases the contrast between app foreground and background colors")
///   and `UIAccessibilityContrast` (`.high`) say these colours change with
///   increased contrast; Apple publishes no values for them.
/// - `uikitHigh`: the increased-contrast cells of those rows. They are the
///   values recalled from `resolvedColor(with:)` on the iOS 17 simulator
///   with `accessibilityContrast = .high` (a recollection, not re-measured in
///   this repository: no simulator runs here). Each is the normal colour
///   with a higher alpha, or a darker (light) / lighter (dark) opaque grey;
///   `link` takes `systemBlue`'s increased-contrast values from the HIG's
///   table. Check them against a simulator before relying on an exact alpha.
enum SystemColorTable {
    static let hig = "HIG, Color, Specifications: iOS/iPadOS system colors (before June 2025)"
    static let hig26 = "HIG, Color, Specifications: iOS/iPadOS system colors (June 2025 update, iOS 26)"
    static let higGray = "HIG, Color, Specifications: iOS/iPadOS system gray colors"
    static let uikit = "UIKit: resolvedColor(with:) on the iOS 17 simulator (the HIG names this colour, no values)"
    static let uikitHigh = "UIKit: resolvedColor(with:) on the iOS 17 simulator (normal cells); increased-contrast cells recalled from the same, not re-measured (see uikitHigh above)"
    static let uikitGray = "UIKit: resolvedColor(with:) on the iOS 17 simulator; the values are the HIG's system grays"

    /// One colour: (name, light, dark, light high contrast, dark high
    /// contrast, dark elevated, dark elevated high contrast, source). Hex
    /// sRGB; empty for "none recorded".
    typealias Row = (name: String, light: String, dark: String, lightHigh: String, darkHigh: String,
                     darkElevated: String, darkElevatedHigh: String, source: String)

    /// The colours of iOS 13 to 18.
    static let rows: [Row] = [
        // The adaptable tints (HIG table).
        ("systemRed", "#FF3B30", "#FF453A", "#D70015", "#FF6961", "", "", hig),
        ("systemOrange", "#FF9500", "#FF9F0A", "#C93400", "#FFB340", "", "", hig),
        ("systemYellow", "#FFCC00", "#FFD60A", "#B25000", "#FFD426", "", "", hig),
        ("systemGreen", "#34C759", "#30D158", "#248A3D", "#30DB5B", "", "", hig),
        ("systemMint", "#00C7BE", "#63E6E2", "#0C817B", "#66D4CF", "", "", hig),
        ("systemTeal", "#30B0C7", "#40C8E0", "#008299", "#5DE6FF", "", "", hig),
        ("systemCyan", "#32ADE6", "#64D2FF", "#0071A4", "#70D7FF", "", "", hig),
        ("systemBlue", "#007AFF", "#0A84FF", "#0040DD", "#409CFF", "", "", hig),
        ("systemIndigo", "#5856D6", "#5E5CE6", "#3634A3", "#7D7AFF", "", "", hig),
        ("systemPurple", "#AF52DE", "#BF5AF2", "#8944AB", "#DA8FFF", "", "", hig),
        ("systemPink", "#FF2D55", "#FF375F", "#D30F45", "#FF6482", "", "", hig),
        ("systemBrown", "#A2845E", "#AC8E68", "#7F6545", "#B59469", "", "", hig),
        // The greys (HIG table).
        ("systemGray", "#8E8E93", "#8E8E93", "#6C6C70", "#AEAEB2", "", "", higGray),
        ("systemGray2", "#AEAEB2", "#636366", "#8E8E93", "#7C7C80", "", "", higGray),
        ("systemGray3", "#C7C7CC", "#48484A", "#AEAEB2", "#545456", "", "", higGray),
        ("systemGray4", "#D1D1D6", "#3A3A3C", "#BCBCC0", "#444446", "", "", higGray),
        ("systemGray5", "#E5E5EA", "#2C2C2E", "#D8D8DC", "#363638", "", "", higGray),
        ("systemGray6", "#F2F2F7", "#1C1C1E", "#EBEBF0", "#242426", "", "", higGray),
        // Text (no values in the HIG; increased contrast recalled, see uikitHigh).
        ("label", "#000000", "#FFFFFF", "#000000", "#FFFFFF", "", "", uikitHigh),
        ("secondaryLabel", "#3C3C4399", "#EBEBF599", "#3C3C43AD", "#EBEBF5AD", "", "", uikitHigh),
        ("tertiaryLabel", "#3C3C434D", "#EBEBF54D", "#3C3C4366", "#EBEBF566", "", "", uikitHigh),
        ("quaternaryLabel", "#3C3C432E", "#EBEBF529", "#3C3C4342", "#EBEBF53D", "", "", uikitHigh),
        ("placeholderText", "#3C3C434D", "#EBEBF54D", "#3C3C4366", "#EBEBF566", "", "", uikitHigh),
        // Fills.
        ("systemFill", "#78788033", "#7878805C", "#78788047", "#78788070", "", "", uikitHigh),
        ("secondarySystemFill", "#78788029", "#78788052", "#7878803D", "#78788066", "", "", uikitHigh),
        ("tertiarySystemFill", "#7676801F", "#7676803D", "#76768033", "#76768052", "", "", uikitHigh),
        ("quaternarySystemFill", "#74748014", "#7676802E", "#74748029", "#76768047", "", "", uikitHigh),
        // Separators and link.
        ("separator", "#3C3C434A", "#54545899", "#3C3C435E", "#545458B3", "", "", uikitHigh),
        ("opaqueSeparator", "#C6C6C8", "#38383A", "#A0A0A5", "#48484A", "", "", uikitHigh),
        ("link", "#007AFF", "#0984FF", "#0040DD", "#409CFF", "", "", uikitHigh),
        // Backgrounds: elevated in dark appearance (presented and popover content).
        ("systemBackground", "#FFFFFF", "#000000", "#FFFFFF", "#000000", "#1C1C1E", "#242426", uikitGray),
        ("secondarySystemBackground", "#F2F2F7", "#1C1C1E", "#EBEBF0", "#242426", "#2C2C2E", "#363638", uikitGray),
        ("tertiarySystemBackground", "#FFFFFF", "#2C2C2E", "#FFFFFF", "#363638", "#3A3A3C", "#444446", uikitGray),
        ("systemGroupedBackground", "#F2F2F7", "#000000", "#EBEBF0", "#000000", "#1C1C1E", "#242426", uikitGray),
        ("secondarySystemGroupedBackground", "#FFFFFF", "#1C1C1E", "#FFFFFF", "#242426", "#2C2C2E", "#363638", uikitGray),
        ("tertiarySystemGroupedBackground", "#F2F2F7", "#2C2C2E", "#EBEBF0", "#363638", "#3A3A3C", "#444446", uikitGray),
    ]

    /// The tints whose values iOS 26 changed (the HIG's table after June
    /// 2025); every other row is as before.
    static let rows26: [Row] = [
        ("systemRed", "#FF383C", "#FF4245", "#E9152D", "#FF6165", "", "", hig26),
        ("systemOrange", "#FF8D28", "#FF9230", "#C55300", "#FFA056", "", "", hig26),
        ("systemYellow", "#FFCC00", "#FFD600", "#A16A00", "#FEDF43", "", "", hig26),
        ("systemGreen", "#34C759", "#30D158", "#008932", "#4AD968", "", "", hig26),
        ("systemMint", "#00C8B3", "#00DAC3", "#008575", "#54DFCB", "", "", hig26),
        ("systemTeal", "#00C3D0", "#00D2E0", "#008198", "#3BDDEC", "", "", hig26),
        ("systemCyan", "#00C0E8", "#3CD3FE", "#0075A4", "#6DD9FF", "", "", hig26),
        ("systemBlue", "#0088FF", "#0091FF", "#1E6EF4", "#5CB8FF", "", "", hig26),
        ("systemIndigo", "#6155F5", "#6D7CFF", "#564ADE", "#A7AAFF", "", "", hig26),
        ("systemPurple", "#CB30E0", "#DB34F2", "#B02FC2", "#EA8DFF", "", "", hig26),
        ("systemPink", "#FF2D55", "#FF375F", "#E71266", "#FF8AC4", "", "", hig26),
        ("systemBrown", "#AC7F5E", "#B78A66", "#956D51", "#DBA679", "", "", hig26),
    ]
}

/// UIKit's dynamic system colours (`UIColor.systemBackground`, `.label`,
/// `.systemBlue`, ...), each resolving from the traits UIKit resolves it from.
///
/// ```swift
/// let bg = SystemColors.color(named: "systemBackground", os: .iOS26)!
/// let dark = TraitCollection { $0[SystemTraits.userInterfaceStyle] = .string("dark") }
/// bg.resolvedColor(with: dark).hexString   // "#000000"
/// ```
public enum SystemColors {
    /// The names of the system colours, in the table's order (tints, greys,
    /// text, fills, separators, link, backgrounds).
    public static let names: [String] = SystemColorTable.rows.map(\.name)

    /// The system colour `name` as the world's iOS version draws it
    /// (`UIColor.systemBlue` and the rest), or nil when UIKit has none of
    /// that name. iOS 26 changed the tinted colours (the HIG's colour page,
    /// June 2025); earlier versions resolve the values before.
    public static func color(named name: String, os: OSVersion = .newest) -> NamedColor? {
        let table = os.major >= 26 ? palette26 : palette
        return table[name]
    }

    /// Where the row of `name` comes from (for documentation and `:why`).
    public static func source(of name: String, os: OSVersion = .newest) -> String? {
        color(named: name, os: os)?.source
    }

    /// The colour of a row, or nil when one of its cells is not hex (a typo
    /// in the table: the row is left out of the palette, which the tests
    /// compare with the table, row for row).
    static func make(_ row: SystemColorTable.Row) -> NamedColor? {
        func c(_ hex: String) -> Color?? { hex.isEmpty ? .some(nil) : Color(parsingHex: hex).map { .some($0) } }
        guard let light = c(row.light) ?? nil, let dark = c(row.dark) ?? nil,
              let lightHigh = c(row.lightHigh), let darkHigh = c(row.darkHigh),
              let darkElevated = c(row.darkElevated), let darkElevatedHigh = c(row.darkElevatedHigh) else { return nil }
        let cells = SystemColorCells(light: light, dark: dark, lightHigh: lightHigh, darkHigh: darkHigh,
                                     darkElevated: darkElevated, darkElevatedHigh: darkElevatedHigh)
        var read = [SystemTraits.userInterfaceStyle]
        if cells.lightHigh != nil { read.append(SystemTraits.accessibilityContrast) }
        if cells.darkElevated != nil { read.append(SystemTraits.userInterfaceLevel) }
        return NamedColor(name: row.name, kind: .system, traitsRead: read, source: row.source) { tc in cells.resolve(tc) }
    }

    nonisolated(unsafe) private static let palette: [String: NamedColor] = {
        var d: [String: NamedColor] = [:]
        for row in SystemColorTable.rows { d[row.name] = make(row) }
        return d
    }()

    nonisolated(unsafe) private static let palette26: [String: NamedColor] = {
        var d = palette
        for row in SystemColorTable.rows26 { d[row.name] = make(row) }
        return d
    }()
}

/// One system colour's values by appearance.
private struct SystemColorCells {
    let light, dark: Color
    let lightHigh, darkHigh, darkElevated, darkElevatedHigh: Color?

    /// UIKit's choice: dark only for `dark` (an unspecified style resolves
    /// as light), increased contrast only for `high`, elevated only for
    /// `elevated` (unspecified is the base level). Returns the value and the
    /// traits that chose it.
    func resolve(_ tc: TraitCollection) -> ColorResolution {
        let dark = tc.rawValue(SystemTraits.userInterfaceStyle) == .string("dark")
        let high = lightHigh != nil && tc.rawValue(SystemTraits.accessibilityContrast) == .string("high")
        let elevated = darkElevated != nil && dark && tc.rawValue(SystemTraits.userInterfaceLevel) == .string("elevated")
        let color: Color
        switch (dark, high, elevated) {
        case (false, false, _): color = light
        case (false, true, _): color = lightHigh ?? light
        case (true, false, false): color = self.dark
        case (true, true, false): color = darkHigh ?? self.dark
        case (true, false, true): color = darkElevated ?? self.dark
        case (true, true, true): color = darkElevatedHigh ?? darkElevated ?? self.dark
        }
        var chosen = [TraitCollection.Entry(definition: SystemTraits.userInterfaceStyle, value: .string(dark ? "dark" : "light"))]
        if high { chosen.append(.init(definition: SystemTraits.accessibilityContrast, value: .string("high"))) }
        if elevated { chosen.append(.init(definition: SystemTraits.userInterfaceLevel, value: .string("elevated"))) }
        return ColorResolution(color: color, chosenBy: chosen)
    }
}
