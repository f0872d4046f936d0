#if canImport(Glibc)
import Glibc
#endif

// `traitlab test` against what a team would use instead: Debian's busted under
// lua5.4 with the traitlab module (`--helper=traitlab.busted`, a fresh world
// per file, as `traitlab test` gives). Many small spec files, each defining a
// trait, building a small tree and checking a propagated value, the way
// scenario suites look. Files per second, best of several runs, runs
// interleaved so a busy moment hits every command.

struct SpecFileFigures {
    var files = 0
    /// Wall seconds for the whole run (best of the runs).
    var traitlabJ1 = Double.nan
    var traitlabJ2 = Double.nan
    var busted = Double.nan
    /// Checks: every run reported every test passed.
    var allPassed = true
    var error: String?
}

/// One small spec file: works under `traitlab test` and under busted with the module.
func specFileText(_ i: Int) -> String {
    """
    local tl = require "traitlab"
    local traits, ui = tl.traits, tl.ui
    describe("file \(i)", function()
      local Theme = traits.define { name = "Theme\(i)", default = "light",
                                    type = traits.enum("Theme\(i)Case", { "light", "dark" }) }
      it("propagates an override", function()
        local scene = ui.WindowScene {}
        local window = ui.Window { windowScene = scene }
        window.rootViewController = ui.ViewController {}
        local child = ui.View {}
        window.rootViewController.view:addSubview(child)
        scene.traitOverrides[Theme] = "dark"
        ui.update()
        assert.are.equal("dark", child.traitCollection[Theme])
      end)
      it("counts", function() assert.are.equal(\(i + 1), \(i) + 1) end)
    end)

    """
}

/// Tests TAP reports as passing ("ok N - …"), or nil when one failed.
private func tapSuccesses(_ output: String) -> Int? {
    var ok = 0
    for line in output.split(separator: "\n") {
        if line.hasPrefix("not ok") { return nil }
        if line.hasPrefix("ok ") { ok += 1 }
    }
    return ok
}

func measureSpecFiles(files: Int, runs: Int) -> SpecFileFigures {
    var f = SpecFileFigures()
    f.files = files
    guard let traitlab = siblingTraitlab() else { f.error = "no traitlab next to traitlab-bench"; return f }
    guard let busted = pathOf("busted") else { f.error = "busted is not on PATH (scripts/setup.sh installs lua-busted)"; return f }
    guard onPath("lua5.4") else { f.error = "lua5.4 is not on PATH"; return f }
    guard let mp = runProcess([traitlab, "module-path"]), mp.succeeded else {
        f.error = "traitlab module-path failed (build the TraitLabModule product)"
        return f
    }
    let modulePath = mp.output.split(separator: "\n").first.map(String.init) ?? ""
    var template = Array("/tmp/traitlab-bench-specs-XXXXXX".utf8CString)
    guard let dirPtr = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        f.error = "cannot make a temporary folder"
        return f
    }
    let dir = String(cString: dirPtr)
    defer { _ = runProcess(["rm", "-rf", dir]) }
    for i in 0..<files {
        let path = dir + "/" + "file\(i)_spec.lua"
        guard let fp = fopen(path, "w") else { f.error = "cannot write \(path)"; return f }
        fputs(specFileText(i), fp)
        fclose(fp)
    }
    let expected = files * 2
    let commands: [([String], [String: String])] = [
        ([traitlab, "test", "-j", "1", "-o", "TAP", dir], [:]),
        ([traitlab, "test", "-j", "2", "-o", "TAP", dir], [:]),
        (["lua5.4", busted, "--helper=traitlab.busted", "-o", "TAP", dir], ["LUA_CPATH": modulePath + "/?.so;;"]),
    ]
    var times: [[Double]] = [[], [], []]
    for _ in 0..<runs {
        for (k, command) in commands.enumerated() {
            guard let r = runProcess(command.0, environment: command.1) else {
                f.error = "cannot start \(command.0[0])"
                return f
            }
            let passed = tapSuccesses(r.output)
            if !r.succeeded || passed != expected {
                f.allPassed = false
                f.error = "\(command.0.prefix(3).joined(separator: " ")) … exited \(r.status), \(passed.map(String.init) ?? "no") tests of \(expected) counted: "
                    + String(r.output.suffix(400))
            }
            times[k].append(r.seconds)
        }
    }
    f.traitlabJ1 = best(times[0])
    f.traitlabJ2 = best(times[1])
    f.busted = best(times[2])
    return f
}

/// The full path of an executable on PATH.
func pathOf(_ name: String) -> String? {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
    for dir in path.split(separator: ":") where access("\(dir)/\(name)", X_OK) == 0 { return "\(dir)/\(name)" }
    return nil
}

/// A failed case, as `--case` reports it.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}
