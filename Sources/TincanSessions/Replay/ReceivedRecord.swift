import TincanCore

/// What a demo server received for one exchange, which `received:` checks read (issue 37 §1): the
/// request as the server saw it, once the bytes crossed the network, not as Tincan built it.
///
/// A Tincan demo server (`tincan serve`, the lessons' servers) numbers each request it receives
/// and names the number in its response's `X-Tincan-Request-Id`; `/__received/{id}` on the same
/// server gives the bytes. Any other server keeps nothing, and a `received:` check on its
/// exchange fails, saying so.
public enum ReceivedRecord {
    /// Why what the server received is not known.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String

        public init(_ reason: String) {
            self.reason = reason
        }

        public var description: String { reason }
    }

    /// Where the demo server that answered `result` keeps what it received for it, or why no
    /// server keeps it.
    public static func url(for result: TaskResult) -> Result<URLReference, Failure> {
        guard let response = result.response else { return .failure(Failure("no response arrived, so no server said what it received")) }
        if case .hit? = result.cache { return .failure(Failure("the response came from the cache: nothing was sent, so no server received anything")) }
        guard let value = response.headers[ReceivedRequest.idHeader], let id = Int(value), id > 0 else {
            return .failure(Failure("the response has no \(ReceivedRequest.idHeader) header: only a Tincan demo server (tincan serve, tincan learn's) keeps what it received"))
        }
        return .success(URLReference(scheme: result.request.url.scheme, authority: result.request.url.authority, path: "/__received/\(id)"))
    }

    /// The record in a `/__received/{id}` answer, or why there is none.
    public static func read(_ result: TaskResult) -> Result<ReceivedRequest, Failure> {
        if let error = result.transportError { return .failure(Failure("\(error)")) }
        guard let response = result.response else { return .failure(Failure("no response")) }
        guard response.statusCode == 200 else {
            let reason = String(decoding: result.data.prefix(300), as: UTF8.self)
            return .failure(Failure("the server answered \(response.statusCode)\(reason.isEmpty ? "" : ": " + reason)"))
        }
        do {
            return .success(try ReceivedRequest(json: try JSONParser.parse(bytes: result.data)))
        } catch {
            return .failure(Failure("\(error)"))
        }
    }

    /// Asks the demo server that answered `result`, through `manager` (the exchange's own trust
    /// settings), what it received.
    public static func fetch(for result: TaskResult, through manager: URLSessionManager) async -> Result<ReceivedRequest, Failure> {
        let url: URLReference
        switch Self.url(for: result) {
        case .success(let found): url = found
        case .failure(let failure): return .failure(failure)
        }
        var request = HTTPRequest(method: "GET", url: url)
        request.headers.set(name: "Accept", value: "application/json")
        do {
            return read(try await manager.send(request))
        } catch {
            return .failure(Failure("\(error)"))
        }
    }
}

extension ReceivedRequest {
    /// The request as the server received it, as an ``HTTPRequest`` that `received:` checks read
    /// as `request:` checks read the request as built: the request line's method and target
    /// (HTTP/2's `:method` and `:path`), the URL the target names against `origin`, the header
    /// fields as received, and the body without its chunked framing.
    func asRequest(origin: URLReference) -> HTTPRequest {
        var lines = headLines
        var method = ""
        var target = "/"
        if source == .wire, !lines.isEmpty {
            let parts = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2 {
                method = String(parts[0])
                target = String(parts[1])
            }
        }
        var headers = HTTPHeaders()
        for line in lines {
            // An HTTP/2 pseudo-header field (`:path: /x`) starts with its own colon.
            guard let colon = line.dropFirst().firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case ":method": method = value
            case ":path": target = value
            case let pseudo where pseudo.hasPrefix(":"): continue
            default: headers.add(name: name, value: value)
            }
        }
        var request = HTTPRequest(method: method, url: URLReference(parsing: target).resolved(against: origin))
        request.headers = headers
        let chunked = headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true
        let bytes = chunked && source == .wire ? ChunkedFraming.decode(body)?.data ?? body : body
        if !bytes.isEmpty { request.body = .bytes(bytes) }
        return request
    }
}
