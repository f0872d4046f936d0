// Writes a Swift file that holds a target's Lua files (the EmbedLua
// build-tool plugin runs it at build time): each file's source, and its
// bytecode as this build's Lua compiles it (lua_dump, debug information
// kept), so that a start loads the bytecode instead of compiling.
//
// usage: embed-lua OUTPUT.swift FILE.lua...
// Each file becomes `EmbeddedLua.chunks["NAME"]` (its name without `.lua`):
// its source as a raw string literal (its bytes exactly, no escapes to get
// wrong), and its bytecode as a string literal whose characters are its bytes
// (U+0000 to U+00FF; decoded by LuaHost.loadEmbedded, which checks the
// bytecode's header against the running Lua's and falls back to the source).
import CLua
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write("usage: embed-lua OUTPUT.swift FILE.lua...\n".data(using: .utf8)!)
    exit(2)
}

/// The bytecode of `source`, named `=traitlab.NAME` as LuaHost.loadEmbedded
/// names the source (tracebacks read the same either way); nil if it does
/// not compile (the source is embedded anyway, and reports the error when loaded).
func compile(_ source: String, name: String) -> [UInt8]? {
    guard let L = luaL_newstate() else { return nil }
    defer { lua_close(L) }
    let bytes = Array(source.utf8)
    let status = bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            luaL_loadbufferx(L, $0, bytes.count, "=traitlab." + name, "t")
        }
    }
    guard status == LUA_OK else { return nil }
    final class Sink { var bytes: [UInt8] = [] }
    let sink = Sink()
    let writer: lua_Writer = { _, p, size, ud in
        let sink = Unmanaged<Sink>.fromOpaque(ud!).takeUnretainedValue()
        if let p, size > 0 { sink.bytes += UnsafeRawBufferPointer(start: p, count: size) }
        return 0
    }
    guard lua_dump(L, writer, Unmanaged.passUnretained(sink).toOpaque(), 0) == 0 else { return nil }
    return sink.bytes
}

/// A Swift string literal whose characters are `bytes`: printable ASCII as
/// itself, every other byte as the escape of the code point of that value.
func literal(_ bytes: [UInt8]) -> String {
    var text = "\""
    for b in bytes {
        if b >= 0x20 && b < 0x7f && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
            text.unicodeScalars.append(Unicode.Scalar(b))
        } else {
            text += "\\u{\(String(b, radix: 16))}"
        }
    }
    return text + "\""
}

var text = """
// Made at build time by the EmbedLua plugin (Plugins/EmbedLua) from the
// target's lua folder. Do not edit: edit the .lua files.

/// The Lua files this target carries, by file name without `.lua`: each
/// one's source, and its bytecode (empty if it did not compile), whose
/// characters are its bytes.
enum EmbeddedLua {
    static let chunks: [String: (source: StaticString, bytecode: StaticString)] = [

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
    let bytecode = compile(source, name: name).map(literal) ?? "\"\""
    text += "        \"\(name)\": (\(hashes)\"\"\"\n\(source)\n\"\"\"\(hashes),\n            \(bytecode)),\n"
}
text += """
    ]
}

"""
do {
    try text.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write("embed-lua: cannot write \(output): \(error)\n".data(using: .utf8)!)
    exit(1)
}
