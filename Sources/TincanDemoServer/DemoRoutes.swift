import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OrderedCollections
import TincanCore

/// The demo server's routes, with httpbin's paths and JSON shapes.
public enum DemoRoutes {
    typealias Context = BasicRequestContext

    static func makeRouter(log: (@Sendable (String) -> Void)?, secure: Bool = false, received: ReceivedRequests,
                           hosts: DemoHostPolicy = .loopback, bound: BoundPort, classroom: Classroom? = nil) -> Router<Context> {
        let router = Router(context: Context.self)
        if secure { router.add(middleware: SecureSchemeMiddleware()) }
        if let log { router.add(middleware: RequestLogMiddleware(log: log)) }
        // Before every route: only the server's own names are answered (DNS rebinding).
        router.add(middleware: HostCheckMiddleware(policy: hosts, bound: bound, secure: secure))

        router.getAndHead("/get") { request, context in try await echo(request, context, withBody: false) }
        for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
            router.on("/\(method.rawValue.lowercased())", method: method) { request, context in try await echo(request, context, withBody: true) }
        }
        router.getAndHead("/anything") { request, context in try await echo(request, context, withBody: true, method: true) }
        router.getAndHead("/anything/**") { request, context in try await echo(request, context, withBody: true, method: true) }
        for method in [HTTPRequest.Method.post, .put, .patch, .delete, .options] {
            router.on("/anything", method: method) { request, context in try await echo(request, context, withBody: true, method: true) }
            router.on("/anything/**", method: method) { request, context in try await echo(request, context, withBody: true, method: true) }
        }
        router.getAndHead("/headers") { request, _ in json(["headers": .dictionary(headerObject(request))]) }
        router.getAndHead("/user-agent") { request, _ in json(["user-agent": .string(request.headers[.userAgent] ?? "")]) }
        router.getAndHead("/ip") { _, context in json(["origin": .string(origin(context))]) }
        router.getAndHead("/status/:code") { _, context in try status(context) }
        for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
            router.on("/status/:code", method: method) { _, context in try status(context) }
        }
        router.getAndHead("/bytes/:n") { request, context in try bytes(request, context, chunked: false) }
        router.getAndHead("/stream-bytes/:n") { request, context in try bytes(request, context, chunked: true) }
        router.getAndHead("/drip") { request, _ in try drip(request) }
        router.getAndHead("/delay/:seconds") { request, context in
            let seconds = min(try context.parameters.require("seconds", as: Double.self), 10)
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return try await echo(request, context, withBody: false)
        }
        router.getAndHead("/range/:n") { request, context in try range(request, context) }
        router.getAndHead("/json") { _, _ in json(sampleSlideshow) }
        router.getAndHead("/xml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/xml"], body: .init(byteBuffer: ByteBuffer(string: sampleXML)))
        }
        router.getAndHead("/image/png") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: samplePNG)))
        }
        router.getAndHead("/redirect/:n") { _, context in
            let n = try context.parameters.require("n", as: Int.self)
            return redirect(to: n <= 1 ? "/get" : "/redirect/\(n - 1)", status: .found)
        }
        router.getAndHead("/absolute-redirect/:n") { request, context in
            let n = try context.parameters.require("n", as: Int.self)
            let host = request.head.authority ?? "127.0.0.1"
            return redirect(to: "http://\(host)" + (n <= 1 ? "/get" : "/absolute-redirect/\(n - 1)"), status: .found)
        }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] {
            router.on("/redirect-to", method: method) { request, _ in
                let target = request.uri.queryParameters["url"].map { RequestBodyEcho.formDecode($0) } ?? "/get"
                let code = request.uri.queryParameters["status_code"].flatMap { Int(String($0)) } ?? 302
                return redirect(to: target, status: .init(code: code))
            }
        }
        router.getAndHead("/basic-auth/:user/:password") { request, context in try basicAuth(request, context) }
        router.getAndHead("/cookies") { request, _ in json(["cookies": .dictionary(cookies(request))]) }
        router.getAndHead("/cookies/set") { request, _ in
            var response = redirect(to: "/cookies", status: .found)
            for (name, value) in request.uri.queryParameters {
                response.headers.append(HTTPField(name: .setCookie, value: "\(name)=\(value); Path=/"))
            }
            return response
        }
        router.getAndHead("/cookies/delete") { request, _ in
            var response = redirect(to: "/cookies", status: .found)
            for (name, _) in request.uri.queryParameters {
                response.headers.append(HTTPField(name: .setCookie, value: "\(name)=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/"))
            }
            return response
        }
        router.getAndHead("/digest-auth/:qop/:user/:password") { request, context in try digestAuth(request, context) }
        router.getAndHead("/digest-auth/:qop/:user/:password/:algorithm") { request, context in try digestAuth(request, context) }
        router.getAndHead("/cache") { request, context in try await cache(request, context) }
        router.getAndHead("/gzip") { request, context in try await compressed(request, context, gzip: true) }
        router.getAndHead("/deflate") { request, context in try await compressed(request, context, gzip: false) }
        for method in [HTTPRequest.Method.post, .put] {
            router.on("/upload", method: method) { request, _ in try await upload(request) }
        }
        let jobs = PollJobs()
        router.getAndHead("/poll/:id/:n") { _, context in try jobs.respond(context) }
        router.getAndHead("/response-headers") { request, _ in
            var fields = HTTPFields()
            var object = OrderedDictionary<String, ParameterValue>()
            for (name, value) in request.uri.queryParameters {
                if let field = HTTPField.Name(String(name)) { fields.append(HTTPField(name: field, value: String(value))) }
                object[String(name)] = .string(String(value))
            }
            var response = json(.dictionary(object))
            response.headers.append(contentsOf: fields)
            return response
        }
        FlakyRoute().register(on: router)
        OAuthServer().register(on: router)
        StreamRoutes.register(on: router)
        GraphQLRoute.register(on: router)
        ReceivedRoutes.register(on: router, received: received)
        if let classroom { ClassroomRoutes.register(on: router, classroom: classroom) }
        return router
    }

    // MARK: - Echo

    /// The httpbin echo object: args, data, files, form, headers, json, (method), origin, url.
    static func echo(_ request: Request, _ context: Context, withBody: Bool, method: Bool = false) async throws -> Response {
        var object = OrderedDictionary<String, ParameterValue>()
        object["args"] = .dictionary(queryObject(request))
        if withBody {
            var request = request
            let buffer = try await request.collectBody(upTo: 64 * 1024 * 1024)
            let body = Array(buffer.readableBytesView)
            let parsed = RequestBodyEcho(body: body, contentType: request.headers[.contentType])
            object["data"] = .string(parsed.data)
            object["files"] = .dictionary(parsed.files)
            object["form"] = .dictionary(parsed.form)
            object["headers"] = .dictionary(headerObject(request))
            object["json"] = parsed.json
        } else {
            object["headers"] = .dictionary(headerObject(request))
        }
        if method { object["method"] = .string(request.method.rawValue) }
        object["origin"] = .string(origin(context))
        object["url"] = .string(absoluteURL(request))
        return json(.dictionary(object))
    }

    static func queryObject(_ request: Request) -> OrderedDictionary<String, ParameterValue> {
        var args = OrderedDictionary<String, ParameterValue>()
        for (name, value) in request.uri.queryParameters {
            RequestBodyEcho.add(RequestBodyEcho.formDecode(name), .string(RequestBodyEcho.formDecode(value)), to: &args)
        }
        return args
    }

    static func headerObject(_ request: Request) -> OrderedDictionary<String, ParameterValue> {
        var headers = OrderedDictionary<String, ParameterValue>()
        // HTTP/1.1's Host header arrives as the :authority pseudo-header.
        if let authority = request.head.authority { headers["Host"] = .string(authority) }
        for field in request.headers {
            let name = field.name.rawName
            if case .string(let existing)? = headers[name] {
                headers[name] = .string(existing + "," + field.value)
            } else {
                headers[name] = .string(field.value)
            }
        }
        return headers
    }

    /// The demo server only listens on loopback, so every client is local.
    static func origin(_ context: Context) -> String {
        "127.0.0.1"
    }

    static func absoluteURL(_ request: Request) -> String {
        "\(request.head.scheme ?? "http")://\(request.head.authority ?? "127.0.0.1")\(request.uri.string)"
    }

    static func json(_ value: ParameterValue, status: HTTPResponse.Status = .ok) -> Response {
        var bytes = JSONWriter.bytes(value, indent: 2)
        bytes.append(0x0A)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func redirect(to location: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.location: location, .contentLength: "0"])
    }

    // MARK: - Status, bytes, drip, range

    static func status(_ context: Context) throws -> Response {
        let code = try context.parameters.require("code", as: Int.self)
        guard (100...599).contains(code) else { throw HTTPError(.badRequest, message: "status must be 100-599") }
        var headers: HTTPFields = [.contentLength: "0"]
        if code == 401 { headers[.wwwAuthenticate] = "Basic realm=\"Fake Realm\"" }
        if (300..<400).contains(code), code != 304 { headers[.location] = "/redirect/1" }
        return Response(status: .init(code: code), headers: headers)
    }

    /// Deterministic bytes from a seed (`?seed=`), so downloads can be checked and resumed.
    static func bytes(_ request: Request, _ context: Context, chunked: Bool) throws -> Response {
        let count = try context.parameters.require("n", as: Int.self)
        guard count >= 0 else { throw HTTPError(.badRequest, message: "n must not be negative") }
        let seed = request.uri.queryParameters["seed"].flatMap { UInt64(String($0)) } ?? 42
        let chunkSize = max(1, min(request.uri.queryParameters["chunk_size"].flatMap { Int(String($0)) } ?? 64 * 1024, 1 << 20))
        let body = ResponseBody(contentLength: chunked ? nil : count) { writer in
            var generator = SeededGenerator(seed: seed)
            var remaining = count
            var buffer = ByteBuffer()
            while remaining > 0 {
                let size = min(chunkSize, remaining)
                buffer.clear()
                buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { pointer in
                    generator.fill(UnsafeMutableRawBufferPointer(rebasing: pointer[0..<size]))
                    return size
                }
                try await writer.write(buffer)
                remaining -= size
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
    }

    /// Drips `numbytes` asterisks evenly over `duration` seconds after `delay`, so progress bars move.
    ///
    /// As httpbin's, byte `i` is due `i × duration / numbytes` after the first. The bytes are paced
    /// by the clock, not by a sleep per byte: whatever is due goes out in one write, then the drip
    /// sleeps until the next byte is due (at least ``dripTick``). So the body takes `duration`
    /// however many bytes it holds and however late a busy machine wakes the sleeper.
    static func drip(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        let duration = min(max(query["duration"].flatMap { Double(String($0)) } ?? 2, 0), 60)
        let count = min(max(query["numbytes"].flatMap { Int(String($0)) } ?? 10, 0), 10 * 1024 * 1024)
        let delay = min(max(query["delay"].flatMap { Double(String($0)) } ?? 0, 0), 10)
        let code = query["code"].flatMap { Int(String($0)) } ?? 200
        let body = ResponseBody(contentLength: count) { writer in
            if delay > 0 { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
            let clock = ContinuousClock()
            let start = clock.now
            let pause = count > 0 ? duration / Double(count) : 0
            var sent = 0
            while sent < count {
                var batch = dripBytesDue(after: (clock.now - start).inSeconds, of: count, over: duration) - sent
                while batch > 0 {
                    let size = min(batch, 64 * 1024)
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "*"), count: size))
                    batch -= size
                    sent += size
                }
                guard sent < count else { break }
                let next = start + .seconds(Double(sent) * pause)
                try await clock.sleep(until: max(next, clock.now + dripTick))
            }
            try await writer.finish(nil)
        }
        return Response(status: .init(code: code), headers: [.contentType: "application/octet-stream"], body: body)
    }

    /// The shortest wait between two writes of a drip: bytes due closer together go out together.
    static let dripTick = Duration.milliseconds(10)

    /// How many of a drip's `count` bytes are due `elapsed` seconds after the first: byte `i` is
    /// due at `i × duration / count`, so all are due by `duration`, whatever `count` is.
    public static func dripBytesDue(after elapsed: Double, of count: Int, over duration: Double) -> Int {
        guard count > 0 else { return 0 }
        guard duration > 0, elapsed.isFinite else { return count }
        return Int(min(Double(count), max(0, (elapsed * Double(count) / duration).rounded(.down)) + 1))
    }

    /// `n` bytes of the alphabet, honouring Range and If-Range, with an ETag for resuming.
    static func range(_ request: Request, _ context: Context) throws -> Response {
        let count = try context.parameters.require("n", as: Int.self)
        guard count > 0, count <= 1 << 30 else { throw HTTPError(.badRequest, message: "n must be 1 to 1073741824") }
        let etag = "\"range\(count)\""
        var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes", .eTag: etag]
        var lower = 0
        var upper = count - 1
        var status = HTTPResponse.Status.ok
        let ifRangeHolds = request.headers[.ifRange].map { $0 == etag } ?? true
        if let rangeHeader = request.headers[.range], ifRangeHolds {
            guard let parsed = ByteRange(header: rangeHeader, length: count) else {
                headers[.contentRange] = "bytes */\(count)"
                headers[.contentLength] = "0"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            lower = parsed.lower
            upper = parsed.upper
            status = .partialContent
            headers[.contentRange] = "bytes \(lower)-\(upper)/\(count)"
        }
        let length = upper - lower + 1
        let start = lower
        let last = upper
        let body = ResponseBody(contentLength: length) { writer in
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
            var offset = start
            var buffer = ByteBuffer()
            while offset <= last {
                let size = min(64 * 1024, last - offset + 1)
                buffer.clear()
                buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { pointer in
                    for index in 0..<size { pointer[index] = alphabet[(offset + index) % 26] }
                    return size
                }
                try await writer.write(buffer)
                offset += size
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    // MARK: - Auth, cookies, cache

    /// httpbin's digest-auth: `qop` is auth, auth-int or any other word for none; the algorithm
    /// MD5 (the default), SHA-256 or SHA-512-256, each with an optional -sess. The nonce is not
    /// remembered: any nonce is accepted if the response to it is right.
    static func digestAuth(_ request: Request, _ context: Context) throws -> Response {
        let qop = try context.parameters.require("qop")
        let user = try context.parameters.require("user")
        let password = try context.parameters.require("password")
        let algorithmName = context.parameters.get("algorithm") ?? "MD5"
        guard let algorithm = DigestAlgorithm(algorithmName) else {
            throw HTTPError(.badRequest, message: "algorithm must be MD5, SHA-256 or SHA-512-256, optionally with -sess")
        }
        let realm = "me@tincan.local"
        var challenge = "Digest realm=\"\(realm)\", nonce=\"\(Authenticator.randomNonce())\", opaque=\"\(algorithm.hash(realm))\", algorithm=\(algorithm.name)"
        if ["auth", "auth-int"].contains(qop) { challenge += ", qop=\"\(qop)\"" }
        let unauthorized = Response(status: .unauthorized, headers: [.wwwAuthenticate: challenge, .contentLength: "0"])
        guard let header = request.headers[.authorization],
              let answer = AuthenticationChallenge.parse(header).first, answer.scheme.lowercased() == "digest",
              answer.parameters["username"] == user, let nonce = answer.parameters["nonce"], let uri = answer.parameters["uri"]
        else { return unauthorized }
        let expected = algorithm.response(
            credential: Credential(user: user, password: password), realm: realm, nonce: nonce, method: request.method.rawValue,
            uri: uri, qop: answer.parameters["qop"], count: answer.parameters["nc"] ?? "", clientNonce: answer.parameters["cnonce"] ?? "",
            body: [])
        guard answer.parameters["response"] == expected, uri == request.uri.string else { return unauthorized }
        return json(["authenticated": true, "user": .string(user)])
    }

    static func basicAuth(_ request: Request, _ context: Context) throws -> Response {
        let user = try context.parameters.require("user")
        let password = try context.parameters.require("password")
        let expected = RequestSettings.basicAuthorization(username: user, password: password)
        guard request.headers[.authorization] == expected else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"Fake Realm\"", .contentLength: "0"])
        }
        return json(["authenticated": true, "user": .string(user)])
    }

    static func cookies(_ request: Request) -> OrderedDictionary<String, ParameterValue> {
        var result = OrderedDictionary<String, ParameterValue>()
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard let name = parts.first?.trimmingWhitespace(), !name.isEmpty else { continue }
                result[name] = .string(parts.count > 1 ? String(parts[1]) : "")
            }
        }
        return result
    }

    static let cacheLastModified = "Wed, 21 Oct 2026 07:28:00 GMT"
    static let cacheETag = "\"tincan-cache-1\""

    /// 304 when If-None-Match names the ETag or If-Modified-Since is not before Last-Modified.
    static func cache(_ request: Request, _ context: Context) async throws -> Response {
        let notModified: Bool
        if let ifNoneMatch = request.headers[.ifNoneMatch] {
            notModified = ifNoneMatch == "*" || ifNoneMatch.split(separator: ",").contains { $0.trimmingWhitespace().replacingOccurrences(of: "W/", with: "") == cacheETag }
        } else if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse), let modified = HTTPDate.parse(cacheLastModified) {
            notModified = since >= modified
        } else {
            notModified = false
        }
        if notModified {
            return Response(status: .notModified, headers: [.eTag: cacheETag, .lastModified: cacheLastModified])
        }
        var response = try await echo(request, context, withBody: false)
        response.headers[.eTag] = cacheETag
        response.headers[.lastModified] = cacheLastModified
        response.headers[.cacheControl] = "public, max-age=60"
        return response
    }

    /// The httpbin /gzip and /deflate objects, compressed, with Content-Encoding.
    static func compressed(_ request: Request, _ context: Context, gzip: Bool) async throws -> Response {
        var object = OrderedDictionary<String, ParameterValue>()
        object[gzip ? "gzipped" : "deflated"] = true
        object["headers"] = .dictionary(headerObject(request))
        object["method"] = .string(request.method.rawValue)
        object["origin"] = .string(origin(context))
        var plain = JSONWriter.bytes(.dictionary(object), indent: 2)
        plain.append(0x0A)
        let body = Compression.compress(plain, gzip: gzip)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .contentEncoding: gzip ? "gzip" : "deflate"],
            body: .init(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    /// Takes in a body of any size without keeping it, and says how many bytes arrived: the
    /// other end of upload demonstrations and benchmarks.
    static func upload(_ request: Request) async throws -> Response {
        var count = 0
        for try await buffer in request.body { count += buffer.readableBytes }
        return json(["bytes": .integer(Int64(count)), "content-type": .string(request.headers[.contentType] ?? "")])
    }

    // MARK: - Samples

    static let sampleSlideshow: ParameterValue = [
        "slideshow": [
            "author": "Yours Truly",
            "date": "date of publication",
            "slides": [
                ["title": "Wake up to WonderWidgets!", "type": "all"],
                ["items": ["Why <em>WonderWidgets</em> are great", "Who <em>buys</em> WonderWidgets"], "title": "Overview", "type": "all"],
            ],
            "title": "Sample Slide Show",
        ],
    ]

    static let sampleXML = """
        <?xml version='1.0' encoding='us-ascii'?>
        <!--  A SAMPLE set of slides  -->
        <slideshow title="Sample Slide Show" date="Date of publication" author="Yours Truly">
            <slide type="all">
              <title>Wake up to WonderWidgets!</title>
            </slide>
            <slide type="all">
                <title>Overview</title>
                <item>Why <em>WonderWidgets</em> are great</item>
                <item/>
                <item>Who <em>buys</em> WonderWidgets</item>
            </slide>
        </slideshow>

        """

    /// A 16×8 PNG gradient.
    static let samplePNG: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAABAAAAAICAIAAAB/FOjAAAAA1klEQVR4nBXQURUAIQhEUSIYgQhGIIIRiGAEIhjhRTACEYxABCPsyvfcgYOI0AQVumDCEFyYQghLQNhCCkco4QoiSlNU6YopQ3FlKqEsBWUrqRyllKs/MJqhRjfMGIYb0whjGRjbSOMYZVz7gdMcdbpjznDcmU44y8HZTjrHKef6D4IWaNADC0bgwQwiWAHBDjI4QQU3fgDtnUp/+xmvlPmSLN5sSDhQcP8vSNISTXpiyUg8mUkkK192J5mcpJKbPyhaoUUvrBiFF7OIYtWr3UUWp6jiFh/zNcQBY/ZOawAAAABJRU5ErkJggg==")!)
}

extension Router {
    /// Registers `handler` for GET and for HEAD, as httpbin answers HEAD on every GET route.
    ///
    /// HEAD runs the same handler on the request as a GET, so even a route that echoes the
    /// method (`/anything`) answers with GET's status and headers, Content-Length included; the
    /// body's writer never runs: a HEAD of `/bytes/1073741824` or `/drip` generates nothing, and
    /// NIO refuses body bytes on a HEAD response anyway.
    func getAndHead(_ path: RouterPath, handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        get(path, use: handler)
        head(path) { request, context in
            var head = request.head
            head.method = .get
            let response = try await handler(Request(head: head, body: request.body), context)
            let empty = ResponseBody(contentLength: response.body.contentLength) { writer in try await writer.finish(nil) }
            return Response(status: response.status, headers: response.headers, body: empty)
        }
    }
}
