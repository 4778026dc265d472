import NIOCore
import Synchronization

/// A task's OAuth 2.0 bearer token: obtained before the first request, sent to the request's
/// own origin only, and renewed once when that origin answers 401.
struct BearerState {
    /// The origin the token is for: the task's first request's.
    let origin: URLReference
    /// The token sent, once obtained.
    var token: String?
    /// Whether the one renewal a 401 may cause has been made.
    var renewed = false
    /// The token requests made, in order.
    var records: [OAuth2TokenRecord] = []

    /// Gets a token from `store` (a new one when `rejecting` the current); returns the task's
    /// failure when none can be had.
    mutating func obtain(_ oauth2: OAuth2Authorization, from store: OAuth2TokenStore, exchange: @escaping OAuth2Exchange,
                         rejecting: Bool = false) async -> TransportError? {
        if rejecting { renewed = true }
        do {
            let outcome = try await store.token(for: oauth2.configuration, rejected: rejecting ? token : nil, exchange: exchange, interaction: oauth2.interaction)
            token = outcome.token.accessToken
            records += outcome.records
            return nil
        } catch {
            records += error.records
            return TransportError(error.error.reason == .cancelled ? .cancelled : .authorization(error.error.description))
        }
    }

    /// Sets `Authorization: Bearer` on a request to the token's origin.
    func adapt(_ request: inout HTTPRequest) {
        guard let token, TaskRunner.sameOrigin(request.url, origin) else { return }
        request.headers.set(name: "Authorization", value: "Bearer \(token)")
    }

    /// Whether a 401 from `url` renews the token: it was sent there, and not renewed yet.
    func refreshesOn401(_ url: URLReference) -> Bool {
        token != nil && !renewed && TaskRunner.sameOrigin(url, origin)
    }
}

extension TaskRunner {
    /// Sends token and device requests through the task's transport, with its proxy, client
    /// certificate and trust, within what is left of its deadline, keeping at most
    /// ``OAuth2TokenStore/maximumResponseBytes`` of each answer.
    /// - Parameter deadline: What is left of the task's deadline, in seconds, or nil for none.
    func tokenExchange(deadline: Double?) -> OAuth2Exchange {
        Self.tokenExchange(transport: transport, options: options, timing: transportTiming, deadline: deadline)
    }

    /// Token and device requests through `transport`, with `options`' proxy and client
    /// certificate, as a task with those options sends them; `timing` is the transport's clock.
    static func tokenExchange(transport: any Transport, options: TaskOptions, timing transportTiming: Timing, deadline: Double?) -> OAuth2Exchange {
        return { (request: HTTPRequest) async throws(OAuth2Error) -> (status: Int, body: [UInt8]) in
            let endpoint = "endpoint \(request.url.string)"
            let received = Mutex<[UInt8]>([])
            do {
                let route = try Self.route(to: request.url, options.proxy)
                let hopOptions = TransportOptions(idleTimeout: 30, deadline: deadline, decompression: options.decompression,
                                                  connection: ConnectionOptions(proxy: route.server, forwardsToProxy: route.forwardsInAbsoluteForm,
                                                                               clientIdentity: options.clientIdentity,
                                                                               httpVersion: options.httpVersion == .http1_1 ? .http1_1 : .automatic,
                                                                               maximumHeaderBytes: options.maximumHeaderBytes),
                                                  timing: transportTiming)
                let response = try await transport.send(request, options: hopOptions) { event in
                    guard case .bodyChunk(let buffer, _) = event else { return }
                    try received.withLock { bytes in
                        guard bytes.count + buffer.readableBytes <= OAuth2TokenStore.maximumResponseBytes else {
                            throw TransportError(.limitExceeded("the answer is larger than \(OAuth2TokenStore.maximumResponseBytes / 1024) KiB"))
                        }
                        bytes += buffer.readableBytesView
                    }
                }
                return (response.statusCode, received.withLock { $0 })
            } catch let error as TransportError {
                switch error.reason {
                case .cancelled: throw OAuth2Error(.cancelled)
                case .limitExceeded(let detail): throw OAuth2Error(.badResponse(endpoint: endpoint, detail))
                default: throw OAuth2Error(.transport(endpoint: endpoint, error.description))
                }
            } catch {
                throw OAuth2Error(.transport(endpoint: endpoint, "\(error)"))
            }
        }
    }
}
