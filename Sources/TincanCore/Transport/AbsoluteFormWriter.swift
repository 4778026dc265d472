import NIOCore
import NIOHTTP1

/// Writes each request line in absolute form (`GET http://example.com/path HTTP/1.1`, RFC 9112
/// §3.2.2), for plain http sent to a forwarding HTTP proxy, as curl sends it.
///
/// AsyncHTTPClient 1.37 sends every proxied request through a `CONNECT` tunnel, which a proxy
/// that allows CONNECT only to port 443 (Squid's `http_access deny CONNECT !SSL_ports`,
/// tinyproxy's `ConnectPort 443`) refuses for port 80, and which no caching proxy can cache. It
/// has no setting for the request-target, so the transport gives such a request to a client
/// without a proxy, addressed to the proxy itself (the connection, its pool and its timeouts
/// are AsyncHTTPClient's as for any server), and this handler, put before the HTTP/1 encoder
/// of each of that client's connections, turns the origin-form target AsyncHTTPClient writes
/// into the absolute one: `http://`, the request's `Host` (the target's authority, which Tincan
/// always sends), and the path.
///
/// No upstream issue is known for this (none found in AsyncHTTPClient's tracker, December 2026);
/// the version is pinned with `exact:` in Package.swift, so an upgrade re-checks it first.
final class AbsoluteFormWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.uri.hasPrefix("/"), let authority = head.headers.first(name: "Host") else {
            return context.write(data, promise: promise)
        }
        head.uri = "http://" + authority + head.uri
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

extension AbsoluteFormWriter {
    /// Puts a writer before the HTTP/1 encoder of a new connection (AsyncHTTPClient's
    /// `http1_1ConnectionDebugInitializer`, called before any request uses it).
    static func install(on channel: any Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let encoder = try pipeline.handler(type: HTTPRequestEncoder.self)
        try pipeline.addHandler(AbsoluteFormWriter(), position: .after(encoder))
    }
}
