@testable import TraitEngine
import XCTest

/// Records what the world tells its delegate.
private final class RecordingDelegate: TraitWorldDelegate {
    var changes: [String] = []
    var lifecycle: [String] = []
    func environment(_ env: TraitEnvironment, owner: TraitEnvironment?, holds: Bool) {}
    func environmentDidUpdateTraits(_ env: TraitEnvironment) {}
    func environment(_ env: TraitEnvironment, traitCollectionDidChange previous: TraitCollection) throws {
        changes.append(env.name ?? env.className)
    }
    func environment(_ env: TraitEnvironment, lifecycle event: LifecycleEvent) throws {
        lifecycle.append("\(env.name ?? env.className).\(event)")
    }
}

/// A host that owns its world (the Lua binding) is its `owningDelegate`: the
/// world keeps no reference to it that counts (no weak one either, which would
/// slow every retain of the host), and calls go there instead of `delegate`.
final class DelegateTests: XCTestCase {
    func testTheOwningDelegateGetsTheCallbacksInsteadOfTheWeakOne() throws {
        let stage = try Stage()
        let owning = RecordingDelegate(), weak = RecordingDelegate()
        stage.world.delegate = weak
        stage.world.owningDelegate = owning
        let v = try stage.addView("card", to: stage.rootView)
        v.hostCallbacks = TraitEnvironment.hostTraitCollectionDidChange | LifecycleEvent.layoutSubviews.hostBit
        try stage.world.update()
        owning.lifecycle.removeAll()
        owning.changes.removeAll()   // (joining the window may change it)
        try stage.scene.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        try stage.world.update()
        XCTAssertEqual(owning.changes, ["card"])
        XCTAssertEqual(owning.lifecycle, [])   // (nothing read in layout: no layout needed)
        v.setNeedsLayout()
        try stage.world.update()
        XCTAssertEqual(owning.lifecycle, ["card.layoutSubviews"])
        XCTAssertEqual(weak.changes, [])
        XCTAssertEqual(weak.lifecycle, [])

        // Without an owning delegate, the weak one is used.
        stage.world.owningDelegate = nil
        try stage.scene.setTraitOverride(Sys.userInterfaceStyle, .string("light"))
        try stage.world.update()
        XCTAssertEqual(weak.changes, ["card"])
        // Tearing the world down forgets both.
        stage.world.tearDown()
        XCTAssertNil(stage.world.owningDelegate)
        XCTAssertNil(stage.world.delegate)
    }
}
