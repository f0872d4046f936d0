#if canImport(Glibc)
import Glibc
#endif
import TraitLabSwiftImport

// traitlab-swift-import [options] FILE|FOLDER...
// (run as `traitlab swift import ...`): reads Swift sources, folders
// recursively, as the compiler would for one platform, and prints a TraitLab
// plugin. What is not translated is listed on standard error as
// FILE:LINE: what: reason (and in the plugin's header); the last line counts
// what was translated and what was skipped. Exit status 0 when the plugin was
// written, 1 when a source cannot be read or nothing could be translated, 2
// on a usage error.

let usage = """
usage: traitlab swift import [--name NAME] [-o FILE] [--platform ios|tvos|visionos|maccatalyst]
                             [--define NAME]... [--simulator] [--can-import MODULE]... [--cannot-import MODULE]...
                             [--types FILE|FOLDER]... [--enum TYPE=case,case,...]... FILE|FOLDER...
"""

func fail(_ text: String, status: Int32) -> Never {
    fflush(stdout)
    fputs("traitlab: swift import: \(text)\n", stderr)
    if status == 2 { fputs(usage + "\n", stderr) }
    exit(status)
}

func readFile(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n > 0 { bytes += buffer[0..<n] }
        if n < buffer.count { break }
    }
    guard ferror(f) == 0 else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// The .swift files under `dir`, sorted, skipping hidden folders and build folders.
func swiftFiles(in dir: String) -> [String] {
    guard let d = opendir(dir) else { fail("cannot read the folder \(dir): \(String(cString: strerror(errno)))", status: 1) }
    var names: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasPrefix(".") { continue }
        names.append(name)
    }
    closedir(d)
    var files: [String] = []
    for name in names.sorted() {
        let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
        if isDirectory(path) {
            if name == "build" || name == "DerivedData" || name == "Pods" { continue }
            files += swiftFiles(in: path)
        } else if name.hasSuffix(".swift") {
            files.append(path)
        }
    }
    return files
}

var inputs: [String] = []
var typeInputs: [String] = []
var foreignEnums: [(String, [String])] = []
var output: String?
var name: String?
var settings = BuildSettings()
var args = Array(CommandLine.arguments.dropFirst())
var i = 0
func value(_ option: String) -> String {
    i += 1
    guard i < args.count else { fail("'\(option)' needs argument", status: 2) }
    return args[i]
}
while i < args.count {
    let a = args[i]
    switch a {
    case "-o", "--output": output = value(a)
    case "--name": name = value(a)
    case "--platform":
        let p = value(a)
        guard let platform = BuildSettings.Platform(rawValue: p.lowercased()) else {
            fail("unknown platform '\(p)' (ios, tvos, visionos or maccatalyst)", status: 2)
        }
        settings.platform = platform
    case "--define", "-D": settings.defines.insert(value(a))
    case "--simulator": settings.simulator = true
    case "--can-import": settings.importable[value(a)] = true
    case "--cannot-import": settings.importable[value(a)] = false
    case "--types": typeInputs.append(value(a))
    case "--enum":
        let spec = value(a)
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        let cases = parts.count == 2 ? parts[1].split(separator: ",").map { String($0).trimmingSpaces } : []
        guard parts.count == 2, !parts[0].isEmpty, !cases.isEmpty, cases.allSatisfy({ !$0.isEmpty }) else {
            fail("--enum takes TYPE=case,case,... (got '\(spec)')", status: 2)
        }
        foreignEnums.append((parts[0], cases))
    case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
    default:
        if a.hasPrefix("-") && a != "-" { fail("unrecognized option '\(a)'", status: 2) }
        inputs.append(a)
    }
    i += 1
}
guard !inputs.isEmpty else { fail("name at least one Swift file or folder", status: 2) }

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}

var importer = SwiftImport(settings: settings)
for (type, cases) in foreignEnums { importer.declareEnum(type, cases: cases) }
var read = 0
func readAll(_ inputs: [String], _ add: (String, String) -> Void) {
    for input in inputs {
        let files = isDirectory(input) ? swiftFiles(in: input) : [input]
        for file in files {
            guard let text = readFile(file) else { fail("cannot read \(file): \(String(cString: strerror(errno)))", status: 1) }
            add(text, file)
        }
    }
}
readAll(typeInputs) { importer.addTypes(source: $0, file: $1) }
readAll(inputs) { importer.add(source: $0, file: $1); read += 1 }

/// The plugin's name: --name, else the output file's name without .lua, else "imported".
let pluginName: String = name ?? output.map { path -> String in
    var base = path.split(separator: "/").last.map(String.init) ?? path
    if base.hasSuffix(".lua") { base.removeLast(4) }
    return base
} ?? "imported"

let plugin = importer.plugin(name: pluginName, sources: inputs)
fflush(stdout)
for s in plugin.skipped { fputs("\(s)\n", stderr) }

/// "3 traits", "1 trait", nil for none.
func count(_ n: Int, _ noun: String) -> String? {
    n == 0 ? nil : "\(n) \(noun)\(n == 1 ? "" : "s")"
}
let files = "\(read) Swift file\(read == 1 ? "" : "s")"
let skippedText = plugin.skipped.isEmpty ? "skipped nothing" : "skipped \(plugin.skipped.count) (listed above)"
guard plugin.traitCount + plugin.keyCount > 0 else {
    if plugin.found == 0 {
        fail("\(files): found no UITraitDefinition or EnvironmentKey to translate\(plugin.skipped.isEmpty ? "" : "; \(skippedText)")", status: 1)
    }
    fail("\(files): found \(count(plugin.found, "trait or key declaration") ?? ""), translated none; \(skippedText)", status: 1)
}
let translated = [count(plugin.traitCount, "trait"), count(plugin.enumCount, "enum"), count(plugin.keyCount, "environment key"),
                  count(plugin.bridgeCount, "bridge")].compactMap { $0 }
fputs("traitlab: swift import: \(files) for \(settings.platform.displayName): translated \(translated.joined(separator: ", ")); \(skippedText)\n", stderr)
if let output {
    let tmp = output + ".tmp\(getpid())"
    guard let f = fopen(tmp, "w") else { fail("cannot write \(output): \(String(cString: strerror(errno)))", status: 1) }
    let ok = fputs(plugin.lua, f) >= 0
    guard fclose(f) == 0, ok, rename(tmp, output) == 0 else {
        unlink(tmp)
        fail("cannot write \(output): \(String(cString: strerror(errno)))", status: 1)
    }
} else {
    fputs(plugin.lua, stdout)
}
exit(0)
