// swift-tools-version:5.9
import PackageDescription

// `traitlab swift import`: reads an app's Swift sources with swift-syntax and
// prints a TraitLab plugin. A package of its own, so that swift-syntax (a
// build of minutes) is resolved and built only by those who import Swift:
// the traitlab binary, its tests and its AddressSanitizer build never see it.
// `traitlab swift import` runs the `traitlab-swift-import` executable this
// package builds (scripts/build-swift-import.sh puts it beside traitlab).
let package = Package(
    name: "TraitLabSwiftImport",
    products: [
        .executable(name: "traitlab-swift-import", targets: ["traitlab-swift-import"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0"),
    ],
    targets: [
        .target(
            name: "TraitLabSwiftImport",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftIfConfig", package: "swift-syntax"),
            ]
        ),
        .executableTarget(
            name: "traitlab-swift-import",
            dependencies: ["TraitLabSwiftImport"]
        ),
        .testTarget(name: "TraitLabSwiftImportTests", dependencies: ["TraitLabSwiftImport"]),
    ],
    swiftLanguageVersions: [.v5]
)
