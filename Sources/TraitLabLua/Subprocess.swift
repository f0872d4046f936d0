#if canImport(Glibc)
import Glibc
#endif

// Running a helper program (Graphviz's `dot`) without a shell: posix_spawnp
// with the arguments as an array, the input through a socket (a write to a
// program that has died fails with EPIPE instead of raising SIGPIPE, thanks
// to MSG_NOSIGNAL), its error output read at the same time (no deadlock on
// full pipes), and a deadline after which it is killed.

enum ProgramError: Error {
    case notFound
    case timedOut
    case failed(String)
}

struct ProgramResult {
    /// The wait status as waitpid gives it.
    var rawStatus: Int32
    var errorOutput: String

    /// The exit status, or -1 when a signal ended the program.
    var status: Int32 { (rawStatus & 0x7f) == 0 ? (rawStatus >> 8) & 0xff : -1 }

    var statusText: String {
        (rawStatus & 0x7f) == 0 ? "exit status \(status)" : "killed by signal \(rawStatus & 0x7f)"
    }
}

/// Runs `program` (looked up on PATH) with `arguments`, `input` on its
/// standard input and standard output discarded. Returns once it has exited;
/// kills it (SIGKILL) when it is still running after `timeout` seconds.
func runProgram(_ program: String, _ arguments: [String], input: [UInt8], timeout: Double) throws -> ProgramResult {
    var toChild: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &toChild) == 0 else {
        throw ProgramError.failed("socketpair: " + String(cString: strerror(errno)))
    }
    var fromChild: [Int32] = [-1, -1]
    guard pipe(&fromChild) == 0 else {
        let why = String(cString: strerror(errno))
        close(toChild[0]); close(toChild[1])
        throw ProgramError.failed("pipe: " + why)
    }
    for fd in fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var parentEnds = [toChild[0], fromChild[0]]
    defer { for fd in parentEnds where fd >= 0 { close(fd) } }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[1], 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 2)

    // The child starts with default signal handling and nothing blocked
    // (the REPL ignores or catches some signals).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for s in [SIGPIPE, SIGINT, SIGALRM, SIGTERM] { sigaddset(&defaults, s) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let spawned = argv.withUnsafeBufferPointer { args in
        posix_spawnp(&pid, program, &actions, &attributes, args.baseAddress!, environ)
    }
    close(toChild[1])
    close(fromChild[1])
    guard spawned == 0 else {
        if spawned == ENOENT { throw ProgramError.notFound }
        throw ProgramError.failed(String(cString: strerror(spawned)))
    }

    let deadline = monotonicSeconds() + max(0, timeout)
    for fd in parentEnds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    var written = 0
    var errorBytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var status: Int32 = 0
    var exited = false
    if input.isEmpty { close(parentEnds[0]); parentEnds[0] = -1 }
    while true {
        if !exited {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { exited = true }
        }
        if exited {
            // What it wrote before exiting is in the pipe; a process it left
            // behind may hold the pipe open, so read only what is there.
            while parentEnds[1] >= 0 {
                let n = read(parentEnds[1], &buffer, buffer.count)
                guard n > 0 else { break }
                if errorBytes.count < 65_536 { errorBytes += buffer[0..<n] }
            }
            break
        }
        let remaining = deadline - monotonicSeconds()
        if remaining <= 0 {
            if !exited {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw ProgramError.timedOut
            }
            break
        }
        var fds: [pollfd] = []
        if parentEnds[0] >= 0 { fds.append(pollfd(fd: parentEnds[0], events: Int16(POLLOUT), revents: 0)) }
        if parentEnds[1] >= 0 { fds.append(pollfd(fd: parentEnds[1], events: Int16(POLLIN), revents: 0)) }
        // Wake up at least every 50 ms to notice the exit of a program whose
        // error output another process still holds open.
        let wait = Int32(min(50, max(1, remaining * 1000)))
        if fds.isEmpty {
            usleep(UInt32(wait) * 1000)
            continue
        }
        if poll(&fds, nfds_t(fds.count), wait) < 0 {
            if errno == EINTR { continue }
            throw ProgramError.failed("poll: " + String(cString: strerror(errno)))
        }
        for f in fds where f.revents != 0 {
            if f.fd == parentEnds[0] {
                let n = input.withUnsafeBytes { raw in
                    send(f.fd, raw.baseAddress! + written, input.count - written, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if n > 0 { written += n }
                if written == input.count || (n < 0 && errno != EAGAIN && errno != EINTR) {
                    close(parentEnds[0]); parentEnds[0] = -1   // done, or the program stopped reading
                }
            } else {
                let n = read(f.fd, &buffer, buffer.count)
                if n > 0 {
                    if errorBytes.count < 65_536 { errorBytes += buffer[0..<n] }
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    close(parentEnds[1]); parentEnds[1] = -1
                }
            }
        }
    }
    return ProgramResult(rawStatus: status, errorOutput: String(decoding: errorBytes, as: UTF8.self))
}

private func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
