@testable import TraitEngine
import XCTest

// Shared fixtures: a ready-made hierarchy, recording subclasses and a seeded
// random generator, so each test file reads as the behaviour it checks.

typealias Sys = SystemTraits

let themeEnum = TraitEnum(name: "MyAppTheme", cases: ["standard", "pastel", "bold", "monochrome"])

/// A definition for tests; not registered anywhere unless the test does it.
func makeTrait(_ name: String, _ type: TraitValueType, default value: TraitValue, identifier: String? = nil,
               optional: Bool = false, affectsColorAppearance: Bool = false) throws -> TraitDefinition {
    try TraitDefinition(name: name, valueType: type, defaultValue: value, isOptional: optional,
                        identifier: identifier, affectsColorAppearance: affectsColorAppearance)
}

/// The message of a `TraitError`, or a note saying what else was thrown.
func message(of error: Error) -> String {
    (error as? TraitError)?.message ?? "not a TraitError: \(error)"
}

/// Device traits of a phone in light mode.
let phoneTraits = TraitCollection { t in
    t[Sys.userInterfaceIdiom] = .string("phone")
    t[Sys.userInterfaceStyle] = .string("light")
    t[Sys.horizontalSizeClass] = .string("compact")
    t[Sys.verticalSizeClass] = .string("regular")
    t[Sys.displayScale] = .number(3)
}

/// screen → window scene → window → root view controller (with its view), updated once.
final class Stage {
    let world = TraitWorld()
    let screen: Screen
    let scene: WindowScene
    let window: Window
    let root: ViewController
    var rootView: View { root.viewIfLoaded! }

    init(mode: HierarchyMode = .ios17, makeRoot: ((TraitWorld) -> ViewController)? = nil) throws {
        TestObserver.shared.worlds.append(world)
        world.hierarchyMode = mode
        screen = Screen(world: world, traits: phoneTraits)
        screen.name = "screen"
        scene = WindowScene(world: world, screen: screen)
        window = Window(world: world)
        window.setWindowScene(scene)
        root = makeRoot?(world) ?? ViewController(world: world)
        try window.setRootViewController(root)
        try world.update()
    }

    /// A plain view added under `parent`.
    @discardableResult
    func addView(_ name: String, to parent: View) throws -> View {
        let v = View(world: world)
        v.name = name
        try parent.addSubview(v)
        return v
    }
}

/// Watches the test run for the AddressSanitizer run (scripts/test-asan.sh).
///
/// - Each stage's world is torn down when its test ends: a world holds its
///   connected scenes and they hold the world, so a world nobody tears down
///   is never freed.
/// - The leak check runs when the last test has finished, while XCTest still
///   holds its test cases, instead of at exit: by then XCTest on Linux has
///   dropped them without freeing them, and everything they hold would be
///   reported. Without LeakSanitizer this does nothing.
final class TestObserver: NSObject, XCTestObservation {
    static let shared: TestObserver = {
        let observer = TestObserver()
        XCTestObservationCenter.shared.addTestObserver(observer)
        return observer
    }()
    var worlds: [TraitWorld] = []

    func testCaseDidFinish(_ testCase: XCTestCase) {
        for w in worlds { w.tearDown() }
        worlds.removeAll()
    }

    func testBundleDidFinish(_ testBundle: Bundle) {
        typealias LeakCheck = @convention(c) () -> Void
        // RTLD_DEFAULT: the sanitizer runtime linked into the test binary, if any.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__lsan_do_leak_check") else { return }
        unsafeBitCast(symbol, to: LeakCheck.self)()
    }
}

/// What callbacks ran, in order, as "name.callback".
final class Journal {
    private(set) var entries: [String] = []
    func record(_ entry: String) { entries.append(entry) }
    func clear() { entries.removeAll() }
    /// The entries that end with one of `callbacks`, in order.
    func only(_ callbacks: String...) -> [String] {
        entries.filter { e in callbacks.contains { e.hasSuffix("." + $0) } }
    }
}

struct CallbackFailure: Error, Equatable {
    let callback: String
}

/// A view that records its callbacks, remembers the collection each one saw,
/// and can be told to throw from a callback once.
final class RecordingView: View {
    let journal: Journal
    var failOnce: Set<String> = []
    var seen: [String: TraitCollection] = [:]
    var onLayout: ((RecordingView) -> Void)?
    var onDraw: ((RecordingView) -> Void)?

    init(world: TraitWorld, journal: Journal, name: String) {
        self.journal = journal
        super.init(world: world, className: "RecordingView")
        self.name = name
    }

    private func note(_ callback: String) throws {
        journal.record("\(name!).\(callback)")
        seen[callback] = traitCollection
        if failOnce.remove(callback) != nil { throw CallbackFailure(callback: callback) }
    }

    override func layoutSubviews() throws { try note("layoutSubviews"); onLayout?(self) }
    override func draw() throws { try note("draw"); onDraw?(self) }
    override func updateProperties() throws { try note("updateProperties") }
    override func traitCollectionDidChange(_ previous: TraitCollection) throws { try note("traitCollectionDidChange") }
}

/// A view controller that records its callbacks (its view is a `RecordingView`
/// named "<name>.view"), remembers the collection each one saw, and can be
/// told to throw from a callback once.
final class RecordingViewController: ViewController {
    let journal: Journal
    var failOnce: Set<String> = []
    var seen: [String: TraitCollection] = [:]

    init(world: TraitWorld, journal: Journal, name: String) {
        self.journal = journal
        super.init(world: world, className: "RecordingViewController")
        self.name = name
        makeView = { vc in RecordingView(world: vc.world, journal: journal, name: "\(name).view") }
    }

    var recordingView: RecordingView { viewIfLoaded as! RecordingView }

    private func note(_ callback: String) throws {
        journal.record("\(name!).\(callback)")
        seen[callback] = traitCollection
        if failOnce.remove(callback) != nil { throw CallbackFailure(callback: callback) }
    }

    override func viewDidLoad() throws { try note("viewDidLoad") }
    override func viewWillAppear() throws { try note("viewWillAppear") }
    override func viewIsAppearing() throws { try note("viewIsAppearing") }
    override func viewDidAppear() throws { try note("viewDidAppear") }
    override func viewWillDisappear() throws { try note("viewWillDisappear") }
    override func viewDidDisappear() throws { try note("viewDidDisappear") }
    override func viewWillLayoutSubviews() throws { try note("viewWillLayoutSubviews") }
    override func viewDidLayoutSubviews() throws { try note("viewDidLayoutSubviews") }
    override func traitCollectionDidChange(_ previous: TraitCollection) throws { try note("traitCollectionDidChange") }
}

/// SplitMix64: reproducible randomness for the fuzz-style tests.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
