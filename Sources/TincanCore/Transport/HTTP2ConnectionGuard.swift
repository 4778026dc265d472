import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOSSL

/// Why an HTTP/2 connection was ended: a connection error Tincan met (and answered with
/// GOAWAY), or a GOAWAY with an error the server sent. Every request on the connection fails
/// with it.
public struct HTTP2ConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Who ended the connection.
    public enum Side: Sendable, Equatable {
        /// Tincan, for what the server sent.
        case client
        /// The server.
        case server
    }

    public var side: Side
    /// The HTTP/2 error code's name (RFC 9113 §7): `PROTOCOL_ERROR`, `ENHANCE_YOUR_CALM`…
    public var code: String
    /// What happened, in words; for the server's GOAWAY, its debug data (neutralised when shown).
    public var detail: String

    public init(side: Side, code: String, detail: String) {
        self.side = side
        self.code = code
        self.detail = detail
    }

    public var description: String {
        switch side {
        case .client: "HTTP/2 connection error (\(code)): \(detail); Tincan sent GOAWAY and closed the connection"
        case .server: "the server ended the HTTP/2 connection with GOAWAY \(code)" + (detail.isEmpty ? "" : " (\"\(detail)\")")
        }
    }

    /// The name of an HTTP/2 error code, or its number for one RFC 9113 does not name.
    static func name(_ code: UInt32) -> String {
        let names = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
                     "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM",
                     "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]
        return code < names.count ? names[Int(code)] : "error code \(code)"
    }

    /// What swift-nio-http2 reports a connection error for, in words.
    ///
    /// - Parameter code: The error code of the GOAWAY sent for it, which says more than the
    ///   error for a header block that does not decode (reported as a frame that cannot be parsed).
    static func words(for error: any Error, code: UInt32?) -> String {
        switch error {
        case is NIOHTTP2Errors.ExcessiveContinuationFrames:
            "the server sent a header block in more CONTINUATION frames than allowed (a CONTINUATION flood)"
        case is NIOHTTP2Errors.ExcessivelyLargeHeaderBlock:
            "the server sent a header block larger than the connection's header list size, in HEADERS and CONTINUATION frames (a CONTINUATION flood or an oversized head; --max-header-size)"
        case is NIOHTTP2Errors.UnableToParseFrame where code == 0x9, is NIOHPACKErrors.MaxHeaderListSizeViolation:
            "the server's header block does not decode within the connection's header list size (an HPACK bomb, or a broken block; --max-header-size)"
        case is NIOHTTP2Errors.ExcessiveControlFrames:
            "the server sent SETTINGS, PING or PRIORITY frames faster than 200 in 30 seconds (a control frame flood)"
        case is NIOHTTP2Errors.ExcessiveRSTFrames:
            "the server reset streams faster than 200 in 30 seconds (a RST_STREAM flood)"
        case is NIOHTTP2Errors.ExcessiveEmptyDataFrames:
            "the server sent empty DATA frames one after another (an empty frame flood)"
        case is NIOHTTP2Errors.ExcessiveOutboundFrameBuffering:
            "the server does not read the acknowledgements it asks for (a SETTINGS or PING flood)"
        case is NIOHTTP2Errors.ExcessiveNumberOfGlitches:
            "the server broke the protocol too many times"
        case is NIOHTTP2Errors.UnableToParseFrame:
            "the server sent a frame that cannot be parsed"
        default:
            if error is any NIOHPACKError { "the server's header block cannot be decoded (\(error))" } else { "\(error)" }
        }
    }
}

/// Ends an HTTP/2 connection at its first connection error, and every request on it at once,
/// with the reason.
///
/// swift-nio-http2 1.46 answers a connection error (a CONTINUATION flood, an HPACK bomb, a
/// control-frame flood) with GOAWAY and reports it, but keeps the connection open: it goes on
/// reading, and buffering, what the server sends (a CONTINUATION flood reached 2.2 GB), and
/// AsyncHTTPClient leaves the requests on it waiting until the server closes or the idle
/// timeout fires. This handler, put right after the HTTP/2 handler, learns of the error (the
/// GOAWAY going out is seen by ``HTTP2ReadAligner``, which sits before that handler, so a
/// stream's own error is never taken for the connection's), hands it to every stream
/// AsyncHTTPClient opened on the connection (each request fails with it) and closes the
/// connection. A GOAWAY from the server with an error code does the same (the aligner sees it
/// first, since the HTTP/2 handler closes the streams with a reason of its own as it reads
/// one). Used on the connection's event loop only.
///
/// The connection is closed below TLS, by ``SocketCloser`` at the head of the pipeline: a
/// TLS close (`close_notify`) would wait up to five seconds for the server's own, reading all
/// the while, and a flooding server then got as much out as the client could read before its
/// answer came (4 MB in a quiet run, 21.5 MB under load). Closed at once, the server gets out
/// no more than the kernel's socket buffers hold. The GOAWAY is already written: the HTTP/2
/// handler flushes it before it reports the error.
///
/// No upstream issue is known for this (none found in swift-nio-http2's tracker, December 2026);
/// swift-nio-http2 is pinned to 1.46.0 in Package.swift, so an upgrade re-checks it first.
final class HTTP2ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame

    /// The limit the connection's header blocks are held to (its `SETTINGS_MAX_HEADER_LIST_SIZE`).
    let headerListLimit: Int
    /// The error code of a GOAWAY that Tincan's HTTP/2 handler sent, seen on its way out: the
    /// next error reported is the connection error it answers.
    var goAwaySent: UInt32?
    /// Why the connection ended, once it has.
    private(set) var failure: HTTP2ConnectionError?
    private var streams: [ObjectIdentifier: any Channel] = [:]
    private var context: ChannelHandlerContext?
    /// Closes the socket without TLS's closing exchange.
    private let closer: SocketCloser

    init(headerListLimit: Int, closer: SocketCloser = SocketCloser()) {
        self.headerListLimit = headerListLimit
        self.closer = closer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Follows a stream AsyncHTTPClient opened, to fail its request if the connection ends.
    func register(_ stream: any Channel) {
        if let failure {
            stream.pipeline.fireErrorCaught(failure)
            return
        }
        let id = ObjectIdentifier(stream)
        streams[id] = stream
        stream.closeFuture.assumeIsolated().whenComplete { _ in self.streams[id] = nil }
    }

    /// The server sent GOAWAY with an error code (seen by the aligner before the HTTP/2 handler).
    func serverEnded(code: UInt32, debug: [UInt8]) {
        fail(HTTP2ConnectionError(side: .server, code: HTTP2ConnectionError.name(code), detail: String(decoding: debug, as: UTF8.self)))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let code = goAwaySent {
            fail(HTTP2ConnectionError(side: .client, code: HTTP2ConnectionError.name(code), detail: HTTP2ConnectionError.words(for: error, code: code)))
        } else if error is NIOHTTP2Errors.ExcessiveOutboundFrameBuffering {
            // Raised while writing, with no GOAWAY: the connection cannot go on either.
            fail(HTTP2ConnectionError(side: .client, code: "ENHANCE_YOUR_CALM", detail: HTTP2ConnectionError.words(for: error, code: nil)))
        }
        context.fireErrorCaught(error)
    }

    /// Fails every request on the connection with `error`, then closes it (at most once).
    private func fail(_ error: HTTP2ConnectionError) {
        guard failure == nil else { return }
        failure = error
        let open = streams.values
        streams = [:]
        for stream in open { stream.pipeline.fireErrorCaught(error) }
        if !closer.close() { context?.close(promise: nil) }
    }
}

/// The first handler of a connection's pipeline, next to the socket: closing from here skips
/// every handler above it, TLS's closing exchange included.
final class SocketCloser: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = Any

    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Closes the socket at once; false when this handler is not in a pipeline.
    func close() -> Bool {
        guard let context else { return false }
        context.close(promise: nil)
        return true
    }
}

extension HTTP2ConnectionGuard {
    /// The header list size swift-nio-http2 (and so AsyncHTTPClient) announces: 16 KiB.
    static let defaultHeaderListLimit = 16_384

    /// Sets up a new HTTP/2 connection (AsyncHTTPClient's `http2ConnectionDebugInitializer`,
    /// called once its settings are exchanged, before any request uses it): the read aligner
    /// between TLS and HTTP/2, this guard after the HTTP/2 handler, and, when `headerListLimit`
    /// is not the handler's own 16 KiB, a SETTINGS frame that announces it (the handler holds
    /// header blocks to it once the server has acknowledged it).
    @Sendable static func install(on channel: any Channel, headerListLimit: Int) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            // AsyncHTTPClient speaks HTTP/2 over TLS only.
            guard let tls = try? pipeline.handler(type: NIOSSLClientHandler.self), let http2 = try? pipeline.handler(type: NIOHTTP2Handler.self) else { return }
            let closer = SocketCloser()
            try pipeline.addHandler(closer, position: .first)
            let guardHandler = HTTP2ConnectionGuard(headerListLimit: headerListLimit, closer: closer)
            try pipeline.addHandler(HTTP2ReadAligner(connectionGuard: guardHandler), position: .after(tls))
            try pipeline.addHandler(guardHandler, position: .after(http2))
            if headerListLimit != defaultHeaderListLimit {
                let settings = HTTP2Frame(streamID: .rootStream, payload: .settings(.settings([HTTP2Setting(parameter: .maxHeaderListSize, value: headerListLimit)])))
                try pipeline.context(handler: guardHandler).writeAndFlush(NIOAny(settings), promise: nil)
            }
        }
    }

    /// Follows a new stream (AsyncHTTPClient's `http2StreamChannelDebugInitializer`, called on
    /// the connection's event loop before the request is written to it).
    @Sendable static func register(stream: any Channel) -> EventLoopFuture<Void> {
        if let parent = stream.parent, let guardHandler = try? parent.pipeline.syncOperations.handler(type: HTTP2ConnectionGuard.self) {
            guardHandler.register(stream)
        }
        return stream.eventLoop.makeSucceededVoidFuture()
    }
}
