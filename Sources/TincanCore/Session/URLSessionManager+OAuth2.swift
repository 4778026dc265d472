extension URLSessionManager {
    /// Puts `Authorization: Bearer` for `options.oauth2` on a request sent outside a task (a
    /// WebSocket handshake: one request, so no 401 can be answered with a new token): the
    /// session's cached token, else one refreshed or obtained through the grant, its token
    /// requests sent as a task's are (this manager's transport and trust, `options`' proxy,
    /// client certificate and deadline). Without `options.oauth2` nothing changes.
    ///
    /// - Returns: The token requests made (none when the token was cached), and why no token
    ///   could be had, as the failure a task with the same options would end with.
    public func authorizeWithBearer(_ request: inout HTTPRequest, options: TaskOptions) async -> (tokenRequests: [OAuth2TokenRecord], failure: TransportError?) {
        guard let oauth2 = options.oauth2 else { return ([], nil) }
        var bearer = BearerState(origin: request.url)
        let failure = await bearer.obtain(oauth2, from: oauth2Tokens, exchange: TaskRunner.tokenExchange(transport: transport, options: options, timing: transportTiming, deadline: options.deadline))
        bearer.adapt(&request)
        return (bearer.records, failure)
    }
}
