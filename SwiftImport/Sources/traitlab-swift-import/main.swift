#if canImport(Glibc)
import Glibc
#endif
import TraitLabSwiftImport

// traitlab-swift-import [--name NAME] [-o FILE] FILE|FOLDER...
// (run as `traitlab swift import ...`): reads Swift sources, folders
// recursively, and prints a TraitLab plugin. What is not translated is listed
// on standard error as file:line: what: reason (and in the plugin's header).
// Exit status 0 when the plugin was written, 1 when a source cannot be read
// or nothing was found, 2 on a usage error.

let usage = "usage: traitlab swift import [--name NAME] [-o FILE] FILE|FOLDER..."

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
var output: String?
var name: String?
var args = Array(CommandLine.arguments.dropFirst())
var i = 0
while i < args.count {
    let a = args[i]
    switch a {
    case "-o", "--output", "--name":
        i += 1
        guard i < args.count else { fail("'\(a)' needs argument", status: 2) }
        if a == "--name" { name = args[i] } else { output = args[i] }
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        if a.hasPrefix("-") && a != "-" { fail("unrecognized option '\(a)'", status: 2) }
        inputs.append(a)
    }
    i += 1
}
guard !inputs.isEmpty else { fail("name at least one Swift file or folder", status: 2) }

var importer = SwiftImport()
var read = 0
for input in inputs {
    let files = isDirectory(input) ? swiftFiles(in: input) : [input]
    for file in files {
        guard let text = readFile(file) else { fail("cannot read \(file): \(String(cString: strerror(errno)))", status: 1) }
        importer.add(source: text, file: file)
        read += 1
    }
}

/// The plugin's name: --name, else the output file's name without .lua, else "imported".
let pluginName: String = name ?? output.map { path -> String in
    var base = path.split(separator: "/").last.map(String.init) ?? path
    if base.hasSuffix(".lua") { base.removeLast(4) }
    return base
} ?? "imported"

let plugin = importer.plugin(name: pluginName, sources: inputs)
for s in plugin.skipped { fputs("traitlab: swift import: not translated: \(s)\n", stderr) }
guard plugin.traitCount + plugin.keyCount > 0 else {
    fail("found no UITraitDefinition or EnvironmentKey to translate in \(read) Swift file\(read == 1 ? "" : "s")", status: 1)
}
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
