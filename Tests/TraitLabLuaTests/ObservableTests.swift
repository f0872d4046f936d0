import TraitEngine
@testable import TraitLabLua
import XCTest

/// `ui.Observable` on each iOS version, set on the world from Swift (the
/// scenario spec, observable_spec.lua, covers the behaviour on the version
/// `traitlab test` runs). Sources: WWDC25 "What's new in UIKit" (observation
/// tracking on by default in iOS 26, opt-in on iOS 18 with the
/// UIObservationTrackingEnabled Info.plist key); Apple's page for that key.
final class ObservableTests: XCTestCase {
    /// A view whose layoutSubviews reads `model.unread`, and `relayouts()`:
    /// how many layouts a change of `model.unread` causes.
    private let setUp = """
        model = ui.Observable { unread = 3 }
        local scene = ui.WindowScene {}
        local window = ui.Window { windowScene = scene }
        layouts = 0
        window:addSubview(ui.View { layoutSubviews = function() layouts = layouts + 1; local _ = model.unread end })
        ui.update()
        function relayouts()
          local before = layouts
          model.unread = model.unread + 1
          ui.update()
          return layouts - before
        end
        """

    private func host(_ os: OSVersion) throws -> LuaHost {
        let h = try LuaHost()
        h.world.os = os
        XCTAssertNil(h.run(setUp, name: "=setup"))
        return h
    }

    private func check(_ h: LuaHost, _ code: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(h.run(code, name: "=check"), file: file, line: line)
    }

    func testIOS26TracksAlwaysAndCannotBeTurnedOff() throws {
        let h = try host(.iOS26)
        check(h, """
            assert(ui.ios == "26.0" and ui.observationTracking == true)
            assert(relayouts() == 1)
            assert(not pcall(function() ui.observationTracking = false end))
            """)
    }

    func testIOS18TracksOnlyOptedIn() throws {
        let h = try host(.iOS18)
        check(h, """
            assert(ui.ios == "18.0" and ui.observationTracking == false)
            assert(relayouts() == 0, "not opted in")
            ui.observationTracking = true
            assert(ui.observationTracking == true)
            assert(relayouts() == 0, "nothing read while tracking was off")
            """)
        // Opted in before the first layout, a read there is tracked.
        let h2 = try LuaHost()
        h2.world.os = .iOS18
        check(h2, "ui.observationTracking = true")
        check(h2, setUp)
        check(h2, """
            assert(relayouts() == 1, "opted in")
            ui.observationTracking = false
            assert(relayouts() == 0, "opted out again")
            """)
        XCTAssertFalse(h2.world.optedIn.contains(.observationTracking))
    }

    func testBeforeIOS18OptingInIsAnErrorNamingIOS18() throws {
        for os in [OSVersion.iOS17, .iOS16] {
            let h = try host(os)
            let message = h.run("ui.observationTracking = true", name: "=opt-in")
            XCTAssertTrue(message?.contains("iOS 18") == true, message ?? "no error")
            check(h, """
                assert(ui.observationTracking == false)
                ui.observationTracking = false
                assert(relayouts() == 0)
                assert(ui.available("16") and not ui.available("18.0"))
                """)
        }
    }

    func testAvailableComparesMajorVersions() throws {
        let h = try host(.iOS18)
        check(h, """
            assert(ui.available("17.4") and ui.available("18") and ui.available("18.2") and ui.available(18))
            assert(not ui.available("26.0"))
            """)
        XCTAssertNotNil(h.run("ui.available('iOS 18')", name: "=bad"))
        XCTAssertNotNil(h.run("ui.available({})", name: "=bad"))
    }

    /// Updates compare observed values only while some work depends on a
    /// disarmed observable: a world with observables nothing depends on, or
    /// with none, never asks the host before applying work.
    func testUpdatesCompareOnlyWhileSomeWorkDependsOnAnObservable() throws {
        let h = try LuaHost()
        h.world.os = .iOS26
        check(h, "plain = ui.Observable { n = 1 }; local _ = plain.n; plain.n = 2; ui.update()")
        XCTAssertFalse(h.world.checksBeforeApplyingWork, "nothing depends on it")
        check(h, setUp)
        XCTAssertFalse(h.world.checksBeforeApplyingWork, "armed: sets still reach the object")
        check(h, "local _ = model.unread")
        XCTAssertTrue(h.world.checksBeforeApplyingWork, "disarmed, with a layout depending on it")
        check(h, "assert(relayouts() == 1)")
        XCTAssertFalse(h.world.checksBeforeApplyingWork, "armed again by the layout the change ran")
    }
}
