import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore

/// Credentials follow only the origin (scheme, host and port: RFC 6454) they were given for.
@Suite("Credentials follow only their origin")
struct CredentialOriginTests {
    /// Sends GET `start` with an Authorization and a Cookie header; the server redirects once to `location`.
    private func redirected(from start: String, to location: String) async throws -> HTTPRequest {
        let transport = ScriptedTransport { request, _ in
            if request.url.path == "/start" {
                return .response(HTTPResponse(url: request.url, statusCode: 302, headers: ["Location": location, "Content-Length": "0"]))
            }
            return .response(HTTPResponse(url: request.url, statusCode: 200, headers: ["Content-Length": "0"]))
        }
        let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: nil), transport: transport)
        var draft = RequestDraft(method: "GET", url: start)
        draft.items = [.header(name: "Authorization", value: "Bearer s3cret"), .header(name: "Cookie", value: "session=s3cret")]
        var options = TaskOptions()
        options.responseSerializer = HTTPResponseSerializer()
        let task = try manager.task(with: try draft.build(), options: options)
        task.resume()
        let result = await task.result()
        #expect(result.transportError == nil)
        let sent = transport.requests
        try #require(sent.count == 2)
        return sent[1]
    }

    @Test("an https → http redirect to the same host and port sends neither Authorization nor Cookie", arguments: [
        ("https://127.0.0.1:8443/start", "http://127.0.0.1:8443/next"),
        ("https://example.com/start", "http://example.com:443/next"),
    ])
    func downgradeStripsCredentials(start: String, location: String) async throws {
        let next = try await redirected(from: start, to: location)
        #expect(next.url.scheme == "http")
        #expect(!next.headers.contains(name: "Authorization"))
        #expect(!next.headers.contains(name: "Cookie"))
    }

    @Test("a change of host or port strips them too, and the same origin keeps them", arguments: [
        ("http://127.0.0.1:8080/start", "http://127.0.0.1:8081/next", false),
        ("http://127.0.0.1:8080/start", "http://localhost:8080/next", false),
        ("http://127.0.0.1:8080/start", "/next", true),
        ("https://example.com/start", "https://EXAMPLE.com:443/next", true),
    ])
    func originDecides(start: String, location: String, keeps: Bool) async throws {
        let next = try await redirected(from: start, to: location)
        #expect(next.headers.contains(name: "Authorization") == keeps)
        #expect(next.headers.contains(name: "Cookie") == keeps)
    }
}
