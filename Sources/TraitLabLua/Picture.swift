#if canImport(Glibc)
import Glibc
#endif
import TraitEngine

// `ui.picture` and `ui.dump(node, "dot")`: the trait tree as a Graphviz graph,
// rendered to SVG or PNG by Graphviz's `dot`.

/// The Graphviz graph of a trait tree. Arrows follow inheritance in the
/// world's current hierarchy mode; each window and each view controller is a
/// box (a cluster) around its subtree; dashed grey arrows show containment
/// that passes no traits in this mode (a child controller's parent, or the
/// superview of a controller's view). Overrides are on a yellow background,
/// values that changed in the last update are red (with the value before),
/// and environments whose collection changed have a red border. With a
/// `trait`, every environment shows its value of that trait, arrows take the
/// colour of the value they carry, and the environments where a value enters
/// (an override, or the root) have a double border: the path each value took.
/// The root (a screen or a window scene) shows its overrides and a one-line
/// summary of its device traits; `full` lists every trait instead.
struct TreePicture {
    var trait: TraitDefinition?
    /// The root's every non-default trait, not its one-line summary.
    var full = false
    /// With `trait`: the environment whose value's path is drawn in red, from
    /// where the value enters (`:why` as a picture).
    var why: TraitEnvironment?
    /// Refuse trees with more environments (pictures: `dot` takes minutes on
    /// tens of thousands of nodes, and nobody can read the result).
    var maximumNodes: Int?

    static let palette = ["#1f77b4", "#2ca02c", "#9467bd", "#d62728", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]

    /// The graph's text, asked for from `budget` as it grows.
    func dot(_ root: TraitEnvironment, budget: MemoryBudget? = nil) throws -> String {
        let mode = root.world.hierarchyMode.rawValue
        let path = whyPath()
        var out = DumpText(budget)
        try out += "digraph traits {\n"
        try out += "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=10, labelloc=b, labeljust=l, nodesep=0.3, ranksep=0.35,\n"
        try out += "         label=<\(legend(mode: mode))>];\n"
        try out += "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10, margin=\"0.12,0.05\"];\n"
        try out += "  edge [color=\"#4d4d4d\", arrowsize=0.7, fontname=\"Helvetica\"];\n"
        var ids: [ObjectIdentifier: Int] = [:]
        var nodes: [TraitEnvironment] = []
        var edges = DumpText(budget)
        var values: [TraitValue] = []   // distinct values of `trait`, in order of appearance (colours)
        func colour(_ v: TraitValue) -> String {
            if let i = values.firstIndex(of: v) { return TreePicture.palette[i % TreePicture.palette.count] }
            values.append(v)
            return TreePicture.palette[(values.count - 1) % TreePicture.palette.count]
        }
        try walkTraitTree(root) { step in
            switch step {
            case .enter(let e, let parent, _, _, _):
                let id = nodes.count
                if let maximumNodes, id >= maximumNodes {
                    throw LuaError.message("ui.picture: the tree has more than \(maximumNodes) environments, too many to draw: draw a subtree")
                }
                ids[ObjectIdentifier(e)] = id
                nodes.append(e)
                if opensCluster(e) {
                    try out += "  subgraph cluster_\(id) {\n"
                    try out += "    label=<\(html(clipped(e.description, to: 60)))>; fontsize=9; fontcolor=\"#555555\"; style=\"rounded,dashed\"; "
                    try out += "color=\"\(e is Window ? "#6c8ebf" : "#82b366")\";\n"
                }
                try out += "  n\(id) [label=<"
                try label(e, parent: parent, colour: colour, into: &out)
                try out += ">\(nodeStyle(e, parent: parent, path: path, colour: colour))];\n"
                if let parent, let pid = ids[ObjectIdentifier(parent)] {
                    var style = ""
                    if let path {
                        let onPath = path.contains(ObjectIdentifier(e)) && path.contains(ObjectIdentifier(parent))
                        style = onPath ? " [color=\"#d62728\", penwidth=3]" : " [color=\"#bbbbbb\"]"
                    } else if let trait {
                        // The value the arrow carries: what the parent passes down.
                        style = " [color=\"\(colour(parent.traitCollection.rawValue(trait)))\", penwidth=2]"
                    }
                    try edges += "  n\(pid) -> n\(id)\(style);\n"
                }
            case .leave(let e, _):
                if opensCluster(e) { try out += "  }\n" }
            }
        }
        try containmentEdges(nodes, ids, into: &edges)
        try out += edges.text
        try out += "}\n"
        return out.text
    }

    private func opensCluster(_ e: TraitEnvironment) -> Bool { e is Window || e is ViewController }

    /// `why` and the environments above it up to the one whose override sets
    /// `trait` (or the top of the tree).
    private func whyPath() -> Set<ObjectIdentifier>? {
        guard let trait, let why else { return nil }
        var path = Set<ObjectIdentifier>()
        var node: TraitEnvironment? = why
        while let n = node, path.insert(ObjectIdentifier(n)).inserted {
            if n.containsTraitOverride(trait) { break }
            node = n.traitParent
        }
        return path
    }

    /// The legend, one piece a line in one font and colour: a renderer
    /// whose font is wider than the one `dot` measured with still shows
    /// each line whole, where pieces of one line would run into each other.
    private func legend(mode: String) -> String {
        var lines = ["hierarchy mode \(mode): arrows pass traits; dashed arrows: containment that passes none",
                     "yellow: overrides"]
        var red = ["red: changed in the last update"]
        if let trait, let why {
            red.append("red path: where \(trait.property) of \(clipped(why.description, to: 60)) comes from")
        } else if let trait {
            lines.append("coloured arrows: values of \(trait.property) as each arrow carries them; double border where a value enters")
        }
        return lines.map { html($0) + "<BR ALIGN=\"LEFT\"/>" }.joined()
            + red.map { "<FONT COLOR=\"#cc0000\">" + html($0) + "</FONT><BR ALIGN=\"LEFT\"/>" }.joined()
    }

    /// A root's device traits in a line: idiom, scale, size classes, style,
    /// text size (and how many more `full` would list).
    private func summary(_ tc: TraitCollection, leaving shown: [TraitDefinition]) -> String {
        let T = SystemTraits.self
        let keys: [TraitDefinition] = [T.userInterfaceIdiom, T.displayScale, T.horizontalSizeClass, T.verticalSizeClass,
                                       T.userInterfaceStyle, T.preferredContentSizeCategory]
        let parts = keys.filter { d in tc.entries.contains { $0.definition === d } }
            .map { "\($0.property) \(describe(tc.rawValue($0)).trimmingQuotes)" }
        let rest = tc.entries.filter { e in !keys.contains { $0 === e.definition } && !shown.contains { $0 === e.definition } }.count
        return parts.joined(separator: " · ") + (rest > 0 ? " (+\(rest) more)" : "")
    }

    /// The node's label: a line per trait it shows, each clipped to 70 characters.
    private func label(_ e: TraitEnvironment, parent: TraitEnvironment?, colour: (TraitValue) -> String,
                       into s: inout DumpText) throws {
        let tc = e.traitCollection
        let before = e.traitCollectionBeforeLastUpdate
        func line(_ prefix: String, _ d: TraitDefinition, _ value: TraitValue, colour plain: String?) -> String {
            var text = "\(prefix)\(clipped(d.property, to: 70)) = \(shownValue(value, within: 70))"
            var c = plain
            if let before, before.rawValue(d) != tc.rawValue(d), value == tc.rawValue(d) {
                text += " (was \(shownValue(before.rawValue(d), within: 70)))"
                c = "#cc0000"
            }
            let body = html(clipped(text, to: 70))
            return (c.map { "<FONT COLOR=\"\($0)\">\(body)</FONT>" } ?? body) + "<BR ALIGN=\"LEFT\"/>"
        }
        try s += "<B>\(html(clipped(e.description, to: 60)))</B><BR/>"
        if let g = geometrySummary(e) { try s += "<I>\(html(clipped(g, to: 80)))</I><BR/>" }
        if e.needsTraitUpdate { try s += "<I>update pending</I><BR/>" }
        for o in e.traitOverrideEntries { try s += line("override ", o.definition, o.value, colour: "#8a5a00") }
        // What the overrides lines do not already say: differences from the
        // parent, or for the root its non-default traits (a one-line summary
        // unless `full`).
        let candidates = parent.map { tc.changedTraits(from: $0.traitCollection) } ?? (full ? tc.entries.map(\.definition) : [])
        let shown = candidates.filter { e.traitOverride($0) != tc.rawValue($0) }
        if parent == nil, !full, !tc.entries.isEmpty {
            try s += html(clipped(summary(tc, leaving: e.traitOverrideEntries.map(\.definition)), to: 90)) + "<BR ALIGN=\"LEFT\"/>"
        }
        for d in shown where d !== trait { try s += line("", d, tc.rawValue(d), colour: nil) }
        // What else changed here in the last update (inherited), so a red border always says what.
        for d in e.traitsChangedInLastUpdate where d !== trait && !shown.contains(where: { $0 === d }) && !e.containsTraitOverride(d) {
            try s += line("", d, tc.rawValue(d), colour: nil)
        }
        // What the view shows, resolved for its traits (as dumps write it): a label's font and text colour first.
        for shows in labelLines(e) + resolvedResourceLines(e) {
            try s += "<FONT COLOR=\"#1f5fa8\">\(html(clipped(shows, to: 70)))</FONT><BR ALIGN=\"LEFT\"/>"
        }
        if let trait {
            let v = tc.rawValue(trait)
            try s += "<FONT COLOR=\"\(colour(v))\"><B>\(html(clipped("\(clipped(trait.property, to: 70)) = \(shownValue(v, within: 70))", to: 70)))</B></FONT><BR ALIGN=\"LEFT\"/>"
        }
    }

    private func nodeStyle(_ e: TraitEnvironment, parent: TraitEnvironment?, path: Set<ObjectIdentifier>?,
                           colour: (TraitValue) -> String) -> String {
        var attrs: [String] = []
        if !e.traitOverrideEntries.isEmpty { attrs += ["style=\"rounded,filled\"", "fillcolor=\"#fff2cc\""] }
        else if e === why { attrs += ["style=\"rounded,filled\"", "fillcolor=\"#fde0dc\""] }
        if let path, let trait {
            guard path.contains(ObjectIdentifier(e)) else { return attrs.isEmpty ? "" : ", " + attrs.joined(separator: ", ") }
            attrs += ["color=\"#d62728\"", "penwidth=2"]
            let source = e.containsTraitOverride(trait) || parent.map { !path.contains(ObjectIdentifier($0)) } ?? true
            if source { attrs.append("peripheries=2") }
        } else if !e.traitsChangedInLastUpdate.isEmpty {
            attrs += ["color=\"#cc0000\"", "penwidth=2"]
        }
        if path == nil, let trait {
            let entersHere = parent == nil || e.containsTraitOverride(trait)
            if entersHere { attrs += ["peripheries=2", "color=\"\(colour(e.traitCollection.rawValue(trait)))\""] }
        }
        return attrs.isEmpty ? "" : ", " + attrs.joined(separator: ", ")
    }

    /// Dashed arrows for a controller's parent controller and its view's
    /// superview when the mode makes it inherit from elsewhere.
    private func containmentEdges(_ nodes: [TraitEnvironment], _ ids: [ObjectIdentifier: Int], into out: inout DumpText) throws {
        for case let vc as ViewController in nodes {
            guard let id = ids[ObjectIdentifier(vc)] else { continue }
            let inheritsFrom = vc.traitParent
            if let p = vc.parent, p !== inheritsFrom, let pid = ids[ObjectIdentifier(p)] {
                try out += "  n\(pid) -> n\(id) [style=dashed, color=\"#999999\", fontcolor=\"#777777\", fontsize=8, label=\"child\", constraint=false];\n"
            }
            if let s = vc.viewIfLoaded?.superview, s !== inheritsFrom, let sid = ids[ObjectIdentifier(s)] {
                try out += "  n\(sid) -> n\(id) [style=dashed, color=\"#999999\", fontcolor=\"#777777\", fontsize=8, label=\"superview\", constraint=false];\n"
            }
        }
    }
}

/// Text for a Graphviz HTML-like label.
func html(_ s: String) -> String {
    var out = ""
    for ch in printable(s) {
        switch ch {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.append(ch)
        }
    }
    return out
}

// MARK: - Rendering with dot

/// What `ui.picture` writes: the format `dot` is asked for, from the path's extension.
func pictureFormat(of path: String) throws -> String {
    let lower = path.lowercased()
    if lower.hasSuffix(".svg") { return "svg" }
    if lower.hasSuffix(".png") { return "png" }
    throw LuaError.message("ui.picture: the path must end in .svg or .png, got '\(clipped(path, to: 200))'")
}

/// Renders `dotText` into `path` with Graphviz's `dot` (found on PATH),
/// killing it after `timeout` seconds.
func renderPicture(_ dotText: String, to path: String, timeout: Double) throws {
    let format = try pictureFormat(of: path)
    guard !path.utf8.contains(0) else { throw LuaError.message("ui.picture: the path contains a zero byte") }
    try checkWritable(path)
    let result: ProgramResult
    do {
        result = try runProgram("dot", ["-T" + format, "-o" + path], input: Array(dotText.utf8), timeout: timeout)
    } catch ProgramError.notFound {
        throw LuaError.message("ui.picture needs Graphviz's 'dot' program, which is not on PATH: install the Debian package graphviz (apt-get install graphviz)")
    } catch ProgramError.timedOut {
        throw LuaError.message("ui.picture: dot did not finish within \(formatSeconds(timeout)) (stopped): draw a smaller subtree")
    } catch ProgramError.failed(let why) {
        throw LuaError.message("ui.picture: could not run dot: \(why)")
    }
    guard result.status == 0 else {
        let message = result.errorOutput.split(separator: "\n").prefix(3).joined(separator: "; ")
        throw LuaError.message("ui.picture: dot failed (\(result.statusText))\(message.isEmpty ? "" : ": " + clipped(message, to: 300))")
    }
}

private func formatSeconds(_ s: Double) -> String {
    s == s.rounded() && s < 1e9 ? "\(Int(s)) s" : "\(s) s"
}

/// A clear error for a path `dot` could not write, before running it.
private func checkWritable(_ path: String) throws {
    var st = stat()
    if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
        throw LuaError.message("ui.picture: '\(clipped(path, to: 200))' is a directory")
    }
    let dir: String
    if let slash = path.lastIndex(of: "/") {
        dir = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
        dir = "."
    }
    if stat(dir, &st) != 0 || (st.st_mode & S_IFMT) != S_IFDIR {
        throw LuaError.message("ui.picture: cannot write '\(clipped(path, to: 200))': no directory '\(clipped(dir, to: 200))'")
    }
    if access(dir, W_OK) != 0 {
        throw LuaError.message("ui.picture: cannot write '\(clipped(path, to: 200))': \(String(cString: strerror(errno)))")
    }
}

private extension String {
    /// `"phone"` → `phone`: a summary reads without quotes.
    var trimmingQuotes: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
