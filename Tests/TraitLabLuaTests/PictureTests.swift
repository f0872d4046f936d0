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

    /// A picture's DOT text for a scene whose window overrides the theme.
    private func dotOfThemedScene(trait: Bool, full: Bool = false) throws -> String {
        let world = TraitWorld()
        defer { world.tearDown() }   // (the world and its environments hold each other until then)
        let theme = try TraitDefinition(name: "Theme", valueType: .string, defaultValue: .string("standard"))
        try world.registry.register(theme)
        let scene = WindowScene(world: world, screen: world.mainScreen)
        let window = Window(world: world)
        window.setWindowScene(scene)
        let view = View(world: world)
        try window.addSubview(view)
        try window.setTraitOverride(theme, .string("bold"))
        try world.update()
        return try TreePicture(trait: trait ? theme : nil, full: full).dot(scene)
    }

    func testAnArrowHasTheColourOfTheValueItCarries() throws {
        let dot = try dotOfThemedScene(trait: true)
        // n0 scene (standard), n1 window (bold, its override), n2 view (bold):
        // scene -> window carries "standard" (the first colour); window ->
        // view carries "bold" (the second), although the window shows bold.
        XCTAssertTrue(dot.contains("n0 -> n1 [color=\"\(TreePicture.palette[0])\""), dot)
        XCTAssertTrue(dot.contains("n1 -> n2 [color=\"\(TreePicture.palette[1])\""), dot)
    }

    func testTheRootShowsAOneLineDeviceSummaryUnlessFull() throws {
        let dot = try dotOfThemedScene(trait: false)
        XCTAssertTrue(dot.contains("userInterfaceIdiom phone · displayScale 3"), dot)
        XCTAssertFalse(dot.contains("forceTouchCapability"), dot)
        let full = try dotOfThemedScene(trait: false, full: true)
        XCTAssertTrue(full.contains("forceTouchCapability"), full)
    }

    func testEachLegendLineIsOneRunOfText() throws {
        // Renderers other than dot place each run of text where dot measured
        // it with its own font: two runs on one line can overlap.
        let dot = try dotOfThemedScene(trait: true)
        guard let start = dot.firstRange(of: "label=<"), let end = dot[start.upperBound...].firstRange(of: ">];") else {
            return XCTFail(dot)
        }
        let legend = String(dot[start.upperBound..<end.lowerBound])
        for line in legend.split(separator: "<BR ALIGN=\"LEFT\"/>") where !line.isEmpty {
            let fonts = line.split(separator: "<FONT", omittingEmptySubsequences: false).count - 1
            // One run: plain text, or one FONT element around the whole line.
            XCTAssertTrue(fonts == 0 || (fonts == 1 && line.hasPrefix("<FONT") && line.hasSuffix("</FONT>")), String(line))
        }
    }
}
