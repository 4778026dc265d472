import TerminalUI
import TincanCore
import TincanSessions

/// What the Received view knows of the last send's request as its server received it.
public enum ReceivedLookup: Sendable, Equatable {
    /// Nothing asked yet.
    case idle
    /// Nothing to show for send `exchange`: the reason, in words.
    case unavailable(exchange: Int, String)
    /// Asked the demo server for its request `requestID`.
    case loading(exchange: Int, requestID: Int)
    /// The server's record, and the view's lines: the comparison is made once, as it arrives,
    /// never per frame.
    case loaded(exchange: Int, ReceivedRequest, lines: [TokenLine])
    case failed(exchange: Int, String)

    /// The send it is about.
    var exchange: Int? {
        switch self {
        case .idle: nil
        case let .unavailable(id, _), let .loading(id, _), let .loaded(id, _, _), let .failed(id, _): id
        }
    }
}

/// Why the demo server's record of a request could not be read.
public struct ReceivedFetchFailure: Error, Sendable, Equatable {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }
}

/// The Received view (issue 20 §3): the last request as the demo server received it, diffed line
/// by line against the preview of what Tincan sent. A demo server's response names its request
/// in `X-Tincan-Request-Id`; the view asks that server's `/__received/{id}` for the bytes.
extension AppState {
    /// alt+r: the Received view, or the wire preview again.
    mutating func toggleReceived() {
        previewView = previewView == .received ? .wire : .received
        previewScroll = ScrollState()
        status = StatusMessage(previewView == .received
            ? "Received: what the server got, against the preview line by line. alt+r: back."
            : "Preview: the bytes on the wire.")
    }

    /// While the Received view shows, asks the last send's server for what it received, once per
    /// send; a response from any other server says why there is nothing.
    mutating func fetchReceivedIfNeeded() -> [Effect] {
        guard previewView == .received, let exchange, exchange.phase != .sending, received.exchange != exchange.id else { return [] }
        guard let result = exchange.result, let response = result.response else {
            received = .unavailable(exchange: exchange.id, "No response arrived, so no server said what it received.")
            return []
        }
        if case .hit? = result.cache {
            received = .unavailable(exchange: exchange.id, "The response came from Tincan's cache: nothing was sent, so no server received anything.")
            return []
        }
        guard let value = response.headers[ReceivedRequest.idHeader], let requestID = Int(value), requestID > 0 else {
            received = .unavailable(exchange: exchange.id, "The response has no \(ReceivedRequest.idHeader) header: it did not come from a Tincan demo server (tincan serve, or the welcome session's), and only those keep what they received.")
            return []
        }
        let url = URLReference(scheme: result.request.url.scheme, authority: result.request.url.authority, path: "/__received/\(requestID)")
        received = .loading(exchange: exchange.id, requestID: requestID)
        return [.fetchReceived(exchange: exchange.id, url: url, security: exchange.flow.plan?.security ?? SecuritySettings())]
    }

    /// Takes the demo server's answer for send `id`.
    mutating func receivedFetched(_ id: Int, _ outcome: Result<ReceivedRequest, ReceivedFetchFailure>) {
        guard case .loading(id, _) = received, let exchange, exchange.id == id, let sent = exchange.result?.request else { return }
        switch outcome {
        case let .success(request): received = .loaded(exchange: id, request, lines: Self.lines(ReceivedComparison(sent: sent, received: request), request))
        case let .failure(failure): received = .failed(exchange: id, failure.reason)
        }
        let bounds = previewScrollBounds()
        previewScroll.clamp(contentHeight: bounds.contentHeight, viewport: bounds.viewport)
    }

    /// The Received view's lines: the comparison, then the notes on what the transport changed.
    func receivedLines() -> [TokenLine] {
        guard let exchange else {
            return [[Token(.muted, "Nothing sent yet. Send a request (ctrl+r) to a Tincan demo server to see what it received.")]]
        }
        guard received.exchange == exchange.id else {
            return [[Token(.muted, exchange.phase == .sending ? "Waiting for the response…" : "Asking the server what it received…")]]
        }
        switch received {
        case .idle:
            return []
        case let .unavailable(_, reason):
            return [[Token(.muted, reason)]]
        case let .loading(_, requestID):
            return [[Token(.muted, "Asking the demo server for request \(requestID)…")]]
        case let .failed(_, reason):
            return [[Token(.error, "✗ What the server received could not be read: \(reason)")]]
        case let .loaded(_, _, lines):
            return lines
        }
    }

    private static func lines(_ comparison: ReceivedComparison, _ request: ReceivedRequest) -> [TokenLine] {
        let mismatches = comparison.mismatches
        var lines: [TokenLine] = [[
            mismatches == 0
                ? Token(.success, "✓ as the preview said")
                : Token(.error, "✗ \(mismatches) line\(mismatches == 1 ? " differs" : "s differ")"),
            Token(.label, " · request #\(request.id) · \(RequestPreview.shortSize(Double(request.byteCount)))"),
            Token(.muted, request.isTruncated ? ", only part kept" : ""),
        ], [
            Token(.muted, "− preview only + received only ~ transport"),
        ]]
        for line in comparison.lines {
            switch line.kind {
            case .same: lines.append([Token(.base, "  " + line.text)])
            case .missing: lines.append([Token(.error, "− " + line.text)])
            case .unexpected: lines.append([Token(.error, "+ " + line.text)])
            case .transport: lines.append([Token(.warning, "~ " + line.text)])
            }
        }
        if !request.isComplete { lines += [[], [Token(.warning, "The connection closed before the request's end arrived.")]] }
        if !comparison.notes.isEmpty {
            lines.append([])
            lines += comparison.notes.map { [Token(.muted, $0)] }
        }
        return lines
    }
}
