import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

@Suite("HTTP versions: HTTP/2 over TLS, HTTP/1.1 on request")
struct HTTPVersionTests {
    /// Sends `draft` to `server` with `version`, trusting the server's own certificate.
    private func send(_ draft: RequestDraft, to server: DemoServer, certificate: TestCertificate?, version: HTTPVersionPreference) async throws -> TaskResult {
        let policy = certificate.map { SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [$0.certificateDER]) } ?? .default
        let manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), securityPolicy: policy)
        var options = TaskOptions()
        options.httpVersion = version
        // Bytes are kept as they are; the echoes are decoded as JSON.
        if draft.url.hasPrefix("bytes/") { options.responseSerializer = HTTPResponseSerializer() }
        let task = try manager.task(with: try draft.build(), options: options)
        task.resume()
        let result = await task.result()
        try await manager.invalidate(cancelingTasks: true)
        return result
    }

    @Test("over TLS the demo server and Tincan agree on HTTP/2 by default, and on HTTP/1.1 when only that is asked for", arguments: [
        (HTTPVersionPreference.automatic, HTTPVersion.http2),
        (.http2, .http2),
        (.http1_1, .http1_1),
    ])
    func negotiatedOverTLS(preference: HTTPVersionPreference, expected: HTTPVersion) async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let result = try await send(try draft("GET", "get", ["q==1"], on: server), to: server, certificate: certificate, version: preference)
            #expect(result.transportError == nil, "\(String(describing: result.transportError))")
            #expect(result.response?.version == expected)
            #expect(field(try json(result), "args", "q") == .string("1"))
        }
    }

    @Test("an HTTP/2 exchange carries a streamed request body and a large response body byte for byte")
    func bodiesOverHTTP2() async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let posted = try await send(try draft("POST", "post", ["name=Ada", "tags:=[1,2]"], on: server), to: server, certificate: certificate, version: .http2)
            #expect(posted.response?.version == .http2)
            let echoed = try json(posted)
            #expect([field(echoed, "form", "name"), field(echoed, "json", "name")].contains(.string("Ada")), "\(echoed)")
            // 3 MB of the seeded bytes over both versions: the same bytes.
            let overHTTP2 = try await send(try draft("GET", "bytes/3000000", ["seed==7"], on: server), to: server, certificate: certificate, version: .http2)
            let overHTTP1 = try await send(try draft("GET", "bytes/3000000", ["seed==7"], on: server), to: server, certificate: certificate, version: .http1_1)
            #expect(overHTTP2.response?.version == .http2 && overHTTP1.response?.version == .http1_1)
            #expect(overHTTP2.data.count == 3_000_000)
            #expect(overHTTP2.data == overHTTP1.data)
        }
    }

    @Test("cleartext stays HTTP/1.1 whatever is asked, since HTTP/2 is negotiated in the TLS handshake")
    func cleartextIsHTTP1() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "get", on: server), to: server, certificate: nil, version: .http2)
            #expect(result.response?.version == .http1_1)
        }
    }

    @Test("the Explain view's Connection step says which version will be tried")
    func explainSaysTheVersion() {
        var options = TaskOptions()
        let https = URLReference(parsing: "https://example.com/")
        let http = URLReference(parsing: "http://example.com/")
        func version(_ url: URLReference) -> String? {
            Explanation.connection(to: url, options: options).lines.map(\.text).first { $0.hasPrefix("Version: ") }
        }
        #expect(version(https) == "Version: HTTP/2 if the server offers it in the TLS handshake, else HTTP/1.1.")
        options.httpVersion = .http1_1
        #expect(version(https) == "Version: HTTP/1.1 only.")
        options.httpVersion = .http2
        #expect(version(http) == "Version: HTTP/1.1: HTTP/2 needs TLS here, as cleartext HTTP/2 (h2c) is not supported.")
    }
}
