import CFuzzHooks
import Glibc
import TraitEngine
import TraitLabLua

// libFuzzer entry points for TraitLab (built by Fuzz/build.sh, run by
// scripts/fuzz.sh). TRAITLAB_FUZZ_TARGET says what the input bytes are:
//
//   lua   Lua source, run in a sandboxed host with a small memory cap and an
//         instruction budget, then the pending update (as the command line
//         does after a chunk). Any Lua error is fine; a crash, a leak, an
//         ASan report or a hang is a finding.
//   ops   choices for ModelGenerator (Tests/TraitEngineTests/TraitFlowModel.swift):
//         a sequence of engine operations checked step by step against the
//         reference model. A difference aborts with the shrunk steps.

enum FuzzTarget { case lua, ops }
nonisolated(unsafe) var fuzzTarget = FuzzTarget.lua

/// Lua's pattern matching backtracks inside one C call, where no hook runs:
/// `("a"):rep(1e5):match(("(.-)"):rep(9) .. "b")` takes hours. The engine
/// never uses patterns, so inputs get plain `find` and no other matcher.
/// `print` still converts its arguments (the objects' `__tostring`) but
/// writes nothing.
let luaPrelude = """
local find, select, tostring = string.find, select, tostring
local function off() error("pattern matching is off in the fuzzer", 2) end
string.find = function(s, p, init) return find(s, p, init, true) end
string.match, string.gmatch, string.gsub = off, off, off
print = function(...) for i = 1, select("#", ...) do tostring((select(i, ...))) end end
"""

/// Bytes per input run as Lua, and what the host may use for one input.
let luaMemoryLimit = 16 << 20
let luaInstructionBudget = 2_000_000

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>,
                           _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    if let t = getenv("TRAITLAB_FUZZ_TARGET"), String(cString: t) == "ops" { fuzzTarget = .ops }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    switch fuzzTarget {
    case .lua: runLua(bytes)
    case .ops: runOps(bytes)
    }
    return 0
}

func runLua(_ bytes: UnsafeBufferPointer<UInt8>) {
    var options = LuaHostOptions()
    options.sandbox = true
    options.memoryLimit = luaMemoryLimit
    guard let host = try? LuaHost(options: options) else { return }
    defer { host.close() }
    if let problem = host.run(luaPrelude, name: "=fuzz") { fatalError("fuzz prelude failed: \(problem)") }
    fuzz_limit_instructions(host.mainState, luaInstructionBudget)
    _ = host.run(String(decoding: bytes, as: UTF8.self), name: "=input")
    _ = host.settlePendingWork()
}

/// The input bytes as choices: one byte each (two for more than 256 options).
struct ByteSource: ModelChoiceSource {
    let bytes: UnsafeBufferPointer<UInt8>
    var next = 0
    mutating func choose(_ n: Int) -> Int? {
        guard next < bytes.count else { return nil }
        var v = Int(bytes[next])
        next += 1
        if n > 256, next < bytes.count {
            v = v << 8 | Int(bytes[next])
            next += 1
        }
        return v % n
    }
}

func runOps(_ bytes: UnsafeBufferPointer<UInt8>) {
    var source = ByteSource(bytes: bytes)
    guard let m = source.choose(2) else { return }
    let ops = ModelGenerator.sequence(mode: m == 0 ? .ios17 : .legacy, length: 300, &source)
    guard let failure = ModelRunner.run(ops) else { return }
    print("model-based fuzz input failed:\n" + ModelRunner.report(ModelRunner.shrink(failure)))
    abort()
}
