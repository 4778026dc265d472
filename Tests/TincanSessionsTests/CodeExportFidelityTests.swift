import Foundation
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// Where a program runs here: its toolchain, when installed.
enum CodeToolchain {
    static func path(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Python with `requests`.
    static let python: String? = {
        guard let python = path("python3") else { return nil }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import requests"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return nil }
        check.waitUntilExit()
        return check.terminationStatus == 0 ? python : nil
    }()
}

/// Exported programs run against a capturing server: each must send the bytes Tincan sends, but
/// for what its library adds and cannot be told not to, which the export's warnings name.
@Suite("Exported code sends what Tincan sends")
struct CodeExportFidelityTests {
    /// Requests with hostile values: quotes, backslashes, `$`, line breaks in bodies, non-ASCII
    /// text, a NUL and bytes that are not UTF-8, files read when the program runs.
    static let sessions = [
        // JSON with every kind of character a literal must escape.
        "method: POST\n    url: URL?q=tin%20can&x=%24HOME\n    serializer: json\n    params:\n      text: \"it's \\\"quoted\\\" \\\\ back $HOME ${x} `cmd` %s\\nline\\ttab é ☃ 🥫 \\u202E\"\n      n: 1",
        // Headers with hostile values, one empty, one removed default.
        "method: GET\n    url: URL\n    headers:\n      X-Quote: \"it's \\\"q\\\" \\\\ $HOME ${x} `c` :=@; %s é\"\n      X-Empty: \"\"\n      Accept-Encoding: null\n    query:\n      q: a b&c=d/é",
        // A form, then multipart with a file.
        "method: PUT\n    url: URL\n    params:\n      name: Ada Lovelace\n      tags: [a, \"b&c\"]",
        "method: POST\n    url: URL\n    serializer: multipart\n    params:\n      name: Ada\n    files:\n      - field: doc\n        path: doc.txt\n        type: text/plain",
        // Bytes that are not text, and a file as the body.
        "method: POST\n    url: URL\n    headers:\n      Content-Type: application/octet-stream\n    body:\n      base64: AP8nIlwkYAoNLQ==",
        "method: PATCH\n    url: URL\n    headers:\n      Content-Type: text/plain\n    body:\n      file: lines.txt",
        // Basic credentials, and a DELETE that frames no empty body.
        "method: DELETE\n    url: URL\n    auth:\n      user: ada\n      password: \"p'w$\\\"\"",
        // A GraphQL operation.
        "url: URL\n    body:\n      graphql:\n        query: \"query ($id: ID!) { book(id: $id) { title } }\"\n        variables:\n          id: \"it's 2\"\n        operation-name: Q",
    ]

    /// Sends `request` with Tincan, then with the program `language` writes, and returns what
    /// the server received each time and the export.
    func exchange(_ request: String, _ language: CodeExport.Language, run: (String, TemporaryDirectory) async throws -> ProcessResult) async throws -> (tincan: Received, program: Received, exported: CodeExport.Exported) {
        let folder = try fidelityFolder()
        let server = try CapturingServer()
        let (sentByTincan, resolved) = try await sentByTincan(request, to: server, in: folder)
        let exported = CodeExport.export(try resolved.draft.build(), resolved: resolved, as: language)
        let result = try await run(exported.code, folder)
        #expect(result.status == 0, "\(exported.code)\n\(result.stderr)")
        #expect(result.stdout == "{}", "the program prints the response body")
        let sentByProgram = server.take()
        try #require(sentByTincan.count == 1 && sentByProgram.count == 1, "Tincan: \(sentByTincan), program: \(sentByProgram)\n\(exported.code)")
        return (sentByTincan[0], sentByProgram[0], exported)
    }

    @Test("a Python requests program sends exactly what Tincan sends", .enabled(if: CodeToolchain.python != nil), arguments: sessions)
    func pythonSendsWhatTincanSends(_ request: String) async throws {
        let (tincan, program, exported) = try await exchange(request, .python) { code, folder in
            try folder.write("request.py", Array(code.utf8))
            return try await TestSupport.run(CodeToolchain.python!, ["request.py"], currentDirectory: folder.path)
        }
        #expect(program == tincan, "\(exported.code)")
        #expect(exported.warnings.isEmpty, "\(exported.warnings)")
    }

    @Test("a JavaScript fetch program sends Tincan's request, with the headers fetch adds named",
          .enabled(if: CodeToolchain.path("node") != nil), arguments: sessions)
    func javaScriptSendsWhatTincanSends(_ request: String) async throws {
        let (tincan, program, exported) = try await exchange(request, .javascript) { code, folder in
            try folder.write("request.mjs", Array(code.utf8))
            return try await TestSupport.run(CodeToolchain.path("node")!, ["request.mjs"], currentDirectory: folder.path)
        }
        var expected = tincan.lowercased
        var added = ["sec-fetch-mode: cors", "connection: keep-alive"]
        for (name, value) in [("accept", "*/*"), ("accept-language", "*"), ("user-agent", "node"), ("accept-encoding", "gzip, deflate")]
        where !expected.headers.contains(where: { $0.hasPrefix(name + ":") }) {
            added.append("\(name): \(value)")
        }
        expected.headers = (expected.headers + added).sorted()
        #expect(program.lowercased == expected, "\(exported.code)")
        #expect(exported.warnings.contains { $0.contains("sec-fetch-mode: cors") && $0.contains("connection: keep-alive") })
    }

    /// Swift compiles slowly here, so a few requests: text with every escape, bytes, multipart.
    @Test("a Swift URLSession program sends Tincan's request, with the headers URLSession adds on Linux named",
          .enabled(if: CodeToolchain.path("swiftc") != nil), arguments: [sessions[0], sessions[3], sessions[4]])
    func swiftSendsWhatTincanSends(_ request: String) async throws {
        let (tincan, program, exported) = try await exchange(request, .swift) { code, folder in
            try folder.write("main.swift", Array(code.utf8))
            let compiled = try await TestSupport.run(CodeToolchain.path("swiftc")!, ["main.swift", "-o", "request"], currentDirectory: folder.path)
            guard compiled.status == 0 else { return compiled }
            return try await TestSupport.run(folder.path + "/request", [], currentDirectory: folder.path)
        }
        var expected = tincan
        expected.headers = (expected.headers + ["Connection: keep-alive"]).sorted()
        #expect(program == expected, "\(exported.code)")
        #expect(exported.warnings.contains { $0.contains("Connection: keep-alive") })
    }

    @Test("an HTTPie command sends what Tincan sends", .enabled(if: CodeToolchain.path("http") != nil),
          arguments: [sessions[0], sessions[2], sessions[3], sessions[4], sessions[5], sessions[7]])
    func httpieSendsWhatTincanSends(_ request: String) async throws {
        let (tincan, program, exported) = try await exchange(request, .httpie) { code, folder in
            try await TestSupport.run("/bin/sh", ["-c", code], currentDirectory: folder.path)
        }
        #expect(program == tincan, "\(exported.code)")
        #expect(exported.warnings.isEmpty, "\(exported.warnings)")
    }

    /// Alamofire is not among the packages here, so its programs are parsed, not run: every
    /// literal a hostile value made must still be Swift.
    @Test("an Alamofire program is valid Swift for every request, hostile values and all",
          .enabled(if: CodeToolchain.path("swiftc") != nil), arguments: sessions)
    func alamofireIsValidSwift(_ request: String) async throws {
        let folder = try fidelityFolder()
        let session = try Session.parse("requests:\n  - " + request.replacingOccurrences(of: "URL", with: "http://127.0.0.1:9/anything") + "\n", path: folder.path + "/s.tincan.yaml")
        let resolved = try session.resolve(0, template: Template(variables: [:]), directory: folder.path)
        let exported = CodeExport.export(try resolved.draft.build(), resolved: resolved, as: .alamofire)
        #expect(exported.code.contains("session.request(request)"))
        try folder.write("main.swift", Array(exported.code.utf8))
        let parsed = try await TestSupport.run(CodeToolchain.path("swiftc")!, ["-parse", "main.swift"], currentDirectory: folder.path)
        #expect(parsed.status == 0, "\(exported.code)\n\(parsed.stderr)")
    }

    /// `go run` with its build cache, module folder and temporary files in the test's own folder,
    /// offline: the programs use the standard library alone, and no toolchain is downloaded.
    @Test("a Go net/http program sends exactly what Tincan sends", .enabled(if: CodeToolchain.path("go") != nil), arguments: sessions)
    func goSendsWhatTincanSends(_ request: String) async throws {
        let (tincan, program, exported) = try await exchange(request, .go) { code, folder in
            try folder.write("main.go", Array(code.utf8))
            let environment = ["GOCACHE": folder.path + "/go-cache", "GOPATH": folder.path + "/go-path", "GOTMPDIR": folder.path,
                               "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "", "GO111MODULE": "auto"]
            return try await TestSupport.run(CodeToolchain.path("go")!, ["run", "main.go"], environment: environment, currentDirectory: folder.path)
        }
        #expect(program == tincan, "\(exported.code)")
        #expect(exported.warnings.isEmpty, "\(exported.warnings)")
    }
}

extension Received {
    /// The same request with header names in lower case (fetch writes them so).
    var lowercased: Received {
        var copy = self
        copy.headers = headers.map { line in
            guard let colon = line.firstIndex(of: ":") else { return line }
            return line[..<colon].lowercased() + line[colon...]
        }.sorted()
        return copy
    }
}
