// swift-tools-version:5.9
import PackageDescription

// Dependencies run one way (docs/contributing.md, "Where things are"):
//   TraitEngine (pure Swift)      CLua + CLuaShim (C)
//                 \                /        \
//                  TraitLabLua (bindings)   CSpecRunner (the test runner's C)
//                 /        \               /
//   TraitLabModule         TraitLabTestRunner (traitlab test)
//   (traitlab.so)                  \
//                                  traitlab (command line, with TraitLabSwiftExport)
// The Lua the bindings and the test runner carry (lua/*.lua) is compiled in
// by the EmbedLua build-tool plugin.
// Release builds of the host and the command line call type metadata accessors
// directly instead of demangling type names at run time (the first use of each
// generic type was a tenth of start-up; docs/performance.md).
let directMetadata: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
]

let package = Package(
    name: "TraitLab",
    products: [
        .library(name: "TraitEngine", targets: ["TraitEngine"]),
        .executable(name: "traitlab", targets: ["traitlab"]),
        .library(name: "TraitLabModule", type: .dynamic, targets: ["TraitLabModule"]),
    ],
    dependencies: [
        // `swift package generate-documentation --target TraitEngine` (the
        // DocC catalogue in Sources/TraitEngine/TraitEngine.docc); no target
        // depends on it, so it adds nothing to a build.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "TraitEngine",
            swiftSettings: directMetadata,
            // Rounding (`rounded()`, `.down`) calls libm's round, trunc and floor,
            // which Linux keeps out of libc; nothing in the engine imports Glibc
            // (whose module map would link it), so a package using the engine
            // alone failed to link without this.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux, .android]))]
        ),
        .systemLibrary(
            name: "CLua",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        .target(
            name: "CLuaShim",
            dependencies: ["CLua"]
        ),
        // The C side of `traitlab test`'s runner: it registers an interrupt
        // policy with the shim (which knows nothing of busted).
        .target(name: "CSpecRunner", dependencies: ["CLuaShim"]),
        .target(
            name: "TraitLabLua",
            dependencies: ["TraitEngine", "CLua", "CLuaShim"],
            exclude: ["lua"],
            swiftSettings: directMetadata,
            // Its Lua sources (lua/*.lua) are compiled in: a change to one rebuilds.
            plugins: ["EmbedLua"]
        ),
        // `traitlab test`: busted run inside the host (SpecRunner and the
        // driver's Lua parts, lua/busted*.lua).
        .target(
            name: "TraitLabTestRunner",
            dependencies: ["TraitLabLua", "TraitEngine", "CLua", "CLuaShim", "CSpecRunner"],
            exclude: ["lua"],
            swiftSettings: directMetadata,
            plugins: ["EmbedLua"]
        ),
        // Compiles each Lua file with this build's Lua (the bytecode is
        // embedded beside the source).
        .executableTarget(name: "embed-lua", dependencies: ["CLua"], path: "Sources/embed-lua",
                          linkerSettings: [.linkedLibrary("lua5.4")]),
        .plugin(name: "EmbedLua", capability: .buildTool(), dependencies: ["embed-lua"]),
        .executableTarget(
            name: "traitlab",
            dependencies: ["TraitLabLua", "TraitLabTestRunner", "CLuaShim", "CEditLine", "TraitLabSwiftExport"],
            swiftSettings: directMetadata,
            linkerSettings: [
                .linkedLibrary("lua5.4"),
                // Linking the Swift runtime in halves start-up (no loading and
                // relocating its libraries at every run), and libstdc++, which
                // it needs, with it (scripts/link/libstdc++.so); see docs/performance.md.
                .unsafeFlags(["-static-stdlib", "-L", Context.packageDirectory + "/scripts/link"],
                             .when(configuration: .release)),
                // libgcc's unwinder linked in too (-static-libgcc): one shared
                // object fewer to find, map and relocate at every start, 8% of
                // the time of `traitlab -e ''` (docs/performance.md).
                // A position-dependent executable: its ~21,000 relative
                // relocations (Swift's metadata) are resolved when it is
                // linked, not written at every start (a quarter of the page
                // faults of `traitlab -e ''`; docs/performance.md).
                .unsafeFlags(["-Xclang-linker", "-no-pie", "-Xclang-linker", "-static-libgcc"], .when(platforms: [.linux], configuration: .release)),
            ]
        ),
        // `traitlab swift export`: Swift source from run-time definitions.
        .target(name: "TraitLabSwiftExport", dependencies: ["TraitEngine"]),
        // libedit's readline interface, loaded by the REPL when it starts
        // (libedit2, which Debian's libedit-dev brings), not linked.
        .target(name: "CEditLine", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "CTraitLabModule",
            dependencies: ["CLuaShim"]
        ),
        .target(
            name: "TraitLabModule",
            dependencies: ["TraitLabLua", "CTraitLabModule"]
        ),
        // What the public Lua C API costs at least, with no TraitLab code:
        // the floors the benchmark prints beside two targets.
        .target(name: "CBenchFloors", dependencies: ["CLua"], path: "Benchmarks/floors"),
        // Prints figures against the performance targets (docs/performance.md).
        .executableTarget(
            name: "traitlab-bench",
            dependencies: ["TraitEngine", "TraitLabLua", "CBenchFloors"],
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
            dependencies: ["TraitLabLua", "CLua", "CLuaShim", "CSpecRunner"],
            linkerSettings: [.linkedLibrary("lua5.4")]
        ),
    ],
    swiftLanguageVersions: [.v5]
)
