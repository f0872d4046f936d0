#if canImport(Glibc)
import Glibc
#endif
import TraitEngine
@testable import TraitLabLua
import XCTest

/// Running `dot` (posix_spawn, a socket for its input, a deadline) and the
/// dumps' text, from Swift, so that AddressSanitizer sees them too.
final class PictureTests: XCTestCase {
    func testAProgramGetsItsInputAndItsErrorOutputComesBack() throws {
        let result = try runProgram("sh", ["-c", "cat >/dev/null; echo oops >&2; exit 4"],
                                    input: Array(repeating: 65, count: 1 << 20), timeout: 20)
        XCTAssertEqual(result.status, 4)
        XCTAssertEqual(result.errorOutput, "oops\n")
    }

    func testAProgramThatStopsReadingDoesNotKillTheCaller() throws {
        // Exits without reading 4 MB of input: the writes fail with EPIPE, no SIGPIPE.
        let result = try runProgram("true", [], input: Array(repeating: 65, count: 4 << 20), timeout: 20)
        XCTAssertEqual(result.status, 0)
    }

    func testAProgramPastItsDeadlineIsKilled() {
        let start = time(nil)
        XCTAssertThrowsError(try runProgram("sleep", ["30"], input: [], timeout: 0.5)) { error in
            guard case ProgramError.timedOut = error else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(time(nil) - start, 5)
    }

    func testAMissingProgramIsNotFound() {
        XCTAssertThrowsError(try runProgram("traitlab-no-such-program", [], input: [], timeout: 5)) { error in
            guard case ProgramError.notFound = error else { return XCTFail("\(error)") }
        }
    }

    func testPictureThroughTheHost() throws {
        let h = try LuaHost(options: LuaHostOptions())
        defer { h.close() }
        let path = "/tmp/traitlab-picture-test-\(getpid()).svg"
        defer { unlink(path) }
        XCTAssertNil(h.run("""
        local scene = ui.WindowScene {}
        local w = ui.Window { windowScene = scene }
        w.rootViewController = ui.ViewController { name = "root" }
        ui.update()
        assert(ui.picture(scene, "\(path)") == "\(path)")
        """, name: "=test"))
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertGreaterThan(st.st_size, 1000)
    }

    func testWrappedListsStayWithinTheirWidth() {
        let items = (1...30).map { "trait\($0) = \"\(String(repeating: "v", count: $0 * 3))\"" }
        for width in [20, 40, 77, 100] {
            for line in wrapped(items, width: width, first: "traits { ", end: " }") {
                XCTAssertLessThanOrEqual(line.count, width, line)
            }
        }
        XCTAssertEqual(wrapped([], width: 40, first: "traits { ", end: " }"), ["traits { }"])
        XCTAssertEqual(wrapped(["a = 1", "b = 2"], width: 40, first: "traits { ", end: " }"), ["traits { a = 1, b = 2 }"])
    }
}
