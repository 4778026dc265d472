import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The loopback redirection endpoint of the authorization-code grant (RFC 8252 §7.3): a
/// one-request HTTP server on 127.0.0.1 that takes the browser's redirect, checks its `state`,
/// answers with a page saying the window can be closed, and hands the code on.
public final class OAuth2RedirectListener: Sendable {
    /// The redirect URI to send in the authorization request: the one configured, with the
    /// port the listener was given when it asked for any.
    public let redirectURI: URLReference
    private let channel: any Channel
    private let callbacks: AsyncStream<Result<String, OAuth2Error>>

    /// `http://127.0.0.1:0/callback`: any free port.
    public static let defaultRedirectURI = URLReference(parsing: "http://127.0.0.1:0/callback")

    /// Why `uri` cannot be a loopback redirect, or nil when it can.
    public static func problem(with uri: URLReference) -> String? {
        guard uri.scheme?.lowercased() == "http" else { return "redirect-uri must be a loopback http URL, not '\(uri.string)'" }
        guard let host = uri.host?.lowercased(), ["127.0.0.1", "localhost", "[::1]", "::1"].contains(host) else {
            return "redirect-uri must name 127.0.0.1, [::1] or localhost, where Tincan listens, not '\(uri.host ?? "")'"
        }
        return nil
    }

    /// Starts listening where `redirectURI` says (any free port when it names none or 0).
    ///
    /// - Parameter state: The `state` the redirect must bring back.
    /// - Throws: ``OAuth2Error`` when the URI is not loopback or the port cannot be bound.
    public static func start(redirectURI: URLReference?, state: String) async throws(OAuth2Error) -> OAuth2RedirectListener {
        var uri = redirectURI ?? defaultRedirectURI
        if let problem = problem(with: uri) { throw OAuth2Error(.configuration(problem)) }
        if uri.path.isEmpty { uri.path = "/" }
        let host = uri.host?.lowercased() == "localhost" ? "127.0.0.1" : (uri.host ?? "127.0.0.1").trimmingCharacters(in: ["[", "]"])
        let (stream, continuation) = AsyncStream<Result<String, OAuth2Error>>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let path = uri.path
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(CallbackHandler(path: path, state: state, continuation: continuation))
                    }
                }
                .bind(host: host, port: uri.port ?? 80).get()
            if let port = channel.localAddress?.port {
                var authority = uri.authority ?? host
                if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") { authority = String(authority[..<colon]) }
                uri.authority = "\(authority):\(port)"
            }
            return OAuth2RedirectListener(redirectURI: uri, channel: channel, callbacks: stream)
        } catch {
            throw OAuth2Error(.configuration("cannot listen for the redirect at \(uri.string): \(error)"))
        }
    }

    private init(redirectURI: URLReference, channel: any Channel, callbacks: AsyncStream<Result<String, OAuth2Error>>) {
        self.redirectURI = redirectURI
        self.channel = channel
        self.callbacks = callbacks
    }

    /// The authorization code the redirect brought, once it comes.
    ///
    /// - Throws: ``OAuth2Error`` for an error redirect (`error=access_denied`), a `state` that is
    ///   not the one sent, or a redirect without a code; `.cancelled` when the listener closed first.
    public func code() async throws(OAuth2Error) -> String {
        for await result in callbacks { return try result.get() }
        throw OAuth2Error(.cancelled)
    }

    /// Stops listening.
    public func close() async {
        try? await channel.close()
    }
}

/// Answers requests to the redirect path; the first one that carries the right `state` (or an
/// error) is handed on, and everything else is answered without being.
private final class CallbackHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let path: String
    let state: String
    let continuation: AsyncStream<Result<String, OAuth2Error>>.Continuation
    private var target: String?

    init(path: String, state: String, continuation: AsyncStream<Result<String, OAuth2Error>>.Continuation) {
        self.path = path
        self.state = state
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): target = head.uri
        case .body: break
        case .end:
            let (status, page) = answer(target ?? "")
            respond(context, status: status, page: page)
            target = nil
        }
    }

    /// What the browser is told, after handing the redirect's outcome on.
    private func answer(_ target: String) -> (HTTPResponseStatus, String) {
        let reference = URLReference(parsing: target)
        guard reference.path == path else { return (.notFound, "Not the OAuth 2.0 redirect path (\(path)).") }
        let pairs = OAuth2Form.decode(Substring(reference.query ?? ""))
        func value(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }
        guard value("state") == state else {
            continuation.yield(.failure(OAuth2Error(.authorization("the redirect's state does not match the one sent (a forged or stale redirect)"))))
            continuation.finish()
            return (.badRequest, "The state does not match: Tincan refused this redirect.")
        }
        if let error = value("error") {
            let description = value("error_description").map { ": \($0)" } ?? ""
            continuation.yield(.failure(OAuth2Error(.authorization("the authorization server answered \(error)\(description)"))))
            continuation.finish()
            return (.ok, "Authorization failed (\(error)). You can close this window.")
        }
        guard let code = value("code"), !code.isEmpty else {
            continuation.yield(.failure(OAuth2Error(.authorization("the redirect carried no code"))))
            continuation.finish()
            return (.badRequest, "The redirect carried no code.")
        }
        continuation.yield(.success(code))
        continuation.finish()
        return (.ok, "Tincan has the authorization code. You can close this window.")
    }

    private func respond(_ context: ChannelHandlerContext, status: HTTPResponseStatus, page: String) {
        let html = "<!doctype html><title>Tincan</title><p>\(page.replacingOccurrences(of: "<", with: "&lt;"))</p>\n"
        var headers = NIOHTTP1.HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: String(html.utf8.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: html)))), promise: nil)
        // The page is written before the connection closes.
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }
}
