@testable import TraitEngine
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The engine object's size (a performance target: peak resident bytes per
/// view at 1M views, docs/performance.md). A `View` holds only what an update reads of every environment; the
/// rest is in `EnvironmentExtras`, made on first use, and `EnvironmentFlags`
/// says in one byte of the object which of it is set (the update's fast path
/// tests that byte alone). These tests fail when a stored property added to
/// `TraitEnvironment` or `View` grows a view past one 96-byte heap chunk, or
/// when a flag falls out of step with the extras it stands for.
final class ObjectLayoutTests: XCTestCase {
    /// The limit: 88 bytes of object are one 96-byte glibc chunk (88 usable
    /// bytes: size plus the 8-byte chunk header, rounded up to 16).
    static let viewBytes = 88

    #if os(Linux)
    /// The instance size Swift's class metadata records (`InstanceSize`, a
    /// 32-bit field after the kind, the superclass pointer, the flags and the
    /// instance address point: `TargetClassMetadata` in the Swift runtime's
    /// include/swift/ABI/Metadata.h, without Objective-C interop as on Linux).
    private func instanceSize(_ type: AnyClass) -> Int {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
    }

    func testMetadataInstanceSizes() {
        // The reading of the metadata is checked on a class of known layout:
        // a header (16 bytes) and two words.
        final class TwoWords { var a = 0, b = 0 }
        XCTAssertEqual(instanceSize(TwoWords.self), 32)
        XCTAssertLessThanOrEqual(instanceSize(View.self), ObjectLayoutTests.viewBytes)
        XCTAssertEqual(instanceSize(View.self), instanceSize(TraitEnvironment.self),
                       "View adds no stored property: its color and controller are in the extras")
        // A view with an override or a registration pays one 64-byte chunk more.
        XCTAssertLessThanOrEqual(instanceSize(EnvironmentExtras.self), 56)
        XCTAssertEqual(MemoryLayout<RegistrationList?>.size, 8)
        XCTAssertEqual(MemoryLayout<ExtraStorage?>.size, 8)
        // A registration made with a closure is one 64-byte chunk (and, for
        // more than one trait, their array); its closure's context is another.
        XCTAssertLessThanOrEqual(instanceSize(ClosureRegistration.self), 56)
        // A host's registration (its delegate delivers it by tag) is one
        // 48-byte chunk and no closure.
        XCTAssertLessThanOrEqual(instanceSize(DelegateRegistration.self), 40)
    }
    #endif

    #if canImport(Glibc)
    /// What the allocator gave a new view (under AddressSanitizer: the size asked for).
    func testHeapChunkOfAView() throws {
        let world = TraitWorld()
        let v = View(world: world)
        let p = Unmanaged.passUnretained(v).toOpaque()
        // glibc's malloc_usable_size (malloc.h, which the Glibc module leaves
        // out), looked up as the process resolves it (AddressSanitizer's when present).
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        let symbol = try XCTUnwrap(dlsym(nil, "malloc_usable_size"))
        let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
        XCTAssertGreaterThanOrEqual(usableSize(p), 24)
        XCTAssertLessThanOrEqual(usableSize(p), ObjectLayoutTests.viewBytes)
        XCTAssertNil(v.extras)
    }
    #endif

    /// Building and updating a tree of plain views makes no extras, and the
    /// default class names are not stored.
    func testPlainViewsHaveNoExtras() throws {
        let stage = try Stage()
        var views: [View] = []
        for i in 0..<20 {
            let v = View(world: stage.world)
            try (i == 0 ? stage.rootView : views[i / 2]).addSubview(v)
            views.append(v)
        }
        try stage.world.update()
        stage.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try stage.world.update()
        for v in views {
            XCTAssertNil(v.extras)
            XCTAssertEqual(v.className, "View")
            XCTAssertEqual(v.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        }
        XCTAssertEqual(stage.scene.className, "WindowScene")
        XCTAssertNil(stage.scene.extras)
        XCTAssertEqual(stage.window.className, "Window")
        XCTAssertEqual(HostingController(world: stage.world).className, "HostingController")
        XCTAssertNil(HostingController(world: stage.world).extras?.details)
    }

    /// Each flag follows the field it stands for, both ways.
    func testFlagsFollowTheExtras() throws {
        let stage = try Stage()
        let v = try stage.addView("v", to: stage.rootView)
        let theme = try makeTrait("LayoutTheme", .enumeration(themeEnum), default: .string("standard"))
        try stage.world.registry.register(theme)

        try v.setTraitOverride(theme, .string("bold"))
        XCTAssertTrue(v.flags.contains(.hasOverrides))
        try v.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        v.removeTraitOverride(theme)
        XCTAssertTrue(v.flags.contains(.hasOverrides))
        v.removeTraitOverride(Sys.userInterfaceStyle)
        XCTAssertFalse(v.flags.contains(.hasOverrides))
        XCTAssertTrue(v.traitOverrideEntries.isEmpty)

        let r1 = try v.registerForTraitChanges([theme]) { _, _ in }
        let r2 = try v.registerForTraitChanges([theme]) { _, _ in }
        XCTAssertTrue(v.flags.contains(.hasRegistrations))
        v.unregisterForTraitChanges(r1)
        XCTAssertTrue(v.flags.contains(.hasRegistrations))
        XCTAssertEqual(v.activeRegistrationCount, 1)
        v.unregisterForTraitChanges(r2)
        XCTAssertFalse(v.flags.contains(.hasRegistrations))
        XCTAssertEqual(v.activeRegistrationCount, 0)

        v.tracked.layout = [theme]
        XCTAssertTrue(v.flags.contains(.hasTrackedTraits))
        v.tracked.layout = []
        XCTAssertFalse(v.flags.contains(.hasTrackedTraits))
        XCTAssertNil(v.extras?.tracked)

        XCTAssertTrue(stage.rootView.flags.contains(.hasOwningViewController))
        XCTAssertTrue(stage.rootView.owningViewController === stage.root)
        XCTAssertFalse(v.flags.contains(.hasOwningViewController))
        XCTAssertNil(v.owningViewController)

        // Names, class names and colors are details: an update never reads them.
        XCTAssertNil(v.extras?.details?.className)
        v.className = "CardView"
        XCTAssertEqual(v.className, "CardView")
        XCTAssertEqual(v.description, "CardView \"v\"")
        v.className = "View"
        XCTAssertNil(v.extras?.details?.className)
        XCTAssertEqual(v.classNameNumber, 0)
        XCTAssertEqual(v.description, "View \"v\"")
        v.backgroundColor = .fixed(try Color(hex: "#FF0000"))
        XCTAssertNotNil(v.backgroundColor)
        v.backgroundColor = nil
        XCTAssertNil(v.backgroundColor)
        XCTAssertTrue(v.flags.isDisjoint(with: .notPlain))

        v.isExposed = true
        XCTAssertTrue(v.isExposed)
        v.isExposed = false
        XCTAssertFalse(v.isExposed)
    }

    /// Registrations kept one at a time or in an array run in the order they
    /// were made, through every change between the two forms (UIKit calls a
    /// view's handlers in registration order: `registerForTraitChanges`, WWDC23
    /// "Unleash the UIKit trait system").
    func testRegistrationListForms() throws {
        let f = try FlippingStage()
        let (stage, v) = (f.stage, f.v)
        var calls: [String] { f.calls }
        func register(_ tag: String) throws -> TraitChangeRegistration {
            try v.registerForTraitChanges([Sys.userInterfaceStyle, Sys.displayScale], handler: f.record(tag))
        }
        func change() throws { try f.change() }
        let a = try register("a")
        try change()
        XCTAssertEqual(calls, ["a"])
        let b = try register("b")
        let c = try register("c")
        try change()
        XCTAssertEqual(calls, ["a", "b", "c"])
        v.unregisterForTraitChanges(b)
        try change()
        XCTAssertEqual(calls, ["a", "c"])
        v.unregisterForTraitChanges(a)
        XCTAssertEqual(v.activeRegistrationCount, 1)
        if case .one(let only)? = v.registrationList { XCTAssertTrue(only === c) } else { XCTFail("one registration kept alone") }
        XCTAssertNil(v.extras, "a lone registration is kept without extras")
        try change()
        XCTAssertEqual(calls, ["c"])
        v.unregisterForTraitChanges(a)   // twice: nothing
        v.unregisterForTraitChanges(c)
        XCTAssertFalse(a.isActive || b.isActive || c.isActive)
        try change()
        XCTAssertEqual(calls, [])
        XCTAssertTrue(v.flags.isDisjoint(with: .notPlain))
        // A trait of the registration that did not change calls nothing; one that did, does.
        let s = try v.registerForTraitChanges([Sys.horizontalSizeClass, Sys.displayScale], handler: f.record("s"))
        try change()
        XCTAssertEqual(calls, [])
        f.calls = []
        stage.screen.setTraits { $0[Sys.displayScale] = .number(2) }
        try stage.world.update()
        XCTAssertEqual(calls, ["s"])
        XCTAssertTrue(s.isActive)
        // One trait (named twice: kept once) is kept without an array.
        v.unregisterForTraitChanges(s)
        let one = try v.registerForTraitChanges([Sys.displayScale, Sys.displayScale], handler: f.record("one"))
        XCTAssertTrue(one.traits.count == 1 && one.traits[0] === Sys.displayScale)
        try change()
        XCTAssertEqual(calls, [])
        stage.screen.setTraits { $0[Sys.displayScale] = .number(3) }
        try stage.world.update()
        XCTAssertEqual(calls, ["one"])
    }

    /// A view whose only extra is one registration keeps it without extras;
    /// extras made for something else take it in, and give it back when that
    /// goes. Each form delivers, in registration order.
    func testALoneRegistrationMovesInAndOutOfTheExtras() throws {
        let f = try FlippingStage()
        let v = f.v
        var calls: [String] { f.calls }
        func change() throws { try f.change() }
        let a = try v.registerForTraitChanges([Sys.userInterfaceStyle], handler: f.record("a"))
        XCTAssertNil(v.extras)
        guard case .registration(let alone)? = v.extraStorage, alone === a else { return XCTFail("kept alone") }
        try change()
        XCTAssertEqual(calls, ["a"])
        // Something else extra: the registration moves into the extras.
        try v.setTraitOverride(Sys.displayScale, .number(3))
        if case .one(let r)? = v.extras?.registrationList { XCTAssertTrue(r === a) } else { XCTFail("moved into the extras") }
        try change()
        XCTAssertEqual(calls, ["a"])
        let b = try v.registerForTraitChanges([Sys.userInterfaceStyle], handler: f.record("b"))
        try change()
        XCTAssertEqual(calls, ["a", "b"])
        // The override goes: two registrations stay in the extras; one more goes: alone again.
        v.removeTraitOverride(Sys.displayScale)
        XCTAssertNotNil(v.extras)
        XCTAssertTrue(v.unregisterForTraitChanges(a))
        XCTAssertNil(v.extras)
        guard case .registration(let left)? = v.extraStorage, left === b else { return XCTFail("b kept alone") }
        try change()
        XCTAssertEqual(calls, ["b"])
        XCTAssertFalse(v.unregisterForTraitChanges(a))
        XCTAssertTrue(v.unregisterForTraitChanges(b))
        XCTAssertNil(v.extraStorage)
        XCTAssertTrue(v.flags.isDisjoint(with: .notPlain))
        try change()
        XCTAssertEqual(calls, [])
    }

    /// A class name other than the default is a number in the object (its
    /// padding): instances named alike share the world's one copy, and no
    /// extras are made for it. Past the table's 65,535 names, names are
    /// kept in the details instead.
    func testClassNamesAreNumbered() throws {
        let world = TraitWorld()
        let a = View(world: world, className: "Card"), b = View(world: world), c = ViewController(world: world, className: "Card")
        b.className = "Card"
        XCTAssertNil(a.extras)
        XCTAssertNil(b.extras)
        XCTAssertNil(c.extras)
        XCTAssertEqual([a.className, b.className, c.className], ["Card", "Card", "Card"])
        XCTAssertNotEqual(a.classNameNumber, 0)
        XCTAssertEqual(a.classNameNumber, b.classNameNumber)
        XCTAssertEqual(a.classNameNumber, c.classNameNumber)
        b.className = "Badge"
        XCTAssertEqual(b.className, "Badge")
        XCTAssertEqual(a.className, "Card")
        for i in 0..<Int(UInt16.max) { _ = world.classNameNumber(for: "Class\(i)") }
        XCTAssertNil(world.classNameNumber(for: "OneTooMany"))
        b.className = "OneTooMany"
        XCTAssertEqual(b.className, "OneTooMany")
        XCTAssertEqual(b.classNameNumber, 0)
        XCTAssertEqual(b.extras?.details?.className, "OneTooMany")
        b.className = "Card"   // a known name: numbered again, the details' copy dropped
        XCTAssertEqual(b.className, "Card")
        XCTAssertNil(b.extras?.details?.className)
        b.className = "View"
        XCTAssertEqual(b.className, "View")
        XCTAssertEqual(b.classNameNumber, 0)
    }

    /// Extras emptied again are dropped: the view is as small as a new one.
    func testEmptiedExtrasAreDropped() throws {
        let stage = try Stage()
        let v = View(world: stage.world)
        try stage.rootView.addSubview(v)
        try v.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        v.removeTraitOverride(Sys.userInterfaceStyle)
        XCTAssertNil(v.extras)
        let r = try v.registerForTraitChanges([Sys.userInterfaceStyle]) { _, _ in }
        v.unregisterForTraitChanges(r)
        XCTAssertNil(v.extras)
        v.name = "named"
        v.backgroundColor = .fixed(try Color(hex: "#00FF00"))
        try v.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        v.name = nil
        v.removeTraitOverride(Sys.userInterfaceStyle)
        XCTAssertNotNil(v.extras, "the color is still set")
        v.backgroundColor = nil
        XCTAssertNil(v.extras)
        v.className = "OddName"
        v.tracked.display = [Sys.userInterfaceStyle]
        v.className = "View"
        XCTAssertNotNil(v.extras)
        v.tracked.display = []
        XCTAssertNil(v.extras)
        // A view that leaves its controller (the controller is freed) drops it.
        var vc: ViewController? = ViewController(world: stage.world)
        let owned = try vc!.loadViewIfNeeded()
        XCTAssertNotNil(owned.extras)
        vc = nil
        XCTAssertNil(owned.owningViewController)
        XCTAssertNil(owned.extras)
        try stage.world.update()
    }

    /// The host's slot is the host's: the engine keeps what it is given.
    func testHostSlot() throws {
        let stage = try Stage()
        let v = View(world: stage.world)
        try stage.rootView.addSubview(v)
        XCTAssertEqual(v.hostSlot, 0)
        v.hostSlot = .max
        stage.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try stage.world.update()
        XCTAssertEqual(v.hostSlot, .max)
        XCTAssertEqual(v.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertNil(v.extras)
    }

    /// A Swift subclass is flagged, and so leaves the fast path.
    func testSubclassIsFlagged() throws {
        final class Sub: View {}
        let world = TraitWorld()
        XCTAssertTrue(Sub(world: world).flags.contains(.isSubclassed))
        XCTAssertFalse(View(world: world).flags.contains(.isSubclassed))
    }
}

/// A stage with one plain view under the root view, whose screen's
/// interface style flips at each ``change()``; handlers made by
/// ``record(_:)`` note their names in ``calls``, which a change empties first.
private final class FlippingStage {
    let stage: Stage
    let v: View
    var calls: [String] = []
    private var style = "dark"

    init() throws {
        stage = try Stage()
        v = View(world: stage.world)
        try stage.rootView.addSubview(v)
        try stage.world.update()
    }

    func record(_ name: String) -> (TraitEnvironment, TraitCollection) throws -> Void {
        { [unowned self] _, _ in self.calls.append(name) }
    }

    func change() throws {
        calls = []
        stage.screen.setTraits { [style] in $0[Sys.userInterfaceStyle] = .string(style) }
        style = style == "dark" ? "light" : "dark"
        try stage.world.update()
    }
}
