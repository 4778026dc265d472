import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OrderedCollections
import TincanCore

/// The streaming routes: `/sse`, server-sent events at a pace, and `/stream/{n}`, httpbin's
/// NDJSON stream.
enum StreamRoutes {
    /// The most events `/sse` sends, and the most lines `/stream/{n}` sends (httpbin caps at 100).
    static let maximumCount = 100_000
    /// The longest pause between two events, in milliseconds.
    static let maximumDelay = 60_000
    /// The most padding characters `/stream/{n}?pad=` adds to each line.
    static let maximumPad = 65_536

    /// Adds the routes to `router`.
    static func register(on router: Router<DemoRoutes.Context>) {
        router.getAndHead("/sse") { request, _ in try events(request) }
        router.getAndHead("/stream/:n") { request, context in try lines(request, context) }
    }

    /// `/sse?count=N&delay=MS&event=TYPE&retry=MS`: N events (5 by default), ids 1 to N, one every
    /// `delay` milliseconds (100 by default, the first at once), each with the type `event` (none:
    /// the client reads `message`) and the data `{"n": i, "sent": µs}`, the server's clock (µs since
    /// 1970) when the event was written, so a client can measure the latency. `retry` puts a
    /// `retry:` field in the first event. A comment line opens the stream.
    static func events(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        let count = try number(query["count"], "count", default: 5, in: 0...maximumCount)
        let delay = try number(query["delay"], "delay", default: 100, in: 0...maximumDelay)
        let retry = query["retry"] == nil ? nil : try number(query["retry"], "retry", default: 0, in: 0...3_600_000)
        let type = query["event"].map(String.init)
        if let type, type.contains(where: { $0 == "\n" || $0 == "\r" }) {
            throw HTTPError(.badRequest, message: "event must be one line")
        }
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": tincan demo stream\n\n"))
            for index in 1...max(count, 1) where count > 0 {
                if index > 1, delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
                var text = "id: \(index)\n"
                if let type { text += "event: \(type)\n" }
                if index == 1, let retry { text += "retry: \(retry)\n" }
                let sent = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
                text += "data: {\"n\": \(index), \"sent\": \(sent)}\n\n"
                try await writer.write(ByteBuffer(string: text))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// `/stream/{n}`: n lines of JSON (`application/x-ndjson`), each httpbin's `/get` object with
    /// an `id` from 0 to n-1, and with `?pad=K` a `pad` member of K dots, to make long streams.
    static func lines(_ request: Request, _ context: DemoRoutes.Context) throws -> Response {
        let count = try context.parameters.require("n", as: Int.self)
        guard (0...maximumCount).contains(count) else { throw HTTPError(.badRequest, message: "n must be 0-\(maximumCount)") }
        let pad = try number(request.uri.queryParameters["pad"], "pad", default: 0, in: 0...maximumPad)
        var object = OrderedDictionary<String, ParameterValue>()
        object["url"] = .string(DemoRoutes.absoluteURL(request))
        object["args"] = .dictionary(DemoRoutes.queryObject(request))
        object["headers"] = .dictionary(DemoRoutes.headerObject(request))
        object["origin"] = .string(DemoRoutes.origin(context))
        if pad > 0 { object["pad"] = .string(String(repeating: ".", count: pad)) }
        // Every line is the object written once, with `"id":N` in place of its closing brace:
        // the same bytes as writing each line's object whole, at a fraction of the cost, so a
        // long stream measures the client rather than this server.
        let head = JSONWriter.bytes(.dictionary(object)).dropLast() + Array(#","id":"#.utf8)
        let body = ResponseBody { writer in
            var buffer = ByteBuffer()
            for id in 0..<count {
                buffer.writeBytes(head)
                buffer.writeString(String(id))
                buffer.writeBytes([UInt8(ascii: "}"), UInt8(ascii: "\n")])
                // Lines go out in blocks, as a server streaming from a query would send them.
                if buffer.readableBytes >= 64 * 1024 {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
    }

    /// A whole number from the query, in `range`, or `fallback` when absent.
    private static func number(_ text: Substring?, _ name: String, default fallback: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError(.badRequest, message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
