import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// The demo server answers only its own names, so that a web page that rebinds its name to
/// 127.0.0.1 cannot read `/__received` (every credential a user sent) from the user's browser.
@Suite("The demo server answers only its own name")
struct DemoHostTests {
    /// The status line and body of `GET path` sent with `Host: host`, over a raw socket.
    private func get(_ path: String, host: String?, port: Int) async throws -> (status: String, body: String) {
        try await offThePool {
            guard let socket = connectToLoopback(port: port) else { throw POSIXError(.ECONNREFUSED) }
            defer { close(socket) }
            RawHTTPServer.write(socket, "GET \(path) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + "Connection: close\r\n\r\n")
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socket, &chunk, chunk.count, 0)
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let status = text.components(separatedBy: "\r\n").first ?? ""
            let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
            return (status, body)
        }
    }

    @Test("a rebound name, another port or no Host gets 421 and says what the server answers; its own names get the route")
    func onlyItsOwnNames() async throws {
        try await withDemoServer { server in
            let port = server.port
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "app.localhost:\(port)", "[::1]:\(port)", "127.0.0.2:\(port)"] {
                let answer = try await get("/get", host: host, port: port)
                #expect(answer.status == "HTTP/1.1 200 OK", "\(host)")
            }
            for host: String? in ["attacker.example:\(port)", "attacker.example", "127.0.0.1:\(port + 1)", "127.0.0.1", "192.168.1.20:\(port)", "localhost.attacker.example:\(port)", nil] {
                let answer = try await get("/__received", host: host, port: port)
                #expect(answer.status == "HTTP/1.1 421 Misdirected Request", "\(String(describing: host))")
                #expect(answer.body.contains("does not name this server; it answers Host localhost, 127.0.0.1, [::1] with port \(port)"), "\(answer.body)")
                #expect(!answer.body.contains("Authorization"))
            }
        }
    }

    @Test("listening beyond loopback, any IP address and the allowed names are answered, other names are not")
    func classroomAcceptsAddressesAndAllowedNames() {
        let classroom = DemoHostPolicy(allowedNames: ["Teacher.local"], acceptsAnyAddress: true)
        #expect(classroom.accepts("192.168.1.20:8080", port: 8080, secure: false))
        #expect(classroom.accepts("[fe80::1]:8080", port: 8080, secure: false))
        #expect(classroom.accepts("teacher.local:8080", port: 8080, secure: false))
        #expect(classroom.accepts("teacher.local.:8080", port: 8080, secure: false))
        #expect(!classroom.accepts("attacker.example:8080", port: 8080, secure: false))
        #expect(!classroom.accepts("192.168.1.20:9090", port: 8080, secure: false))
        #expect(!DemoHostPolicy.loopback.accepts("192.168.1.20:8080", port: 8080, secure: false))
        // No port: only on the scheme's own.
        #expect(DemoHostPolicy.loopback.accepts("localhost", port: 443, secure: true))
        #expect(!DemoHostPolicy.loopback.accepts("localhost", port: 443, secure: false))
        #expect(!DemoHostPolicy.loopback.accepts("user@localhost:80", port: 80, secure: false))
        #expect(!DemoHostPolicy.loopback.accepts("localhost:x", port: 80, secure: false))
        #expect(classroom.description(port: 8080) == "Host localhost, 127.0.0.1, [::1], any IP address of this machine, teacher.local with port 8080")
    }

    @Test("over HTTP/2 the :authority is checked the same way")
    func http2Authority() async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [certificate.certificateDER])
            let manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), securityPolicy: policy)
            defer { Task { try? await manager.invalidate(cancelingTasks: true) } }
            var options = TaskOptions()
            options.responseSerializer = HTTPResponseSerializer()
            for (host, status) in [("127.0.0.1:\(server.port)", 200), ("attacker.example:\(server.port)", 421)] {
                var request = try draft("GET", "get", ["Host:\(host)"], on: server).build()
                request.headers.set(name: "Host", value: host)
                let task = try manager.task(with: request, options: options)
                task.resume()
                let result = await task.result()
                #expect(result.response?.version == .http2)
                #expect(result.response?.statusCode == status, "\(host): \(String(describing: result.transportError))")
            }
        }
    }
}
