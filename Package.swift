// swift-tools-version:5.9
import PackageDescription

// Dependencies run one way:
//   TraitEngine (pure Swift)      CLua + CLuaShim (C)
//                 \                /
//                  TraitLabLua (bindings)
//                 /                \
//   traitlab (command line)        TraitLabModule (traitlab.so for lua5.4)
let package = Package(
    name: "TraitLab",
    products: [
        .library(name: "TraitEngine", targets: ["TraitEngine"]),
        .executable(name: "traitlab", targets: ["traitlab"]),
        .library(name: "TraitLabModule", type: .dynamic, targets: ["TraitLabModule"]),
    ],
    targets: [
        .target(name: "TraitEngine"),
        .systemLibrary(
            name: "CLua",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        .target(
            name: "CLuaShim",
            dependencies: ["CLua"],
            exclude: ["lua"]
        ),
        .target(
            name: "TraitLabLua",
            dependencies: ["TraitEngine", "CLua", "CLuaShim"]
        ),
        .executableTarget(
            name: "traitlab",
            dependencies: ["TraitLabLua", "CLuaShim", "CEditLine", "TraitLabSwiftExport"],
            linkerSettings: [
                .linkedLibrary("lua5.4"), .linkedLibrary("edit"),
                // Linking the Swift runtime in halves start-up (no loading and
                // relocating its libraries at every run); see docs/performance.md.
                .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
            ]
        ),
        // `traitlab swift export`: Swift source from run-time definitions.
        .target(name: "TraitLabSwiftExport", dependencies: ["TraitEngine"]),
        .systemLibrary(
            name: "CEditLine",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(
            name: "CTraitLabModule",
            dependencies: ["CLuaShim"]
        ),
        .target(
            name: "TraitLabModule",
            dependencies: ["TraitLabLua", "CTraitLabModule"]
        ),
        // Prints figures against the performance targets (docs/performance.md).
        .executableTarget(
            name: "traitlab-bench",
            dependencies: ["TraitEngine", "TraitLabLua"],
            path: "Benchmarks/traitlab-bench",
            linkerSettings: [.linkedLibrary("lua5.4")]
        ),
        .testTarget(
            name: "TraitEngineTests",
            dependencies: ["TraitEngine"]
        ),
        .testTarget(name: "TraitLabSwiftExportTests", dependencies: ["TraitLabSwiftExport"]),
        .testTarget(
            name: "TraitLabLuaTests",
            dependencies: ["TraitLabLua", "CLua", "CLuaShim"],
            linkerSettings: [.linkedLibrary("lua5.4")]
        ),
    ],
    swiftLanguageVersions: [.v5]
)
