// Writes a Swift file that holds Lua source files as static strings (the
// EmbedLua build-tool plugin runs it at build time).
//
// usage: embed-lua OUTPUT.swift FILE.lua...
// Each file becomes `EmbeddedLua.sources["NAME"]` (its name without `.lua`),
// a raw string literal: its bytes exactly, no escapes to get wrong.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write("usage: embed-lua OUTPUT.swift FILE.lua...\n".data(using: .utf8)!)
    exit(2)
}

var text = """
// Made at build time by the EmbedLua plugin (Plugins/EmbedLua) from the
// target's lua folder. Do not edit: edit the .lua files.

/// The Lua sources this target carries, by file name without `.lua`.
enum EmbeddedLua {
    static let sources: [String: StaticString] = [

"""
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    let name = url.deletingPathExtension().lastPathComponent
    guard let source = try? String(contentsOf: url, encoding: .utf8) else {
        FileHandle.standardError.write("embed-lua: cannot read \(path) as UTF-8\n".data(using: .utf8)!)
        exit(1)
    }
    // A raw string whose delimiter the source does not contain: no `"""#`
    // (it would end the literal) and no `\#` (it would start an escape).
    var hashes = "#"
    while source.contains("\"\"\"" + hashes) || source.contains("\\" + hashes) { hashes += "#" }
    text += "        \"\(name)\": \(hashes)\"\"\"\n\(source)\n\"\"\"\(hashes),\n"
}
text += """
    ]

    /// The source named `name`, or nil.
    static func source(_ name: String) -> StaticString? { sources[name] }
}

"""
do {
    try text.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write("embed-lua: cannot write \(output): \(error)\n".data(using: .utf8)!)
    exit(1)
}
