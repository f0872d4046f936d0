#if canImport(Glibc)
import Glibc
#endif
import TraitLabLua

// `traitlab module-path`: the folder to put on LUA_CPATH so that the stock
// lua5.4 finds TraitLab as `require "traitlab"`.
//
// SwiftPM names the dynamic library product `libTraitLabModule.so` and puts
// it next to this executable, but Lua looks for `traitlab.so` (its loader
// derives `luaopen_traitlab` from that name). So the folder is
// `<executable's folder>/lua`, holding a symlink traitlab.so ->
// ../libTraitLabModule.so, made on first use and checked on every use.

private let libraryName = "libTraitLabModule.so"
private let moduleFileName = "traitlab.so"

/// The folder of the running traitlab, for a subcommand that takes no
/// arguments; nil, after saying why, when there are arguments (exit 2) or the
/// executable cannot be found (exit 1), with that status in `status`.
private func binaryDirectory(for command: String, _ args: [String], status: inout Int32) -> String? {
    guard args.isEmpty else { status = usageFailure("\(command) takes no arguments"); return nil }
    guard let exe = executablePath() else {
        message("\(command): cannot find the traitlab executable (/proc/self/exe)")
        status = 1
        return nil
    }
    return directory(of: exe)
}

func printModulePath(_ args: [String]) -> Int32 {
    var status: Int32 = 0
    guard let binDir = binaryDirectory(for: "module-path", args, status: &status) else { return status }
    // Installed (scripts/install.sh): PREFIX/bin/traitlab and
    // PREFIX/lib/lua/5.4/traitlab.so, where lua5.4 looks for a prefix's C modules.
    let installed = directory(of: binDir) + "/lib/lua/5.4"
    if access(installed + "/" + moduleFileName, R_OK) == 0 {
        writeOut(installed + "\n")
        return 0
    }
    guard access(binDir + "/" + libraryName, R_OK) == 0 else {
        message("module-path: \(binDir)/\(libraryName) is missing; build the TraitLabModule product (swift build)")
        return 1
    }
    let folder = binDir + "/lua"
    if let problem = ensureModuleLink(in: folder) {
        message("module-path: \(problem)")
        return 1
    }
    writeOut(folder + "\n")
    return 0
}

/// The absolute path of the running executable, with symlinks resolved.
func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Creates `folder` and the symlink if needed; replaces a link that points
/// elsewhere. Safe when several processes do it at once. Returns a problem, or nil.
private func ensureModuleLink(in folder: String) -> String? {
    if mkdir(folder, 0o755) != 0 && errno != EEXIST {
        return "cannot create \(folder): \(String(cString: strerror(errno)))"
    }
    let link = folder + "/" + moduleFileName
    let target = "../" + libraryName
    for _ in 0..<3 {
        if linkTarget(link) == target { return nil }
        if symlink(target, link) == 0 { return nil }
        guard errno == EEXIST else { return "cannot create \(link): \(String(cString: strerror(errno)))" }
        if linkTarget(link) != target { unlink(link) }
    }
    return linkTarget(link) == target ? nil : "cannot create \(link)"
}

private func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

// `traitlab types-path`: the folder holding traitlab.d.lua, TraitLab's API for
// lua-language-server, to put on its `workspace.library` (.luarc.json).
// Installed, it is PREFIX/share/traitlab/types; run from a build of the
// checkout, the checkout's lua/ folder.
func printTypesPath(_ args: [String]) -> Int32 {
    var status: Int32 = 0
    guard let binDir = binaryDirectory(for: "types-path", args, status: &status) else { return status }
    var candidates = [directory(of: binDir) + "/share/traitlab/types"]
    // A build: CHECKOUT/.build/<triple>/<configuration>/traitlab.
    var dir = binDir
    for _ in 0..<4 {
        dir = directory(of: dir)
        candidates.append(dir + "/lua")
    }
    for folder in candidates where access(folder + "/traitlab.d.lua", R_OK) == 0 {
        writeOut(folder + "\n")
        return 0
    }
    message("types-path: no traitlab.d.lua beside this traitlab (looked in \(candidates[0])); install with scripts/install.sh")
    return 1
}
