// swift-tools-version: 6.2
import PackageDescription

// Module boundaries (docs/ARCHITECTURE.md): TincanCore imports no UI; only CursesBackend imports CNcursesw.

/// libxml2's headers (Debian's libxml2-dev) are in a `libxml2/` folder of their own, which no
/// search path names. pkg-config would name it, but would link libxml2 too, and it is opened at
/// run time instead (CLibXML2).
let libxml2Headers = (c: CSetting.unsafeFlags(["-I/usr/include/libxml2"]),
                      swift: SwiftSetting.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"]))
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
        // Pinned: the transport works around behaviour of this exact version, and an upgrade must
        // re-check each workaround before it moves (docs/ARCHITECTURE.md, "The transport"):
        // AbsoluteFormWriter (every proxied request tunnelled with CONNECT), the one event loop
        // (`.delegateAndChannel(on:)` opened a second connection), the early response held back
        // from the body stream, and the stream failed first on a timeout or cancel.
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Already in the graph through AsyncHTTPClient and Hummingbird; named because Tincan imports them
        // (swift-nio-extras for the HTTP parts the demo server's connection handler sees).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // HTTP/2 frames, for the connection guard that ends a connection at its first connection error.
        // Pinned: HTTP2ReadAligner (the frame decoder's buffer kept until a read ends on a frame
        // boundary) and HTTP2ConnectionGuard (a connection error answered with GOAWAY but the
        // connection kept) work around this exact version; re-check both before moving.
        .package(url: "https://github.com/apple/swift-nio-http2", exact: "1.46.0"),
        // Hummingbird's service runner: the demo server stops gracefully through its ServiceGroup.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // Theme, keymap and config files (and saved sessions, issue 6).
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The demo server's /graphql: parsing, validation, execution and introspection.
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
        // WebSocket (issue 39 §3): the client (`WSClient`, in TincanCore's WebSocket/) and the demo
        // server's /ws echo (`HummingbirdWebSocket`).
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Tests only: TestClock, so OAuth 2.0's polling and token expiry are tested by advancing time.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    ],
    targets: [
        .target(
            name: "TincanCore",
            dependencies: [
                "CZlib",
                "CLibXML2",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The TLS handshake's completion, which TLSDiagnosis.alert waits for.
                .product(name: "NIOTLS", package: "swift-nio"),
                // HTTP2ConnectionGuard: GOAWAY and connection errors, the header list size setting.
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Reads a refused certificate's names and dates, to say why it was refused.
                .product(name: "X509", package: "swift-certificates"),
                // `WebSocket/`: the client's connection (WSClient), the conversation (WSCore's
                // handler), and the channel Tincan sets up for it: the proxy's CONNECT tunnel
                // (NIOExtras) or SOCKS5 (NIOSOCKS), TLS, the upgrade (NIOWebSocket).
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOSOCKS", package: "swift-nio-extras"),
            ],
            // CLibXML2's header includes libxml2's, which Swift's importer must find too.
            swiftSettings: [libxml2Headers.swift]
        ),
        .target(
            name: "TincanSessions",
            dependencies: [
                "TincanCore",
                .product(name: "Yams", package: "Yams"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                // The body-sha256 and body-md5 checks.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "TerminalUI"),
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        // zlib, which NIO's decompression already links: response decoding in the core, and the
        // demo server's /gzip and /deflate.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // libxml2 (XML responses, XPath checks): its functions typed by its own headers, opened with
        // dlopen on first use so that a start of tincan never loads it (docs/ARCHITECTURE.md, "XML").
        // Not linked: no `link` in a module map, no pkg-config.
        .target(name: "CLibXML2", cSettings: [libxml2Headers.c]),
        // glibc's malloc.h (malloc_trim), which the Glibc module leaves out.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .target(name: "CursesBackend", dependencies: ["CNcursesw", "TerminalUI"]),
        .target(
            name: "TincanTUI",
            dependencies: [
                "CMalloc",
                "TincanCore",
                "TincanSessions",
                "TerminalUI",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "TincanDemoServer",
            dependencies: [
                "TincanCore",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                // HTTP/2 over TLS (ALPN), beside HTTP/1.1.
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                // Certificates made on the spot for the lessons' TLS demo server (DemoCertificate).
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GraphQL", package: "GraphQL"),
                // `/ws`: the WebSocket echo.
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]
        ),
        .executableTarget(
            name: "tincan",
            dependencies: [
                "TincanCore",
                "TincanDemoServer",
                "TincanSessions",
                "TincanTUI",
                "TerminalUI",
                "CursesBackend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                // `tincan serve --cert/--key/--client-ca` hands the demo server a TLSConfiguration.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            plugins: ["CommitStamp", "EmbedLessons"]
        ),
        // Names the commit a build comes from, for `tincan --version`.
        .plugin(name: "CommitStamp", capability: .buildTool(), path: "Plugins/CommitStamp"),
        // Builds examples/lessons into the binary, for `tincan learn`.
        .plugin(name: "EmbedLessons", capability: .buildTool(), path: "Plugins/EmbedLessons"),
        .executableTarget(
            name: "tincan-bench",
            dependencies: [
                "TincanCore", "TincanDemoServer", "TincanSessions", "TincanTUI", "TerminalUI",
                .product(name: "OrderedCollections", package: "swift-collections"),
                // The replay benchmark's floor: the transport's library alone (LibraryReplay).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/tincan-bench",
            exclude: []
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "CZlib",
                "TincanCore",
                "TincanDemoServer",
                "TerminalUI",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // RawHTTP2Server: a TLS server that writes HTTP/2 frames by hand.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // Test clocks, advanced by tests instead of waiting.
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "TincanCoreTests", dependencies: ["TincanCore", "TincanDemoServer", "TestSupport", .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(name: "TincanCLITests", dependencies: ["tincan", "TincanCore", "TincanSessions", "TincanDemoServer", "TestSupport"]),
        .testTarget(
            name: "TincanTUITests",
            dependencies: ["TerminalUI", "TincanTUI", "TincanSessions", "TincanCore", "TincanDemoServer", "TestSupport", .product(name: "Clocks", package: "swift-clocks")],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "TincanIntegrationTests",
            dependencies: ["TincanCore", "TincanDemoServer", "TestSupport", .product(name: "Clocks", package: "swift-clocks")]
        ),
        .testTarget(
            name: "TincanSessionsTests",
            // Crypto: the digest checks are compared with digests the tests compute themselves.
            dependencies: ["TincanSessions", "TincanCore", "TincanDemoServer", "TestSupport", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Clocks", package: "swift-clocks")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
