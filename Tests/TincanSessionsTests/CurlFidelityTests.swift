import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// What a server received: the request line, the header fields (sorted) and the body bytes, with
/// a multipart boundary (which each client picks at random) replaced by `BOUNDARY`.
struct Received: Equatable, CustomStringConvertible {
    var requestLine: String
    var headers: [String]
    var body: [UInt8]

    init(head: String, body: [UInt8]) {
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        requestLine = lines.removeFirst()
        var body = body
        let contentType = lines.first { $0.lowercased().hasPrefix("content-type:") }
        if let contentType, let boundary = HTTPHeaders.parameter("boundary", in: contentType) {
            // Boundaries differ in length, so Content-Length does too.
            lines = lines.filter { !$0.lowercased().hasPrefix("content-length:") }.map { $0.replacingOccurrences(of: boundary, with: "BOUNDARY") }
            body = Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: boundary, with: "BOUNDARY").utf8)
        }
        headers = lines.sorted()
        self.body = body
    }

    /// The same request with `name` taken out (a difference that is expected and reported).
    func without(_ name: String) -> Received {
        var copy = self
        copy.headers.removeAll { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        return copy
    }

    /// The same request with its empty fields written as SwiftNIO writes them, `Name: `
    /// (curl writes `Name:`; the import and the export both say so).
    var withNIOEmptyFields: Received {
        var copy = self
        copy.headers = headers.map { $0.hasSuffix(":") ? $0 + " " : $0 }
        return copy
    }

    var description: String {
        "\(requestLine)\n\(headers.joined(separator: "\n"))\n\n\(String(decoding: body, as: UTF8.self).debugDescription)"
    }
}

/// A loopback server that keeps every request it receives, byte for byte, and answers `{}`.
///
/// The demo server's `/anything` echo decodes form bodies (`q=a+b` and `q=a%20b` both echo as
/// `{"q": "a b"}`), so it cannot show the differences these tests are about.
final class CapturingServer: Sendable {
    /// The requests, shared with the server's connection threads.
    private final class Log: Sendable {
        let items = Mutex<[Received]>([])
    }

    let server: RawHTTPServer
    private let received = Log()

    init() throws {
        let received = self.received
        server = try RawHTTPServer { head, socket in
            // A connection closed before sending a request is no request.
            guard !head.isEmpty else { return }
            let length = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if head.lowercased().contains("\r\nexpect: 100-continue") { RawHTTPServer.write(socket, "HTTP/1.1 100 Continue\r\n\r\n") }
            var body = [UInt8](repeating: 0, count: length)
            var read = 0
            while read < length {
                let count = body[read...].withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                read += count
            }
            received.items.withLock { $0.append(Received(head: head, body: Array(body[..<read]))) }
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        }
    }

    var url: String { server.baseURL + "/anything" }

    /// The requests received since the last call.
    func take() -> [Received] {
        received.items.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    deinit { server.stop() }
}

/// Files the commands and sessions name, in a folder curl runs in.
func fidelityFolder() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write("lines.txt", Array("one\r\ntwo\nthree\rcut\n".utf8))
    try folder.write("doc.txt", Array("document\n".utf8))
    try folder.write("up.txt", Array("uploaded bytes\n".utf8))
    try folder.write("doc.json", Array("{}".utf8))
    return folder
}

/// Sends `request` (a request's YAML, `URL` standing for the server's) with Tincan's core:
/// what the server received, and the request resolved as an export resolves it.
func sentByTincan(_ request: String, to server: CapturingServer, in folder: TemporaryDirectory) async throws -> (received: [Received], resolved: ResolvedRequest) {
    let session = try Session.parse("requests:\n  - " + request.replacingOccurrences(of: "URL", with: server.url) + "\n", path: folder.path + "/s.tincan.yaml")
    try await sendWithTincan(session, in: folder)
    return (server.take(), try session.resolve(0, template: Template(variables: [:]), directory: folder.path))
}

/// Sends `session`'s only request with Tincan's core, as `tincan replay` does.
func sendWithTincan(_ session: Session, in folder: TemporaryDirectory) async throws {
    let (report, _) = try await Replayer(session: session, path: folder.path + "/s.tincan.yaml").run()
    #expect(report.outcomes.first?.error == nil, "\(report.outcomes.first?.error ?? "")")
}

@Suite("curl and Tincan send the same bytes", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
struct CurlFidelityTests {
    /// Commands run by `/usr/bin/curl` and imported into Tincan (`URL` is the capturing server's).
    static let commands = [
        "curl URL -d 'a=1' -d 'b=x y'",
        "curl URL --data-urlencode 'q=tin can/?&+' --data-urlencode '=é~*' --data-urlencode 'f@lines.txt'",
        "curl URL --data-binary @lines.txt",
        "curl URL -d @lines.txt",
        "curl URL --json '{\"a\":' --json '1}'",
        "curl URL -F 'name=Ada' -F 'note=<doc.txt' -F 'doc=@doc.txt;type=text/plain' -F 'json=@doc.json'",
        "curl -T up.txt URL/files/",
        "curl URL -H 'User-Agent:' -H 'Accept:' -H 'X-Trace: 1' -H 'X-Empty;'",
        "curl -u 'ada:p:w' -X PUT URL -d x",
        "curl -G URL?z=1 -d 'q=1' --data-urlencode 'r=a b'",
        "curl -X POST URL",
        "curl -I -L URL",
    ]

    /// Headers curl sends that Tincan, as the import's warnings say, does not.
    static func reported(_ command: String) -> [String] {
        command.contains("-T ") ? ["Expect"] : []
    }

    @Test("an imported curl command sends what curl sends", arguments: commands)
    func importedCommandsSendWhatCurlSends(_ template: String) async throws {
        let folder = try fidelityFolder()
        let server = try CapturingServer()
        let command = template.replacingOccurrences(of: "URL", with: server.url)

        let curl = try await run("/bin/sh", ["-c", command.replacingOccurrences(of: "curl ", with: "/usr/bin/curl -s -o /dev/null ")], currentDirectory: folder.path)
        #expect(curl.status == 0, "\(curl.stderr)")
        let sentByCurl = server.take()

        let imported = try CurlCommand.parse(command, workingDirectory: folder.path)
        try await sendWithTincan(Session(requests: [imported.request]), in: folder)
        let sentByTincan = server.take()

        try #require(sentByCurl.count == 1 && sentByTincan.count == 1, "curl: \(sentByCurl), Tincan: \(sentByTincan)")
        var expected = sentByCurl[0].withNIOEmptyFields
        for name in Self.reported(command) { expected = expected.without(name) }
        if sentByCurl[0] != sentByCurl[0].withNIOEmptyFields {
            #expect(imported.warnings.contains { $0.contains("sends 'X-Empty: ' with a space") })
        }
        if template == "curl -X POST URL" {
            // AsyncHTTPClient always frames a POST; the import says so.
            expected.headers = (expected.headers + ["Content-Length: 0"]).sorted()
            #expect(imported.warnings.contains { $0.contains("Content-Length: 0") })
        }
        // curl's User-Agent is curl's own: the one difference expected of every import.
        let ua = { (received: Received) in received.headers.first { $0.hasPrefix("User-Agent:") } != nil }
        #expect(ua(sentByTincan[0]) == ua(expected))
        #expect(sentByTincan[0].without("User-Agent") == expected.without("User-Agent"), "\(imported.warnings)")
    }

    /// Sessions exported to curl, with what the export must carry: bodies, files, an upload, header
    /// removals, credentials, the timeout.
    static let sessions = [
        "method: POST\n    url: URL\n    params:\n      name: Ada Lovelace\n      tags: [a, b]",
        "method: POST\n    url: URL\n    serializer: json\n    params:\n      a: 1",
        "method: PUT\n    url: URL\n    headers:\n      Content-Type: text/plain\n    body:\n      file: lines.txt",
        "method: POST\n    url: URL\n    serializer: multipart\n    params:\n      name: Ada\n    files:\n      - field: doc\n        path: doc.txt\n        type: text/plain",
        "method: PUT\n    url: URL/files/\n    upload: up.txt",
        "method: POST\n    url: URL\n    upload:\n      file: up.txt\n      rate: 1M",
        "method: GET\n    url: URL\n    headers:\n      User-Agent: null\n      Accept: null\n      Accept-Encoding: null\n      X-Empty: \"\"\n    query:\n      q: a b",
        "method: DELETE\n    url: URL\n    auth:\n      user: ada\n      password: p:w",
        "method: POST\n    url: URL\n    properties:\n      timeout: 2.5",
        "method: GET\n    url: URL\n    max-time: 2.5",
        "method: PATCH\n    url: URL\n    headers:\n      Content-Type: null\n    body: \"raw 'text'\\nline\"",
        "method: HEAD\n    url: URL",
    ]

    @Test("an exported session makes curl send what Tincan sends", arguments: sessions)
    func exportedSessionsSendWhatTincanSends(_ request: String) async throws {
        let folder = try fidelityFolder()
        let server = try CapturingServer()
        let (sentByTincan, resolved) = try await sentByTincan(request, to: server, in: folder)
        let exported = CurlCommand.export(try resolved.draft.build(), resolved: resolved)
        let curl = try await run("/bin/sh", ["-c", exported.command.replacingOccurrences(of: "curl ", with: "/usr/bin/curl -s -o /dev/null ")], currentDirectory: folder.path)
        #expect(curl.status == 0, "\(exported.command)\n\(curl.stderr)")
        let sentByCurl = server.take()

        try #require(sentByCurl.count == 1 && sentByTincan.count == 1, "curl: \(sentByCurl), Tincan: \(sentByTincan)")
        #expect(sentByCurl[0].withNIOEmptyFields == sentByTincan[0], "\(exported.command)")
        if sentByCurl[0] != sentByTincan[0] {
            #expect(exported.warnings.contains { $0.contains("sends 'X-Empty: ' with a space") })
        }
    }
}
