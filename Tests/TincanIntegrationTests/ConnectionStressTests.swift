import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// Connections under load: every request completes, and every connection goes back to the pool,
/// however early the response comes. Each scenario runs with the other core kept busy, and each
/// request has a deadline, so a stall fails the test instead of hanging it.
@Suite("Connections under load", .serialized, .timeLimit(.minutes(3)))
struct ConnectionStressTests {
    /// The bodies a request can stream: in memory (written whole), a file and multipart (streamed).
    enum BodyKind: String, CaseIterable, Sendable {
        case form, file, multipart
    }

    /// A session manager whose pool gives up on a connection after 3 s, so a leaked connection
    /// fails a test in seconds rather than after the default 30.
    static func manager(for server: DemoServer) throws -> URLSessionManager {
        URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), transport: AsyncHTTPClientTransport(connectTimeout: 3))
    }

    /// Each request may take 20 s at most, so a stall fails its test instead of hanging it.
    static let bounded = {
        var options = TaskOptions()
        options.deadline = 20
        return options
    }()

    static func request(_ method: String, _ path: String, body: BodyKind, in directory: TemporaryDirectory, server: DemoServer) throws -> HTTPRequest {
        let items = switch body {
        case .form: ["a=b"]
        case .multipart: ["a=b", "doc@upload.bin"]
        case .file: [String]()
        }
        var request = try draft(method, path, items, on: server)
        request.workingDirectory = directory.path
        if body == .file {
            request.body = .file(path: "upload.bin")
            request.headers.set(name: "Content-Type", value: "application/octet-stream")
        }
        return try request.build()
    }

    /// Sends `count` requests, `inFlight` at a time, and returns every result.
    static func sendAll(_ requests: [HTTPRequest], inFlight: Int, through manager: URLSessionManager) async throws -> [TaskResult] {
        try await withThrowingTaskGroup(of: (Int, TaskResult).self) { group in
            var results = [TaskResult?](repeating: nil, count: requests.count)
            var next = 0
            func start() throws {
                let index = next
                let task = try manager.dataTask(with: requests[index], options: Self.bounded)
                next += 1
                group.addTask {
                    task.resume()
                    return (index, await task.result())
                }
            }
            while next < min(inFlight, requests.count) { try start() }
            while let (index, result) = try await group.next() {
                results[index] = result
                if next < requests.count { try start() }
            }
            return results.compactMap { $0 }
        }
    }

    @Test("Hundreds of redirects of requests with a body, several in flight, all make their next hop", arguments: [false, true])
    func bodyRedirectsUnderLoad(closesEveryConnection: Bool) async throws {
        let server = try await DemoServer.start(closesEveryConnection: closesEveryConnection)
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        try directory.write("upload.bin", (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let manager = try Self.manager(for: server)
        var requests: [HTTPRequest] = []
        var expectations: [(status: Int, method: String, body: BodyKind)] = []
        for index in 0..<240 {
            let status = [307, 308, 302, 303, 301][index % 5]
            let method = index.isMultiple(of: 2) ? "POST" : "PUT"
            let body = BodyKind.allCases[(index / 5) % 3]
            requests.append(try Self.request(method, "redirect-to?url=/anything/x&status_code=\(status)", body: body, in: directory, server: server))
            expectations.append((status, method, body))
        }
        let results = try await withBusyCore { try await Self.sendAll(requests, inFlight: 6, through: manager) }
        try await manager.invalidate(cancelingTasks: true)

        #expect(results.count == requests.count)
        for (result, expected) in zip(results, expectations) {
            let label = "\(expected.method) \(expected.status) \(expected.body)"
            #expect(result.transportError == nil, "\(label): \(String(describing: result.transportError))")
            #expect(result.response?.statusCode == 200, "\(label)")
            #expect(result.redirects.map(\.statusCode) == [expected.status], "\(label)")
            let keepsBody = expected.status == 307 || expected.status == 308 || (expected.status != 303 && expected.method == "PUT")
            #expect(result.request.method == (keepsBody ? expected.method : "GET"), "\(label)")
            guard keepsBody, case .json(let document)? = result.serialization?.body else { continue }
            let echo = document.value
            switch expected.body {
            case .form: #expect(field(echo, "form", "a") == "b", "\(label)")
            case .file: #expect(field(echo, "headers", "Content-Length") == "300000", "\(label)")
            case .multipart: #expect(field(echo, "form", "a") == "b", "\(label)")
            }
        }
    }

    @Test("Two thousand requests in a row reuse the pool and never wait for a connection", arguments: [false, true])
    func twoThousandRequestsInARow(closesEveryConnection: Bool) async throws {
        let server = try await DemoServer.start(closesEveryConnection: closesEveryConnection)
        defer { Task { await server.stop() } }
        let manager = try Self.manager(for: server)
        let failures = try await withBusyCore {
            var failures: [String] = []
            for index in 0..<2000 {
                var request = index.isMultiple(of: 2)
                    ? try draft("GET", "get", ["n==\(index)"], on: server)
                    : try draft("POST", "post", ["n:=\(index)", "name=item"], on: server)
                request.serializer = .json
                let result = try await manager.send(try request.build(), options: Self.bounded)
                let echoed = try json(result)
                let expected: ParameterValue = index.isMultiple(of: 2) ? .string("\(index)") : .integer(Int64(index))
                let got = index.isMultiple(of: 2) ? field(echoed, "args", "n") : field(echoed, "json", "n")
                if result.transportError != nil || got != expected {
                    failures.append("\(index): \(String(describing: result.transportError)) \(String(describing: got))")
                }
            }
            return failures
        }
        try await manager.invalidate(cancelingTasks: true)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test("A response that comes before the body is sent completes the request and frees its connection", arguments: BodyKind.allCases)
    func earlyResponsesFreeTheirConnection(body: BodyKind) async throws {
        try await withDemoServer { server in
            let directory = try TemporaryDirectory()
            try directory.write("upload.bin", [UInt8](repeating: 0x61, count: 2_000_000))
            let manager = try Self.manager(for: server)
            try await withBusyCore {
                // /status answers without reading the body: a 200 while the upload goes on, then
                // a 413 that stops it. More rounds than the pool has connections (8).
                for round in 0..<12 {
                    for status in [200, 413] {
                        let result = try await manager.send(try Self.request("POST", "status/\(status)", body: body, in: directory, server: server), options: Self.bounded)
                        #expect(result.transportError == nil, "round \(round), \(status): \(String(describing: result.transportError))")
                        #expect(result.response?.statusCode == status, "round \(round)")
                    }
                }
                let after = try await manager.send(try draft("GET", "get", on: server).build(), options: Self.bounded)
                #expect(after.response?.statusCode == 200, "\(String(describing: after.transportError))")
            }
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("Stopping the demo server while clients keep connecting ends the stop, with connections accepted until then")
    func stoppingWhileClientsConnect() async throws {
        for _ in 0..<20 {
            let server = try await DemoServer.start()
            let port = UInt16(server.port)
            let (connecting, started) = AsyncStream<Void>.makeStream()
            // Blocking connects, off the pool that the server's routes run on; the first one
            // accepted says so, and the stop comes then, while the rest go on. A connect or a
            // stop that hung would run into the suite's time limit.
            let connector = Task {
                await offThePool { () -> Int in
                    var accepted = 0
                    for _ in 0..<300 where RawSocket.connectAndClose(port: port) {
                        accepted += 1
                        if accepted == 1 { started.yield() }
                    }
                    started.finish()
                    return accepted
                }
            }
            for await _ in connecting { break }
            await server.stop()
            #expect(await connector.value >= 1, "the server was stopped while clients were connecting")
        }
    }

    @Test("The demo server answers Expect: 100-continue at once")
    func theDemoServerAnswers100Continue() async throws {
        try await withDemoServer { server in
            let port = UInt16(server.port)
            // The body goes only once the interim answer is in; the final answer then follows.
            let reply = try await offThePool {
                try RawSocket.exchange(port: port, send: "PUT /put HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n",
                                       until: "100 Continue\r\n\r\n", thenSend: "ok", until: "\"data\": \"ok\"")
            }
            #expect(reply.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"))
        }
    }
}

/// A plain TCP exchange with a server on loopback, for what an HTTP client hides.
enum RawSocket {
    /// Connects and closes at once (refused connections included), as a client that gives up.
    /// Connects and closes at once; whether the connection was made.
    @discardableResult
    static func connectAndClose(port: UInt16) -> Bool {
        guard let socket = connectToLoopback(port: Int(port)) else { return false }
        close(socket)
        return true
    }

    /// Sends `text`, reads until the reply contains `marker`, then sends `more` and reads until it
    /// contains `finalMarker` (each read gives up after 5 s), and returns the whole reply.
    static func exchange(port: UInt16, send text: String, until marker: String, thenSend more: String, until finalMarker: String) throws -> String {
        guard let socket = connectToLoopback(port: Int(port)) else { throw POSIXError(.ECONNREFUSED) }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var reply: [UInt8] = []
        for (text, marker) in [(text, marker), (more, finalMarker)] {
            let bytes = Array(text.utf8)
            guard Glibc.send(socket, bytes, bytes.count, 0) == bytes.count else { throw POSIXError(.EIO) }
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: reply, as: UTF8.self).contains(marker) {
                let count = recv(socket, &chunk, chunk.count, 0)
                guard count > 0 else { return String(decoding: reply, as: UTF8.self) }
                reply += chunk[..<count]
            }
        }
        return String(decoding: reply, as: UTF8.self)
    }
}
