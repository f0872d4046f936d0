// swift-tools-version:5.9
import PackageDescription

// Compiles the output of `traitlab swift export` the way an iOS 17 app
// would (`import UIKit`, `import SwiftUI`) and checks it, on Linux.
//
// UIKit and SwiftUI here are test-only modules of this fixture package,
// never products of TraitLab: they declare exactly the names the export uses,
// with Apple's signatures (UITraitDefinition, UITraitCollection,
// UIMutableTraits, EnvironmentKey, EnvironmentValues,
// UITraitBridgedEnvironmentKey), and store every value in TraitEngine's
// collections and environment values. Tests/cli/swift_export_test.sh writes
// Sources/ExportCheck/Exported.swift and builds and runs ExportCheck.
let package = Package(
    name: "SwiftExportCheck",
    dependencies: [.package(name: "TraitLab", path: "../..")],
    targets: [
        .target(name: "UIKit", dependencies: [.product(name: "TraitEngine", package: "TraitLab")]),
        .target(name: "SwiftUI", dependencies: ["UIKit", .product(name: "TraitEngine", package: "TraitLab")]),
        .executableTarget(name: "ExportCheck", dependencies: ["UIKit", "SwiftUI"]),
    ],
    swiftLanguageVersions: [.v5]
)
