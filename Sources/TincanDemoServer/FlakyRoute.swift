import HTTPTypes
import Hummingbird

/// `/flaky/{id}/{n}`: fails the first `n` requests for `id`, then succeeds, so retries can be
/// watched and tested. Each failure is a 503 (another with `?status=`, a `Retry-After` with
/// `?retry-after=`); the answer after them is `{"id": ..., "attempt": N}`. The table of ids is
/// per server and bounded: past ``capacity`` ids the oldest is forgotten.
final class FlakyRoute: Sendable {
    /// The most ids remembered.
    static let capacity = 1_000

    private let counts = CallCounts(capacity: FlakyRoute.capacity)

    /// Adds the route, for GET, HEAD, POST and PUT, to `router`.
    func register(on router: Router<DemoRoutes.Context>) {
        for method in [HTTPRequest.Method.get, .head, .post, .put] {
            router.on("/flaky/:id/:failures", method: method) { [self] request, context in try respond(request, context) }
        }
    }

    private func respond(_ request: Request, _ context: DemoRoutes.Context) throws -> Response {
        let id = try context.parameters.require("id")
        let failures = try context.parameters.require("failures", as: Int.self)
        guard (0...1_000).contains(failures) else { throw HTTPError(.badRequest, message: "failures must be 0-1000") }
        let query = request.uri.queryParameters
        let status = query["status"].flatMap { Int(String($0)) } ?? 503
        guard (400...599).contains(status) else { throw HTTPError(.badRequest, message: "status must be 400-599") }
        let attempt = counts.next(id)
        guard attempt > failures else {
            var headers: HTTPFields = [.contentLength: "0"]
            if let retryAfter = query["retry-after"] { headers[.retryAfter] = String(retryAfter) }
            return Response(status: .init(code: status), headers: headers)
        }
        return DemoRoutes.json(["id": .string(id), "attempt": .integer(Int64(attempt))])
    }
}
