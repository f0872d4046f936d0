@testable import TraitEngine
import XCTest

// docs/swiftui.md from Swift: environment keys and values, dependency tracking,
// hosting, representables and bridges.

private let themeTrait = try! makeTrait("MyAppTheme", .enumeration(themeEnum), default: .string("standard"))

/// The talk's key, bridged to `themeTrait` by its type.
private enum MyAppThemeKey: TraitBridgedEnvironmentKey {
    static let defaultValue: TraitValue = .string("standard")
    static let valueType: TraitValueType = .enumeration(themeEnum)
    static func read(from traitCollection: TraitCollection) -> TraitValue { traitCollection[themeTrait] }
    static func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws {
        try mutableTraits.set(themeTrait, value)
    }
}

/// A key that stays on the SwiftUI side.
private enum AccentKey: EnvironmentKey {
    static let defaultValue: TraitValue = .string("blue")
}

private typealias Keys = BuiltinEnvironmentKeys

/// A bridge made of closures, for failure cases.
private final class ClosureBridge: EnvironmentBridge {
    var read: (TraitCollection) throws -> TraitValue
    var write: (inout MutableTraits, TraitValue) throws -> Void
    init(read: @escaping (TraitCollection) throws -> TraitValue, write: @escaping (inout MutableTraits, TraitValue) throws -> Void) {
        self.read = read
        self.write = write
    }
    func read(from traitCollection: TraitCollection) throws -> TraitValue { try read(traitCollection) }
    func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws { try write(&mutableTraits, value) }
}

private struct Boom: Error {}

/// A view whose body returns what it read from `key`.
private func reader(_ name: String, _ key: EnvironmentKeyDefinition) throws -> SwiftUIView {
    try SwiftUIView(name: name) { env in env[key] }
}

final class SwiftUITests: XCTestCase {
    // MARK: Keys

    func testAKeyTypeNamesItsPropertyAndInfersItsType() {
        XCTAssertEqual(MyAppThemeKey.name, "myAppTheme")
        XCTAssertEqual(AccentKey.name, "accent")
        XCTAssertEqual(AccentKey.valueType, .string)
        XCTAssertTrue(MyAppThemeKey.definition === MyAppThemeKey.definition, "one definition per type")
        XCTAssertNotNil(MyAppThemeKey.definition.bridge)
        XCTAssertNil(AccentKey.definition.bridge)
    }

    func testTheRegistryKeepsNamesUniqueAndKnowsTheBridgedKeys() throws {
        let registry = EnvironmentKeyRegistry()
        XCTAssertEqual(registry.bridgedKeys.map(\.name), Keys.all.map(\.name))
        let theme = try registry.register(MyAppThemeKey.self)
        XCTAssertNoThrow(try registry.register(MyAppThemeKey.self), "registering the same key again is harmless")
        XCTAssertTrue(registry.key(named: "myAppTheme") === theme)
        XCTAssertTrue(registry.bridgedKeys.last === theme)
        let clash = try EnvironmentKeyDefinition(name: "myAppTheme", valueType: .string, defaultValue: .string("x"))
        XCTAssertThrowsError(try registry.register(clash)) { XCTAssertEqual(message(of: $0), "environment key 'myAppTheme' is already defined") }
        let builtin = try EnvironmentKeyDefinition(name: "colorScheme", valueType: .string, defaultValue: .string("x"))
        XCTAssertThrowsError(try registry.register(builtin))
        XCTAssertThrowsError(try EnvironmentKeyDefinition(name: "two words", valueType: .string, defaultValue: .string("")))
    }

    func testBridgingTwiceOrBridgingABuiltinKeyIsAnErrorAndChangesNothing() throws {
        let registry = EnvironmentKeyRegistry()
        let key = try EnvironmentKeyDefinition(name: "level", valueType: .integer, defaultValue: .int(0))
        try registry.register(key)
        let first = ClosureBridge(read: { _ in .int(1) }, write: { _, _ in })
        try registry.bridge(key, with: first)
        let generation = registry.generation
        XCTAssertThrowsError(try registry.bridge(key, with: ClosureBridge(read: { _ in .int(2) }, write: { _, _ in }))) {
            XCTAssertEqual(message(of: $0), "environment key 'level' is already bridged")
        }
        XCTAssertTrue(key.bridge === first)
        XCTAssertEqual(registry.generation, generation)
        XCTAssertThrowsError(try registry.bridge(Keys.colorScheme, with: first)) {
            XCTAssertEqual(message(of: $0), "environment key 'colorScheme' is built in and already bridged to the trait 'userInterfaceStyle'")
        }
        let stranger = try EnvironmentKeyDefinition(name: "stranger", valueType: .integer, defaultValue: .int(0))
        XCTAssertThrowsError(try registry.bridge(stranger, with: first))
    }

    // MARK: Values

    func testValuesAreImmutableSharedAndTypeChecked() throws {
        let env = try EnvironmentValues.empty.setting(Keys.colorScheme, .string("dark"))
        XCTAssertEqual(env[Keys.colorScheme], .string("dark"))
        XCTAssertEqual(EnvironmentValues.empty[Keys.colorScheme], .string("light"))
        XCTAssertTrue(try env.setting(Keys.colorScheme, .string("dark")) === env, "an unchanged copy is the same object")
        XCTAssertTrue(try env.setting(Keys.colorScheme, .string("light")).entries.isEmpty, "defaults are not stored")
        XCTAssertThrowsError(try env.setting(Keys.colorScheme, .string("sepia"))) {
            XCTAssertEqual(message(of: $0), "environment key 'colorScheme' has no case 'sepia' (valid cases of ColorScheme: light, dark)")
        }
        XCTAssertThrowsError(try env.setting(Keys.displayScale, .string("2"))) {
            XCTAssertEqual(message(of: $0), "environment key 'displayScale' expects a number, got the string \"2\"")
        }
        XCTAssertEqual(try env.setting(Keys.displayScale, .int(2))[Keys.displayScale], .number(2))
        XCTAssertEqual(try env.setting(Keys.horizontalSizeClass, .none)[Keys.horizontalSizeClass], .none)
        let other = try env.setting(AccentKey.definition, .string("red"))
        XCTAssertEqual(other.changedKeys(from: env), [AccentKey.definition])
        XCTAssertEqual(env[AccentKey.self], .string("blue"))
        XCTAssertEqual(other.description, "EnvironmentValues(colorScheme = \"dark\", accent = \"red\")")
    }

    func testBuiltinKeysReadSystemTraitsWithSwiftUINames() throws {
        let tc = TraitCollection { t in
            t[Sys.userInterfaceStyle] = .string("dark")
            t[Sys.preferredContentSizeCategory] = .string("extraExtraLarge")
            t[Sys.accessibilityContrast] = .string("high")
            t[Sys.horizontalSizeClass] = .string("regular")
            t[Sys.displayScale] = .number(2)
        }
        let env = try EnvironmentValues.bridged(from: tc, keys: Keys.all)
        XCTAssertEqual(env[Keys.colorScheme], .string("dark"))
        XCTAssertEqual(env[Keys.dynamicTypeSize], .string("xxLarge"))
        XCTAssertEqual(env[Keys.colorSchemeContrast], .string("increased"))
        XCTAssertEqual(env[Keys.horizontalSizeClass], .string("regular"))
        XCTAssertEqual(env[Keys.verticalSizeClass], .none, "unspecified reads as nil")
        XCTAssertEqual(env[Keys.displayScale], .number(2))
        let unspecified = try EnvironmentValues.bridged(from: .empty, keys: Keys.all)
        XCTAssertTrue(unspecified.entries.isEmpty, "unspecified traits read as SwiftUI's defaults")
    }

    func testEnvironmentBecomesTraitOverridesOnlyWhereItDiffers() throws {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("light") }
        let keys = Keys.all + [MyAppThemeKey.definition]
        let base = try EnvironmentValues.bridged(from: tc, keys: keys)
        XCTAssertEqual(try base.traitOverrides(over: tc, hostEnvironment: base, keys: keys), [])
        let env = try base.setting(Keys.colorScheme, .string("dark")).setting(MyAppThemeKey.definition, .string("bold"))
            .setting(AccentKey.definition, .string("red"))
        let overrides = try env.traitOverrides(over: tc, hostEnvironment: base, keys: keys)
        XCTAssertEqual(Set(overrides.map(\.definition.name)), ["UserInterfaceStyle", "MyAppTheme"], "the unbridged key stays")
        XCTAssertEqual(overrides.first { $0.definition === themeTrait }?.value, .string("bold"))
    }

    func testABridgeThatReadsAWrongValueIsAnErrorNamingTheKey() throws {
        let key = try EnvironmentKeyDefinition(name: "level", valueType: .integer, defaultValue: .int(0))
        key.bridge = ClosureBridge(read: { _ in .string("two") }, write: { _, _ in })
        XCTAssertThrowsError(try EnvironmentValues.bridged(from: .empty, keys: [key])) {
            XCTAssertEqual(message(of: $0), "the bridge of environment key 'level' read the string \"two\", but the key expects an integer")
        }
    }

    // MARK: Views and dependency tracking

    func testContentBelongsToOneParent() throws {
        let child = try SwiftUIView(name: "child")
        let parent = try SwiftUIView(name: "parent", content: [child])
        XCTAssertTrue(child.parent === parent)
        XCTAssertThrowsError(try SwiftUIView(content: [child])) {
            XCTAssertEqual(message(of: $0), "content item 1 (View \"child\") is already content of View \"parent\"")
        }
        let loose = try SwiftUIView()
        XCTAssertThrowsError(try SwiftUIView(content: [loose, loose]))
        XCTAssertNil(loose.parent, "a refused view is left as it was")
    }

    func testBodyRunsWhenFirstHostedAndAgainOnlyForValuesItRead() throws {
        let s = try Stage()
        try s.world.environmentKeys.register(MyAppThemeKey.self)
        let cell = try reader("cell", MyAppThemeKey.definition)
        let view = try s.addView("cell", to: s.rootView)
        try view.setContentConfiguration(HostingConfiguration(rootView: cell))
        XCTAssertEqual(cell.bodyCount, 0, "nothing runs before the update")
        try s.world.update()
        XCTAssertEqual(cell.bodyCount, 1)
        XCTAssertEqual(cell.rendered as? TraitValue, .string("standard"))
        XCTAssertEqual(cell.dependencies, [MyAppThemeKey.definition])

        try s.scene.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        try s.world.update()
        XCTAssertEqual(cell.environment[Keys.colorScheme], .string("dark"))
        XCTAssertEqual(cell.bodyCount, 1, "a value the body never read does not re-run it")

        try s.scene.setTraitOverride(themeTrait, .string("monochrome"))
        try s.world.update()
        XCTAssertEqual(cell.bodyCount, 2)
        XCTAssertEqual(cell.rendered as? TraitValue, .string("monochrome"))
    }

    func testModifiersApplyToContentNearestLast() throws {
        let s = try Stage()
        let leaf = try reader("leaf", AccentKey.definition)
        let middle = try SwiftUIView(name: "middle", content: [leaf])
        let top = try SwiftUIView(name: "top", content: [middle])
        try top.environment(AccentKey.self, .string("red"))
        let host = try HostingController(world: s.world, rootView: top)
        try s.root.addChild(host)
        try s.rootView.addSubview(host.loadViewIfNeeded())
        try s.world.update()
        XCTAssertEqual(leaf.rendered as? TraitValue, .string("red"))
        try middle.environment(AccentKey.self, .string("green"))
        try s.world.update()
        XCTAssertEqual(leaf.rendered as? TraitValue, .string("green"))
        XCTAssertEqual(leaf.bodyCount, 2)
        XCTAssertTrue(middle.environment === leaf.environment, "a view without modifiers shares its parent's values")
        XCTAssertThrowsError(try leaf.environment(Keys.colorScheme, .int(1)))
        XCTAssertTrue(leaf.modifiers.isEmpty)
    }

    func testAViewIsHostedInOnePlaceAtATime() throws {
        let s = try Stage()
        let cell = try SwiftUIView(name: "cell")
        let host = try HostingController(world: s.world, rootView: cell)
        XCTAssertThrowsError(try HostingConfiguration(rootView: cell)) {
            XCTAssertEqual(message(of: $0), "cannot host View \"cell\": it is already hosted")
        }
        try host.setRootView(nil)
        XCTAssertFalse(cell.isHosted)
        let configuration = try HostingConfiguration(rootView: cell)
        let a = View(world: s.world), b = View(world: s.world)
        try a.setContentConfiguration(configuration)
        XCTAssertThrowsError(try b.setContentConfiguration(configuration))
        XCTAssertNil(b.contentConfiguration)
        XCTAssertThrowsError(try host.loadViewIfNeeded().setContentConfiguration(HostingConfiguration(rootView: SwiftUIView())))
    }

    // MARK: Representables and the update order

    func testRepresentableContentInheritsTheEnvironmentAsTraits() throws {
        let s = try Stage()
        try s.world.environmentKeys.register(MyAppThemeKey.self)
        let settings = ViewController(world: s.world)
        var made = 0, updated: [TraitValue] = []
        let rep = Representable(makeViewController: { _ in made += 1; return settings },
                                updateViewController: { _, context in updated.append(context.environment[MyAppThemeKey.self]) })
        let top = try SwiftUIView(name: "Settings", content: [rep])
        try top.environment(MyAppThemeKey.self, .string("standard")).environment(Keys.colorScheme, .string("dark"))
        try s.scene.setTraitOverride(themeTrait, .string("pastel"))
        let host = try HostingController(world: s.world, rootView: top)
        try s.window.setRootViewController(host)
        try s.world.update()
        XCTAssertEqual(made, 1)
        XCTAssertTrue(rep.root === settings)
        XCTAssertTrue(settings.parent === host)
        XCTAssertEqual(settings.traitCollection[themeTrait], .string("standard"))
        XCTAssertEqual(settings.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(updated, [.string("standard")])

        try top.environment(MyAppThemeKey.self, .string("bold"))
        try s.world.update()
        XCTAssertEqual(settings.traitCollection[themeTrait], .string("bold"))
        XCTAssertEqual(updated, [.string("standard"), .string("bold")])
        XCTAssertEqual(made, 1)

        try host.setRootView(nil)
        XCTAssertNil(settings.parent)
        XCTAssertFalse(settings.containsTraitOverride(themeTrait), "the content leaves without the carried overrides")
    }

    func testOrderIsAncestorsThenHostedViewsThenRepresentableContent() throws {
        let journal = Journal()
        let s = try Stage()
        try s.world.environmentKeys.register(MyAppThemeKey.self)
        let content = RecordingViewController(world: s.world, journal: journal, name: "content")
        let rep = Representable(makeViewController: { _ in content })
        let top = try SwiftUIView(name: "top", content: [rep]) { env in
            journal.record("top.body \(describe(env[MyAppThemeKey.self]))")
            return nil
        }
        let hostView = RecordingView(world: s.world, journal: journal, name: "host")
        try s.rootView.addSubview(hostView)
        try hostView.setContentConfiguration(HostingConfiguration(rootView: top))
        try s.world.update()
        journal.clear()
        try s.scene.setTraitOverride(themeTrait, .string("monochrome"))
        try s.world.update()
        XCTAssertEqual(journal.entries.filter { !$0.contains("layout") && !$0.contains("draw") }, [
            "host.traitCollectionDidChange", "top.body \"monochrome\"", "content.traitCollectionDidChange",
            "content.view.traitCollectionDidChange",
        ])
        XCTAssertEqual(content.traitCollection[themeTrait], .string("monochrome"))
    }

    func testAFailingWriteAppliesNothingAndTheNextUpdateWorks() throws {
        let s = try Stage()
        let key = try EnvironmentKeyDefinition(name: "mode", valueType: .string, defaultValue: .string("off"))
        let modeTrait = try makeTrait("Mode", .string, default: .string("off"))
        try s.world.environmentKeys.register(key)
        try s.world.environmentKeys.bridge(key, with: ClosureBridge(read: { $0[modeTrait] }, write: { m, v in
            if v == .string("broken") { throw Boom() }
            try m.set(modeTrait, v)
        }))
        let content = ViewController(world: s.world)
        let rep = Representable(makeViewController: { _ in content })
        try rep.environment(key, .string("on"))
        let host = try HostingController(world: s.world, rootView: rep)
        try s.window.setRootViewController(host)
        try s.world.update()
        XCTAssertEqual(content.traitCollection[modeTrait], .string("on"))

        try rep.environment(key, .string("broken"))
        try rep.environment(Keys.colorScheme, .string("dark"))
        XCTAssertThrowsError(try s.world.update()) { error in
            XCTAssertTrue(error is BridgeError)
            XCTAssertTrue("\(error)".hasPrefix("the bridge of environment key 'mode' failed to write"))
        }
        XCTAssertEqual(rep.environment[key], .string("on"), "the environment was not applied")
        XCTAssertEqual(content.traitOverride(modeTrait), .string("on"))
        XCTAssertFalse(content.containsTraitOverride(Sys.userInterfaceStyle))
        XCTAssertNoThrow(try s.world.update())
        try rep.environment(key, .string("fixed"))
        try s.world.update()
        XCTAssertEqual(content.traitCollection[modeTrait], .string("fixed"))
        XCTAssertEqual(content.traitCollection[Sys.userInterfaceStyle], .string("dark"))
    }

    func testBridgingAKeyLaterUpdatesHostedViews() throws {
        let s = try Stage()
        let key = try EnvironmentKeyDefinition(name: "late", valueType: .string, defaultValue: .string("none"))
        try s.world.environmentKeys.register(key)
        let cell = try reader("cell", key)
        let host = try HostingController(world: s.world, rootView: cell)
        try s.window.setRootViewController(host)
        try s.world.update()
        XCTAssertEqual(cell.rendered as? TraitValue, .string("none"))
        try s.world.environmentKeys.bridge(key, with: ClosureBridge(read: { _ in .string("bridged") }, write: { _, _ in }))
        try s.world.update()
        XCTAssertEqual(cell.rendered as? TraitValue, .string("bridged"))
    }

    func testAHostReleasesItsViewsAndContent() throws {
        let s = try Stage()
        weak var weakHost: HostingController?
        weak var weakContent: ViewController?
        weak var weakView: SwiftUIView?
        try {
            let content = ViewController(world: s.world)
            let rep = Representable(makeViewController: { _ in content })
            let top = try SwiftUIView(name: "top", content: [rep]) { _ in nil }
            let host = try HostingController(world: s.world, rootView: top)
            try s.window.setRootViewController(host)
            try s.world.update()
            weakHost = host
            weakContent = content
            weakView = top
            try s.window.setRootViewController(nil)
        }()
        try s.world.update()
        XCTAssertNil(weakHost)
        XCTAssertNil(weakContent)
        XCTAssertNil(weakView)
    }
}
