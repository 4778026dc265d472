/// Redirects of a task (Alamofire's `RedirectHandler`): which responses are followed, and the
/// request each one leads to.
///
/// 303 always becomes GET; 301 and 302 turn POST into GET, as browsers and URLSession do;
/// 307 and 308 repeat the method and body. A GET drops the body and its headers. Credentials
/// stay with the origin that was asked.
struct RedirectHandler: Sendable {
    /// How many redirects a task follows.
    let limit: Int

    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Whether `head` is a redirect to follow after `followed` others: its body is not kept.
    func follows(_ head: HTTPResponse, after followed: Int) -> Bool {
        guard followed < limit, Self.statuses.contains(head.statusCode), let location = head.headers["Location"] else { return false }
        return !location.isEmpty
    }

    /// The next request when `response` redirects and the limit allows, else nil (the response
    /// is then the task's answer).
    func next(from request: HTTPRequest, response: HTTPResponse, after followed: Int) -> (request: HTTPRequest, hop: Redirect)? {
        guard follows(response, after: followed), let location = response.headers["Location"] else { return nil }
        var target = URLReference(parsing: URLReference.escapingInvalidCharacters(location)).resolved(against: request.url)
        if target.fragment == nil { target.fragment = request.url.fragment }
        guard let scheme = target.scheme?.lowercased(), ["http", "https"].contains(scheme) else { return nil }
        var next = request
        next.url = target
        let becomesGet = response.statusCode == 303 && request.method != "HEAD"
            || [301, 302].contains(response.statusCode) && request.method == "POST"
        if becomesGet {
            next.method = "GET"
            next.body = .none
            for name in ["Content-Type", "Content-Length", "Transfer-Encoding"] { next.headers.remove(name: name) }
        }
        if !TaskRunner.sameOrigin(target, request.url) {
            // Credentials are for the origin that was asked (scheme, host and port: RFC 6454),
            // never for the one a redirect names: an https → http hop to the same host and port
            // would send them in clear text (curl strips them alike since CVE-2022-27774/27776).
            next.headers.remove(name: "Authorization")
            next.headers.remove(name: "Cookie")
        }
        next.headers.remove(name: "Host")
        var hop = Redirect(statusCode: response.statusCode, from: request.url, to: target, method: next.method)
        hop.setCookies = response.headers.values(named: "Set-Cookie")
        return (next, hop)
    }
}
