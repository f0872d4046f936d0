#if canImport(Glibc)
import Glibc
#endif
import SwiftUI
import UIKit

// Checks, in Swift, the export of examples/plugins/theme.lua,
// examples/plugins/featureflags.lua and Tests/fixtures/swift/kinds.lua
// (Exported.swift beside this file, written by Tests/cli/swift_export_test.sh):
// each trait's default, name, identifier and flag, the property syntax on
// UITraitCollection and UIMutableTraits, the enums' cases and raw values, and
// the bridges, run through TraitEngine as a hosting controller would.
// The pattern checked is WWDC23 "Unleash the UIKit trait system" (10057) and
// Apple's "Providing data to the view hierarchy with custom traits".

var passed = 0, failed = 0

func check(_ ok: @autoclosure () throws -> Bool, _ what: String, line: Int = #line) {
    let result: Bool
    do { result = try ok() } catch { result = false; print("  error: \(error)") }
    if result {
        passed += 1
        print("ok - \(what)")
    } else {
        failed += 1
        print("not ok - \(what) (main.swift:\(line))")
    }
}

// Named colours and images, from kinds.lua: a system colour, a colour set, an image set.
check(CardTintTrait.defaultValue == UIColor.systemIndigo && BrandTrait.defaultValue == UIColor(named: "Brand/Accent")!,
      "colour traits' defaults: UIColor.systemIndigo and UIColor(named:)")
check(HeroTrait.defaultValue == UIImage(named: "Hero")!, "an image trait's default: UIImage(named:)")
let tinted = UITraitCollection { $0.cardTint = .systemBackground; $0.hero = UIImage(named: "Banner")! }
check(tinted.cardTint == .systemBackground && tinted.hero._name == "Banner" && tinted.brand._name == "Brand/Accent",
      "colour and image traits set and read through their properties")

// The talk's theme trait, from examples/plugins/theme.lua.
check(MyAppTheme.allCases.map(\.rawValue) == ["standard", "pastel", "bold", "monochrome"], "MyAppTheme's cases, in order, as raw values")
check(ThemeTrait.defaultValue == .standard, "ThemeTrait.defaultValue is .standard")
check(ThemeTrait.name == "Theme", "ThemeTrait.name is the plugin's name")
check(ThemeTrait.identifier == "com.example.theme", "ThemeTrait.identifier")
check(ThemeTrait.affectsColorAppearance, "ThemeTrait affects color appearance")
check(UITraitCollection().myAppTheme == .standard, "an empty collection reads the default through the property")
let themed = UITraitCollection { $0.myAppTheme = .pastel }
check(themed.myAppTheme == .pastel && themed[ThemeTrait.self] == .pastel, "UIMutableTraits setter, UITraitCollection getter and subscript agree")
check(themed.modifyingTraits { $0.myAppTheme = .bold }.myAppTheme == .bold, "modifyingTraits through the property")

// The feature flag, from examples/plugins/featureflags.lua.
check(NewCheckoutEnabledTrait.defaultValue == false, "NewCheckoutEnabledTrait.defaultValue is false")
check(NewCheckoutEnabledTrait.identifier == "com.example.feature.newCheckout", "NewCheckoutEnabledTrait.identifier")
check(NewCheckoutEnabledTrait.name == "NewCheckoutEnabled", "NewCheckoutEnabledTrait.name")
check(!NewCheckoutEnabledTrait.affectsColorAppearance, "a flag left unset is UIKit's default, false")
check(UITraitCollection { $0.newCheckoutEnabled = true }.newCheckoutEnabled, "newCheckoutEnabled property syntax")

// kinds.lua: enums whose cases need a Swift spelling keep their Lua values as raw values.
check(ColorGamut.allCases.map(\.rawValue) == ["SRGB", "display P3", "default", "1x"], "ColorGamut's raw values are the Lua cases")
check(ColorGamut.displayP3.rawValue == "display P3" && ColorGamut.default.rawValue == "default" && ColorGamut._1x.rawValue == "1x",
      "case names: words joined, a keyword in backticks, a leading digit prefixed")
check(GamutTrait.defaultValue == .displayP3 && GamutTrait.name == "Gamut", "GamutTrait's default is an enum case")
check(UITraitCollection { $0.gamut = .default }.gamut == .default, "gamut property syntax")

check(Density.allCases == [.compact, .regular, .spacious], "Density's cases")
check(DensityTrait.defaultValue == .regular && DensityTrait.identifier == "com.example.density", "DensityTrait default and identifier")

check(CornerRadiusTrait.defaultValue == 8.5 && CornerRadiusTrait.affectsColorAppearance, "a number trait is a Double; its flag is kept")
check(CornerRadiusTrait.name == "Corner radius", "a name that is not a type name is kept in `name`")
check(UITraitCollection { $0.cornerRadius = 12 }.cornerRadius == 12, "cornerRadius property syntax")

check(BadgeCountTrait.defaultValue == 3 && BadgeCountTrait.identifier == "com.example.badge", "an integer trait is an Int")
check(GreetingTrait.defaultValue == "Hello, \"world\"\n\t\u{7}", "a string default with quotes and control characters survives")

check(AccountIDTrait.defaultValue == nil && UITraitCollection().accountID == nil, "an optional trait is an optional type, nil by default")
check(UITraitCollection { $0.accountID = "A-1" }.accountID == "A-1", "accountID property syntax")

check(FeatureOneTrait.defaultValue == false && FeatureOneTrait.name == "FeatureOneTrait", "a name ending in Trait is the type name; no `name` line needed")
check(UITraitCollection { $0.featureOne = true }.featureOne, "featureOne property syntax")
check(UITraitCollection { $0.repeat = false }.repeat == false && RepeatTrait.defaultValue, "a keyword property is declared in backticks")

// A table trait is a struct with the default's fields.
let insets = InsetsTrait.defaultValue
check(insets == Insets(enabled: true, label: "x", left: 2.5, top: 1), "the table default is the struct's memberwise value")
var wider = insets
wider.left = 10
check(UITraitCollection { $0.insets = wider }.insets == wider, "a struct value round-trips through a collection")
check(UITraitCollection().insets == insets, "the struct default reads back")

// Environment keys and bridges.
var env = EnvironmentValues()
check(env.density == .compact && env.badgeCount == 0 && env.tint == "blue" && env.doubled == 0, "keys' defaults through EnvironmentValues properties")
env.tint = "red"
check(env.tint == "red", "EnvironmentValues setter")
func isBridged(_ key: Any.Type) -> Bool { key is any UITraitBridgedEnvironmentKey.Type }
check(isBridged(DensityKey.self) && isBridged(BadgeCountKey.self), "bridged keys conform to UITraitBridgedEnvironmentKey")
check(!isBridged(TintKey.self), "an unbridged key stays on the SwiftUI side")
check(!isBridged(DoubledKey.self), "a bridge that is no plain property mapping is left out")

let bridged: [any UITraitBridgedEnvironmentKey.Type] = [DensityKey.self, BadgeCountKey.self]
let host = UITraitCollection { $0.density = .spacious; $0.badgeCount = 7 }
let hosted = try _Bridging.environment(hostedIn: host, keys: bridged)
check(hosted.density == .spacious && hosted.badgeCount == 7, "a hosted view reads the traits through read(from:)")
check(try _Bridging.environment(hostedIn: UITraitCollection(), keys: bridged).density == .regular,
      "with no override the view sees the trait's default, not the key's")
var inner = EnvironmentValues()
inner.density = .compact
inner.badgeCount = 42
let carried = try _Bridging.traits(carrying: inner, over: host, keys: bridged)
check(carried.density == .compact && carried.badgeCount == 42, "UIKit content inside SwiftUI gets the values through write(to:value:)")

// hostile.lua: names and values a careless writer would get wrong.
check(SelfValue.allCases.map(\.rawValue) == ["init", "self", "rawValue", "allCases", "a b", "a_b", "aB", "Type"],
      "an enum named Self, with cases that shadow enum members or collide once spelled in Swift, keeps every Lua case")
check(SelfValue.aB.rawValue == "a b" && SelfValue.aB2.rawValue == "aB" && SelfValue.`self`.rawValue == "self", "colliding case names get numbered")
check(UnnamedTrait.defaultValue == .aB && UnnamedTrait.name == "!!!", "a punctuation-only name")
check(ClassTrait.defaultValue == Int.min && ClassTrait.name == "class", "math.mininteger is Int.min; a keyword name")
check(TypeTrait.defaultValue == 0 && TypeTrait.defaultValue.sign == .minus, "-0.0 keeps its sign")
// (Infinities and NaN are no trait values: definitions refuse them.)
check(_123GoTrait.defaultValue == 1e300 && TinyTrait.defaultValue == 5e-324, "huge and tiny numbers")
check(TextTrait.defaultValue == "\0\"\\\n\u{200B}\u{1F600}\u{7F}${x}\\(y)", "a string with NUL, escapes, invisible characters and interpolation-like text")
check(UITraitCollection { $0.self_ = false }.self_ == false, "a property named self_")
check(OptionalOddTrait.defaultValue == nil && UITraitCollection { $0.optionalOdd = .Type }.optionalOdd == .Type, "an optional enum trait")
var odd = EnvironmentValues()
check(odd.in == nil, "a key named `in`, optional, nil by default")
let oddHost = UITraitCollection { $0.optionalOdd = .initCase }
check(try _Bridging.environment(hostedIn: oddHost, keys: [InKey.self]).in == .initCase, "an optional bridged key reads through its trait")
odd.in = .a_b
check(try _Bridging.traits(carrying: odd, over: UITraitCollection(), keys: [InKey.self]).optionalOdd == .a_b, "and writes through it")

// hostile.lua: type names the exported file itself uses.
check(EnvironmentValueKey.defaultValue == ValueValue.low && LevelTrait.defaultValue == .low,
      "a key named environment is EnvironmentValueKey (not EnvironmentKey), an enum named Value is ValueValue")
check(isBridged(EnvironmentValueKey.self) && UITraitBridgedEnvironmentValueKey.defaultValue == 0,
      "the key still conforms to the protocols it would have shadowed")
var environmentHost = EnvironmentValues()
environmentHost.environment = .high
check(try _Bridging.traits(carrying: environmentHost, over: UITraitCollection(), keys: [EnvironmentValueKey.self]).level == .high,
      "and its bridge writes its trait")

print("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
