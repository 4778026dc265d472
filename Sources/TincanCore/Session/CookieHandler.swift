import Foundation

/// The cookies of a task's hops: before each request, the jar's cookies for its URL after the
/// request's own `Cookie`; as each response head arrives, its `Set-Cookie` fields stored for the
/// URL that was asked. Does nothing when the request's `httpShouldHandleCookies` is off.
struct CookieHandler: Sendable {
    let jar: CookieJar
    let isEnabled: Bool
    /// The date cookie expiry is measured against.
    let date: @Sendable () -> Date

    /// Adds the jar's cookies for `request`'s URL.
    func attach(to request: inout HTTPRequest) {
        guard isEnabled, let cookies = jar.headerValue(for: request.url, now: date()) else { return }
        let own = request.headers["Cookie"]
        request.headers.set(name: "Cookie", value: own.map { "\($0); \(cookies)" } ?? cookies)
    }

    /// Stores the cookies `head` sets, for the URL that was asked.
    func store(from head: HTTPResponse, for url: URLReference) {
        guard isEnabled else { return }
        jar.store(from: head, for: url, now: date())
    }
}
