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
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .target(
            name: "TincanCore",
            dependencies: [
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .target(name: "TincanSessions", dependencies: ["TincanCore"]),
        .target(name: "TerminalUI"),
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        .target(name: "CursesBackend", dependencies: ["CNcursesw", "TerminalUI"]),
        .target(name: "TincanTUI", dependencies: ["TincanCore", "TincanSessions", "TerminalUI"]),
        .target(
            name: "TincanDemoServer",
            dependencies: [
                "TincanCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "tincan",
            dependencies: [
                "TincanCore",
                "TincanDemoServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "tincan-bench",
            dependencies: ["TincanCore", .product(name: "OrderedCollections", package: "swift-collections")],
            path: "Benchmarks/tincan-bench",
            exclude: []
        ),
        .target(name: "TestSupport", dependencies: ["TincanCore", "TincanDemoServer"], path: "Tests/TestSupport"),
        .testTarget(name: "TincanCoreTests", dependencies: ["TincanCore", "TestSupport"]),
        .testTarget(name: "TincanCLITests", dependencies: ["TincanCore", "TincanDemoServer", "TestSupport"]),
        .testTarget(name: "TincanIntegrationTests", dependencies: ["TincanCore", "TincanDemoServer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
