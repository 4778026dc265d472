// swift-tools-version: 6.2
import PackageDescription

// Module boundaries (docs/ARCHITECTURE.md): TincanCore imports no UI; only CursesBackend imports CNcursesw.
let package = Package(
    name: "Tincan",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tincan", targets: ["tincan"]),
        .library(name: "TincanCore", targets: ["TincanCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "TincanCore",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        .target(name: "TincanSessions", dependencies: ["TincanCore"]),
        .target(name: "TerminalUI"),
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        .target(name: "CursesBackend", dependencies: ["CNcursesw", "TerminalUI"]),
        .target(name: "TincanTUI", dependencies: ["TincanCore", "TincanSessions", "TerminalUI"]),
        .target(name: "TincanDemoServer", dependencies: ["TincanCore"]),
        .executableTarget(
            name: "tincan",
            dependencies: [
                "TincanCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "tincan-bench",
            dependencies: ["TincanCore", .product(name: "OrderedCollections", package: "swift-collections")],
            path: "Benchmarks/tincan-bench",
            exclude: []
        ),
        .target(name: "TestSupport", dependencies: ["TincanCore"], path: "Tests/TestSupport"),
        .testTarget(name: "TincanCoreTests", dependencies: ["TincanCore", "TestSupport"]),
        .testTarget(name: "TincanCLITests", dependencies: ["TincanCore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
