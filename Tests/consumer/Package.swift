// swift-tools-version:5.9
import PackageDescription

// docs/swift-library.md's package, using this repository as a package outside
// it would. Tests/cli/consumer_test.sh checks that this manifest is the
// guide's (with the path below in place of "../TraitLab"), writes the guide's
// Swift blocks to Sources/MyApp/main.swift, then builds and runs it.
// `name:` gives the dependency the name the guide uses whatever the clone's
// folder is called (a path dependency is otherwise named after its folder).
let package = Package(
    name: "MyApp",
    dependencies: [
        .package(name: "TraitLab", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "MyApp", dependencies: [
            .product(name: "TraitEngine", package: "TraitLab"),
        ]),
    ]
)
