#if canImport(Glibc)
import Glibc
#endif
import TraitEngine

// `ui.dump`: the trait tree below an environment as text ("tree", "full"),
// JSON or Graphviz DOT. Every format walks the tree with an explicit stack
// and writes each line with at most a bounded indentation, so a dump is
// linear in the number of environments however deep the tree is (a chain
// 50,000 views deep dumps in well under a second). A dump grows piece by
// piece in a ``DumpText``, which asks the memory cap for each piece before
// adding it: a dump too big for the cap stops early.

/// The text of a dump or picture in the making. Its storage grows by
/// doubling, under the text's control: each new, bigger storage is asked for
/// (``MemoryBudget``) before it is made, while the old one is still held.
struct DumpText {
    private(set) var text = ""
    private var capacity = 0
    let budget: MemoryBudget?

    init(_ budget: MemoryBudget?) { self.budget = budget }

    mutating func append(_ piece: String) throws {
        let need = text.utf8.count + piece.utf8.count
        if need > capacity {
            let grown = max(2 * need, 4096)
            try budget?.charge(grown)
            text.reserveCapacity(grown)
            capacity = grown
        }
        text += piece
    }

    static func += (d: inout DumpText, piece: String) throws { try d.append(piece) }
}

/// One step of a preorder walk of the trait tree: entering an environment, or
/// leaving it once its whole subtree was visited.
enum TreeStep {
    case enter(TraitEnvironment, parent: TraitEnvironment?, depth: Int, isLast: Bool, children: [TraitEnvironment])
    case leave(TraitEnvironment, depth: Int)
}

/// Walks the trait tree below `root` (``TraitEnvironment/traitChildren``, so
/// the current hierarchy mode) without recursion. An environment met twice
/// (the engine refuses loops; this is a second line of defence) is skipped.
func walkTraitTree(_ root: TraitEnvironment, _ body: (TreeStep) throws -> Void) rethrows {
    enum Item { case enter(TraitEnvironment, TraitEnvironment?, Int, Bool), leave(TraitEnvironment, Int) }
    var seen = Set<ObjectIdentifier>()
    var stack: [Item] = [.enter(root, nil, 0, true)]
    while let item = stack.popLast() {
        switch item {
        case .leave(let e, let depth):
            try body(.leave(e, depth: depth))
        case .enter(let e, let parent, let depth, let isLast):
            guard seen.insert(ObjectIdentifier(e)).inserted else { continue }
            let kids = e.traitChildren
            try body(.enter(e, parent: parent, depth: depth, isLast: isLast, children: kids))
            stack.append(.leave(e, depth))
            for (i, k) in kids.enumerated().reversed() { stack.append(.enter(k, e, depth + 1, i == kids.count - 1)) }
        }
    }
}

/// The width dumps fit their lines into: `COLUMNS` when set, else the
/// terminal's width when standard output is one, else 100.
func defaultDumpWidth() -> Int {
    if let p = getenv("COLUMNS"), let n = Int(String(cString: p)), n > 0 { return clampedDumpWidth(n) }
    var size = winsize()
    if isatty(1) != 0, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return clampedDumpWidth(Int(size.ws_col)) }
    return 100
}

/// Widths below 40 columns leave no room for a tree; above 10,000 a line is
/// no longer a line.
func clampedDumpWidth(_ n: Int) -> Int { min(max(n, 40), 10_000) }

/// A value as dumps show it in at most `width` characters (as
/// ``clipped(_:to:)`` cuts it): control characters escaped, so one value
/// never breaks a line. Only as much of a big value is described as the
/// width shows.
func shownValue(_ v: TraitValue, within width: Int) -> String {
    // (Enough bytes for `width` characters but of long grapheme clusters.)
    let (text, isCut) = describe(v, maxBytes: 16 * (width + 1))
    let shown = clipped(printable(text), to: width)
    return isCut && !shown.hasSuffix("…") ? shown + "…" : shown
}

/// `s` with control characters escaped (`\n`, `\x1b`): names and values
/// are the script's, and must not break a dump's lines or a Graphviz file.
func printable(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else { return s }
    var out = ""
    for ch in s.unicodeScalars {
        switch ch {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where ch.value < 0x20 || ch.value == 0x7f: out += "\\x" + String(ch.value, radix: 16)
        default: out.unicodeScalars.append(ch)
        }
    }
    return out
}

/// The text tree of `ui.dump(node)` (concise) and `ui.dump(node, "full")`.
///
/// Concise: each environment with its overrides; the root with its
/// non-default traits; any other environment with the traits that differ
/// from its parent's for another reason than its own overrides (an update
/// is pending). Full: every environment with all its non-default traits.
/// A value that changed in the world's last update shows what it was:
/// `myAppTheme = "pastel" (was "standard")`.
struct TextTreeDump {
    var full = false
    var width = 100

    /// Levels of indentation drawn before the rest is elided as `…(N)`.
    var maximumIndentLevels: Int { max(2, (width - 40) / 3) }

    /// The dump, its text asked for from `budget` as it grows.
    func render(_ root: TraitEnvironment, budget: MemoryBudget? = nil) throws -> String {
        var out = DumpText(budget)
        // lastFlags[k]: whether the environment at depth k on the current path is its parent's last child.
        var lastFlags: [Bool] = []
        try walkTraitTree(root) { step in
            guard case .enter(let e, let parent, let depth, let isLast, let children) = step else { return }
            lastFlags.removeSubrange(min(depth, lastFlags.count)...)
            lastFlags.append(isLast)
            let linePrefix = depth == 0 ? "" : indentation(lastFlags, through: depth - 1) + (isLast ? "└─ " : "├─ ")
            let blockPrefix = indentation(lastFlags, through: depth) + (children.isEmpty ? "   " : "│  ")
            try render(e, parent: parent, linePrefix: linePrefix, blockPrefix: blockPrefix, into: &out)
        }
        return out.text
    }

    /// The tree lines for depths 1...`depth` of the current path; past
    /// ``maximumIndentLevels`` the outer levels become `…(N) `.
    private func indentation(_ lastFlags: [Bool], through depth: Int) -> String {
        guard depth >= 1 else { return "" }
        var s = ""
        var first = 1
        if depth > maximumIndentLevels {
            first = depth - maximumIndentLevels + 1
            s = "…(\(first - 1)) "
        }
        for k in first...depth { s += lastFlags[k] ? "   " : "│  " }
        return s
    }

    /// One environment: its line (with its overrides when they fit), then its
    /// overrides and traits wrapped below it.
    private func render(_ e: TraitEnvironment, parent: TraitEnvironment?,
                        linePrefix: String, blockPrefix: String, into out: inout DumpText) throws {
        let tc = e.traitCollection
        let before = e.traitCollectionBeforeLastUpdate
        // (Each item is clipped to the width where it is placed: values are
        // described only that far.)
        func item(_ d: TraitDefinition, _ value: TraitValue) -> String {
            var s = "\(clipped(d.property, to: width)) = \(shownValue(value, within: width))"
            if let before, before.rawValue(d) != tc.rawValue(d), value == tc.rawValue(d) {
                s += " (was \(shownValue(before.rawValue(d), within: width)))"
            }
            return s
        }
        let overrides = e.traitOverrideEntries.map { item($0.definition, $0.value) }
        let traits: [String]
        if let parent, !full {
            traits = tc.changedTraits(from: parent.traitCollection)
                .filter { d in e.traitOverride(d) != tc.rawValue(d) }
                .map { item($0, tc.rawValue($0)) }
        } else {
            traits = tc.entries.map { item($0.definition, $0.value) }
        }
        let room = max(12, width - blockPrefix.count)
        let pending = e.needsTraitUpdate ? "  (update pending)" : ""
        let title = printable(e.description) + (geometrySummary(e).map { "  (\($0))" } ?? "")
        let head = linePrefix + clipped(title, to: max(8, width - linePrefix.count - pending.count)) + pending
        let oneLine = overrides.isEmpty ? "" : "  overrides { " + overrides.joined(separator: ", ") + " }"
        if head.count + oneLine.count <= width {
            try out += head + oneLine + "\n"
        } else {
            try out += head + "\n"
            for line in wrapped(overrides, width: room, first: "overrides { ", end: " }") { try out += blockPrefix + line + "\n" }
        }
        if !traits.isEmpty || full || parent == nil {
            for line in wrapped(traits, width: room, first: "traits { ", end: " }") { try out += blockPrefix + line + "\n" }
        }
        // A label's font and text colour as it shows them (TypeLibrary.swift).
        for line in labelLines(e) { try out += blockPrefix + clipped(line, to: room) + "\n" }
        // What the view shows, resolved for its traits (ResourcesLibrary.swift).
        for line in resolvedResourceLines(e) { try out += blockPrefix + clipped(line, to: room) + "\n" }
    }
}

/// Where a screen or a window scene sits in the world, for the line that
/// names it in dumps and pictures: a device screen's device, orientation,
/// size and OS (`iPad Pro 13-inch (M5), portrait, 1032x1376 pt, iOS 26.0`),
/// a scene's size when it is not the full screen (`1/3: 375x1376 pt, compact
/// width, regular height`), a presentation's style (`popover, shown as
/// pageSheet` where it adapts). Nil for the other environments.
func geometrySummary(_ e: TraitEnvironment) -> String? {
    if let screen = e as? Screen, let device = screen.device, let size = screen.size {
        return "\(device.name), \(screen.orientation.rawValue), \(size), iOS \(e.world.os)"
    }
    if let pc = e as? PresentationController {
        let shown = pc.adaptivePresentationStyle
        return shown == pc.presentationStyle ? pc.presentationStyle.rawValue
            : "\(pc.presentationStyle.rawValue), shown as \(shown.rawValue)"
    }
    if let scene = e as? WindowScene, scene.size != .full, let g = scene.geometry {
        let name: String
        if case .custom = scene.size { name = "" } else { name = "\(scene.size): " }
        return "\(name)\(g.size), \(g.sizeClasses)"
    }
    return nil
}

/// `s`, cut to `width` characters with a final "…" when longer.
func clipped(_ s: String, to width: Int) -> String {
    s.count <= width ? s : String(s.prefix(max(1, width - 1))) + "…"
}

/// Joins items with ", " into lines of at most `width` characters: `first`
/// opens the first line, later lines are indented to match, `end` closes.
/// An item too long for a line of its own is clipped.
func wrapped(_ items: [String], width: Int, first: String, end: String) -> [String] {
    guard !items.isEmpty else { return [first + "}"] }
    let rest = String(repeating: " ", count: first.count)
    let itemRoom = max(8, width - first.count - end.count)
    var lines: [String] = []
    var line = first
    for (i, item) in items.enumerated() {
        let piece = clipped(item, to: itemRoom) + (i == items.count - 1 ? end : ",")
        var fresh = line == first || line == rest
        if !fresh && line.count + 1 + piece.count > width {
            lines.append(line)
            line = rest
            fresh = true
        }
        line += (fresh ? "" : " ") + piece
    }
    lines.append(line)
    return lines
}

/// `ui.dump(node, "json")`: one object per environment with `class`, `name`
/// (when it has one), `overrides`, `traits` (non-default), `changed` (the
/// values before the last update of the traits it changed), `shows` (what a
/// view shows, as the text dump writes it: a label's font and text colour,
/// resolved colours and image) and `children`.
/// Its text is asked for from `budget` value by value.
func jsonTreeDump(_ root: TraitEnvironment, budget: MemoryBudget? = nil) throws -> String {
    func key(_ s: String) -> String { JSONValue.string(s).serialized }
    var out = DumpText(budget)
    func object(_ entries: [(TraitDefinition, TraitValue)]) throws {
        try out += "{"
        for (n, (d, v)) in entries.enumerated() {
            try out += (n > 0 ? "," : "") + key(d.property) + ":"
            try out.budget?.charge(4 * v.textSizeEstimate)   // (its JSON values, made before its text)
            try out += v.jsonValue.serialized
        }
        try out += "}"
    }
    // hasSibling[d]: an object was already written at depth d in the current array.
    var hasSibling: [Bool] = [false]
    try walkTraitTree(root) { step in
        switch step {
        case .enter(let e, _, let depth, _, _):
            if hasSibling[depth] { try out += "," }
            hasSibling[depth] = true
            hasSibling.removeSubrange((depth + 1)...)
            hasSibling.append(false)
            try out += "{\"class\":" + key(e.className)
            if let n = e.name { try out += ",\"name\":" + key(n) }
            try out += ",\"overrides\":"
            try object(e.traitOverrideEntries.map { ($0.definition, $0.value) })
            try out += ",\"traits\":"
            try object(e.traitCollection.entries.map { ($0.definition, $0.value) })
            let before = e.traitCollectionBeforeLastUpdate
            try out += ",\"changed\":"
            try object(e.traitsChangedInLastUpdate.map { ($0, before?.rawValue($0) ?? $0.defaultValue) })
            if let screen = e as? Screen, let device = screen.device, let size = screen.size {
                try out += ",\"device\":" + key(device.name) + ",\"orientation\":" + key(screen.orientation.rawValue)
                try out += ",\"size\":{\"width\":\(size.width),\"height\":\(size.height)},\"ios\":" + key(e.world.os.description)
            }
            let shown = labelLines(e) + resolvedResourceLines(e)
            if !shown.isEmpty {
                try out += ",\"shows\":[" + shown.map { key($0) }.joined(separator: ",") + "]"
            }
            if let scene = e as? WindowScene, let g = scene.geometry {
                try out += ",\"size\":{\"width\":\(g.size.width),\"height\":\(g.size.height)},\"sceneSize\":" + key(scene.size.description)
            }
            try out += ",\"children\":["
        case .leave:
            try out += "]}"
        }
    }
    return out.text
}

extension LuaHost {
    /// The environments named `name` in the connected window scenes and the
    /// screens they are on, in tree order (screens first).
    public func environments(named name: String) -> [TraitEnvironment] {
        var found: [TraitEnvironment] = []
        var screens = Set<ObjectIdentifier>()
        for scene in world.connectedScenes where screens.insert(ObjectIdentifier(scene.screen)).inserted {
            if scene.screen.name == name { found.append(scene.screen) }
        }
        if world.mainScreen.name == name, screens.insert(ObjectIdentifier(world.mainScreen)).inserted {
            found.append(world.mainScreen)
        }
        for scene in world.connectedScenes {
            walkTraitTree(scene) { step in
                if case .enter(let e, _, _, _, _) = step, e.name == name { found.append(e) }
            }
        }
        return found
    }

    /// `View "card" in ViewController "root"`: an environment and its trait
    /// parent, to tell two of the same name apart.
    func describePlace(of e: TraitEnvironment) -> String {
        e.traitParent.map { "\(e) in \($0)" } ?? "\(e)"
    }
}
