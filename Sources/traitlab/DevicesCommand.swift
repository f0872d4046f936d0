import TraitEngine

// `traitlab devices [--json]`: the device catalogue `--device` and
// `ui.Screen { device = ... }` take, with what each device gives a full-screen
// scene in each orientation, and where each row comes from.

let devicesUsage = """
usage: traitlab devices [--json]
Lists the devices of the catalogue (--device NAME, ui.Screen { device = NAME }):
name, idiom, size in points (portrait), scale, the size classes of a full-screen
scene in portrait and landscape, other names the device answers to, and the
page each row comes from. --json prints the same as one JSON document.
"""

/// One device as the command shows it.
private struct DeviceRow {
    let device: Device
    let portrait: SceneGeometry?
    let landscape: SceneGeometry?

    init(_ d: Device) {
        device = d
        portrait = try? d.scene(.full, orientation: .portrait)
        landscape = d.orientations.contains(where: \.isLandscape) ? try? d.scene(.full, orientation: .landscapeLeft) : nil
    }
}

/// A number as it is written in Apple's tables: 393, 2.5.
private func number(_ d: Double) -> String {
    d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
}

/// "compact/regular": horizontal, then vertical.
private func classes(_ g: SceneGeometry?) -> String {
    guard let g else { return "-" }
    return "\(g.sizeClasses.horizontal.rawValue)/\(g.sizeClasses.vertical.rawValue)"
}

func runDevicesCommand(_ args: [String]) -> Int32 {
    var json = false
    for a in args {
        switch a {
        case "--json": json = true
        case "-h", "--help": writeOut(devicesUsage + "\n"); return 0
        default: return usageFailure("devices: unrecognized option '\(a)'")
        }
    }
    let rows = DeviceCatalogue.devices.map(DeviceRow.init)
    writeOut(json ? devicesJSON(rows) : devicesTable(rows))
    return 0
}

private func devicesTable(_ rows: [DeviceRow]) -> String {
    let header = ["device", "idiom", "points", "scale", "portrait", "landscape", "also"]
    var cells = [header]
    for r in rows {
        let d = r.device
        cells.append([d.name, d.idiom.rawValue, "\(number(d.portraitSize.width))x\(number(d.portraitSize.height))",
                      "@\(number(d.scale))x", classes(r.portrait), classes(r.landscape),
                      d.aliases.joined(separator: ", ")])
    }
    var widths = [Int](repeating: 0, count: header.count)
    for row in cells { for (k, c) in row.enumerated() { widths[k] = max(widths[k], c.count) } }
    var out = ""
    for row in cells {
        var line = ""
        for (k, c) in row.enumerated() {
            line += k == row.count - 1 ? c : c + String(repeating: " ", count: widths[k] - c.count + 2)
        }
        while line.hasSuffix(" ") { line.removeLast() }
        out += line + "\n"
    }
    out += "\nSize classes are horizontal/vertical for a full-screen scene.\n"
    out += "Sizes and size classes: \(DeviceCatalogue.layoutGuidelines)\n"
    out += "Each device's traits: its technical specifications page (traitlab devices --json names it).\n"
    return out
}

private func devicesJSON(_ rows: [DeviceRow]) -> String {
    func points(_ d: Double) -> JSONValue { d == d.rounded() && abs(d) < 1e15 ? .integer(Int(d)) : .number(d) }
    func geometry(_ g: SceneGeometry?) -> JSONValue {
        guard let g else { return .null }
        return .object([("width", points(g.size.width)), ("height", points(g.size.height)),
                        ("horizontalSizeClass", .string(g.sizeClasses.horizontal.rawValue)),
                        ("verticalSizeClass", .string(g.sizeClasses.vertical.rawValue)), ("source", .string(g.source))])
    }
    let items = rows.map { r -> String in
        let d = r.device
        return JSONValue.object([
            ("name", .string(d.name)), ("aliases", .array(d.aliases.map { .string($0) })), ("idiom", .string(d.idiom.rawValue)),
            ("points", .object([("width", points(d.portraitSize.width)), ("height", points(d.portraitSize.height))])),
            ("scale", points(d.scale)), ("displayGamut", .string(d.gamut.rawValue)),
            ("portrait", geometry(r.portrait)), ("landscape", geometry(r.landscape)),
            ("source", .string(d.source)), ("specs", .string(d.specs)),
        ]).serialized
    }
    return "[\n" + items.joined(separator: ",\n") + "\n]\n"
}
