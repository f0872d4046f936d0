#if canImport(Glibc)
import Glibc
#endif

// Clocks, number formatting, /proc and child processes: the little the
// benchmark needs from the system, without Foundation (Glibc only), so the
// figures measure TraitLab and not a framework around it.

/// Seconds on the monotonic clock.
func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Runs `body` once and returns the seconds it took.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return now() - start
}

/// The best (smallest) of `samples`: the figure a table shows. On a shared
/// machine another process only ever adds time to a run, so the best run is
/// the one closest to the code's own cost (medians moved by 20% between runs).
func best(_ samples: [Double]) -> Double {
    samples.min() ?? .nan
}

// MARK: - Formatting

/// `x` with `digits` decimals (no Foundation, so no String(format:)).
func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return x.isNaN ? "n/a" : (x > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(x) * scale).rounded()
    let whole = Int(scaled / scale)
    var text = (x < 0 && scaled != 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let frac = String(Int(scaled - Double(whole) * scale))
        text += "." + String(repeating: "0", count: digits - frac.count) + frac
    }
    return text
}

/// Three significant figures, at most two decimals: 1234, 123, 12.3, 1.23, 0.12.
func sig3(_ x: Double) -> String {
    let a = abs(x)
    if a >= 100 { return fixed(x, 0) }
    if a >= 10 { return fixed(x, 1) }
    return fixed(x, 2)
}

/// 1,000,000
func grouped(_ n: Int) -> String {
    let digits = Array(String(n))
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
        out.append(c)
    }
    return out
}

/// 10k, 100k, 1M
func short(_ n: Int) -> String {
    if n >= 1_000_000 && n % 1_000_000 == 0 { return "\(n / 1_000_000)M" }
    if n >= 1_000 && n % 1_000 == 0 { return "\(n / 1_000)k" }
    return String(n)
}

/// A duration with a unit that keeps three significant figures.
func duration(_ s: Double) -> String {
    if !s.isFinite { return "n/a" }
    if s >= 1 { return sig3(s) + " s" }
    if s >= 1e-3 { return sig3(s * 1e3) + " ms" }
    if s >= 1e-6 { return sig3(s * 1e6) + " µs" }
    return sig3(s * 1e9) + " ns"
}

func ratio(_ x: Double) -> String { x.isFinite ? sig3(x) + "×" : "n/a" }

func pad(_ s: String, _ width: Int) -> String {
    let n = s.unicodeScalars.count
    return n >= width ? s : s + String(repeating: " ", count: width - n)
}

func padLeft(_ s: String, _ width: Int) -> String {
    let n = s.unicodeScalars.count
    return n >= width ? s : String(repeating: " ", count: width - n) + s
}

// MARK: - /proc

/// A field of /proc/self/status in bytes (`VmHWM`, `VmRSS`), or nil.
func procStatusBytes(_ field: String) -> Int? {
    guard let text = readFile("/proc/self/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        let kb = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
        return kb.map { $0 * 1024 }
    }
    return nil
}

/// Resets VmHWM to the current resident size (Linux 4.0+: write 5 to
/// clear_refs), so a peak measured afterwards belongs to what follows.
func resetPeakResident() {
    let fd = open("/proc/self/clear_refs", O_WRONLY)
    guard fd >= 0 else { return }
    _ = write(fd, "5", 1)
    close(fd)
}

func readFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    return readAll(fd)
}

private func readAll(_ fd: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// A short description of the machine: CPU model and online cores.
func machineDescription() -> String {
    let model = readFile("/proc/cpuinfo")?.split(separator: "\n")
        .first { $0.hasPrefix("model name") }
        .flatMap { $0.split(separator: ":", maxSplits: 1).last }
        .map { String($0.drop { $0 == " " || $0 == "\t" }) } ?? "unknown CPU"
    return "\(model), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores"
}

// MARK: - Child processes

/// What a finished child process left: its exit status, its standard output
/// and error (merged) and the wall-clock seconds from spawn to exit.
struct ProcessResult {
    var status: Int32
    var output: String
    var seconds: Double
    var succeeded: Bool { status == 0 }
}

/// Runs `argv` (argv[0] a path, or a name looked up on PATH) with standard
/// input from /dev/null and output captured; nil when it cannot be started.
func runProcess(_ argv: [String], environment extra: [String: String] = [:]) -> ProcessResult? {
    var pipeFDs: [Int32] = [0, 0]
    guard pipe(&pipeFDs) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
    posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
    posix_spawn_file_actions_addclose(&actions, pipeFDs[1])

    var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for p in cArgs { free(p) } }
    var pid = pid_t()
    let start = now()
    // The environment, with `extra`'s variables added or replaced.
    var env: [UnsafeMutablePointer<CChar>?] = []
    var p = environ
    while let entry = p.pointee {
        let text = String(cString: entry)
        let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
        if extra[name] == nil { env.append(strdup(entry)) }
        p += 1
    }
    for (k, v) in extra { env.append(strdup(k + "=" + v)) }
    env.append(nil)
    defer { for e in env { free(e) } }
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, &env)
    close(pipeFDs[1])
    guard rc == 0 else { close(pipeFDs[0]); return nil }
    let output = readAll(pipeFDs[0])
    close(pipeFDs[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let elapsed = now() - start
    // WIFEXITED / WEXITSTATUS are macros Swift cannot see.
    let exitCode: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return ProcessResult(status: exitCode, output: output, seconds: elapsed)
}

/// The path of this executable.
func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}

/// The `traitlab` built next to this executable, if it is there.
func siblingTraitlab() -> String? {
    let me = executablePath()
    guard let slash = me.lastIndex(of: "/") else { return nil }
    let path = String(me[..<slash]) + "/traitlab"
    return access(path, X_OK) == 0 ? path : nil
}

/// Whether `name` is an executable on PATH.
func onPath(_ name: String) -> Bool {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return false }
    return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
}
