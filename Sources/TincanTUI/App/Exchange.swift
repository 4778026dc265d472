import TerminalUI
import TincanCore
import TincanSessions

/// One send: the request, live progress while it runs, and the result when it ends.
public struct Exchange: Sendable {
    /// Where the send is.
    public enum Phase: Sendable, Equatable {
        case sending
        case finished
        case cancelled
    }

    /// Identifies the send in messages from the core.
    public var id: Int
    public var request: HTTPRequest
    public var startedAt: Double
    public var phase: Phase = .sending
    public var upload = TransferMeter()
    public var download = TransferMeter()
    /// Milestones with their times, for the status bar now and the timeline later.
    public var milestones: [(at: Double, event: String)] = []
    public var result: TaskResult?
    /// A large body that has arrived whole and is being validated and decoded: its result so
    /// far, without the serialization. The body views show it meanwhile; nil once the send completes.
    public var decoding: TaskResult?
    /// Whether the last completion kept the layout made while its body was decoded, so the
    /// views keep their place in it.
    public var keptEarlyLayout = false
    /// The events of a body streamed as it arrived (server-sent events, NDJSON), or nil.
    public var stream: StreamLog? {
        didSet { streamBody = stream.map { BodyDocument(lines: StreamPane.lines($0)) } ?? BodyDocument() }
    }
    /// The stream's events as the Pretty view's rows.
    public var streamBody = BodyDocument()
    /// The decoded body, laid out when the result arrives (rows are built as they are drawn).
    public var prettyBody = BodyDocument()
    /// The body as received: text rows, or a hex dump for binary.
    public var rawBody = BodyDocument()
    /// The saved request it was sent from, as written (for history, assertions and captures).
    public var saved: SavedRequest?
    /// Whether this send asks a GraphQL server for its schema (alt+q) rather than sends the
    /// request: its answer fills the schema list, and no check runs on it.
    public var introspection = false
    /// The base URL as written.
    public var base: String?
    /// The variables in effect when it was sent, for checking its assertions.
    public var template: Template?
    /// The saved request's assertions and captures on the response, once it arrived.
    public var checks: [CheckResult] = []
    /// The request of the session it was sent from (its index when sent).
    public var requestIndex: Int?
    /// Each assertion's verdict, by its line (``CheckLine``), so an assertion edited since
    /// shows none: `assert: request:` checks from before the send, the rest from the response.
    public var assertionVerdicts: [String: CheckResult] = [:]
    /// Why each capture that found nothing found nothing, by name.
    public var captureFailures: [String: String] = [:]
    /// `assert: request:` checked on the request as built, before it was sent.
    public var requestChecks: [CheckResult] = []
    /// Where the request's flow (`retry:`, `delay:`, `repeat:`) stands, and a send waiting for
    /// its pause to pass.
    public var flow = FlowProgress()
    /// The response serializer the send was judged by.
    public var responseSerializer: (any ResponseSerializer)?
    /// Why the response passed or failed validation, once it arrived (the Explain view's second half).
    public var validation: Explanation?
    /// The request's secrets, hidden wherever the exchange is shown (a server's echo of them too).
    public var secrets = RequestSecrets.none

    /// Creates an exchange that has just started.
    public init(id: Int, request: HTTPRequest, startedAt: Double) {
        self.id = id
        self.request = request
        self.startedAt = startedAt
        secrets = RequestSecrets(of: request, typedURL: request.url.string)
    }

    /// The elapsed time: until now while sending, the task's total afterwards.
    public func elapsed(now: Double) -> Double {
        if let result { return result.metrics.total.inSeconds }
        return now - startedAt
    }
}

/// Progress of one direction of a transfer, with a rate over the last seconds and an ETA.
public struct TransferMeter: Sendable, Equatable {
    /// The latest progress, or nil when nothing has moved this way.
    public private(set) var progress: TransferProgress?
    private var samples: [Sample] = []

    private struct Sample: Sendable, Equatable {
        var at: Double
        var bytes: Int64
    }

    /// Creates an idle meter.
    public init() {}

    /// Records progress at a time.
    public mutating func record(_ progress: TransferProgress, at time: Double) {
        self.progress = progress
        samples.append(Sample(at: time, bytes: progress.completed))
        // A two-second window: steady enough to read, quick to follow a change of pace.
        while samples.count > 2, let first = samples.first, time - first.at > 2 { samples.removeFirst() }
    }

    /// Bytes per second over the window, or nil before two samples.
    public var rate: Double? {
        guard let first = samples.first, let last = samples.last, last.at > first.at else { return nil }
        return Double(last.bytes - first.bytes) / (last.at - first.at)
    }

    /// Seconds left at the current rate, or nil when the total or the rate is unknown.
    public var secondsLeft: Double? {
        guard let progress, let expected = progress.expected, let rate, rate > 0 else { return nil }
        return Double(max(0, expected - progress.completed)) / rate
    }
}

/// A line of text as semantic pieces, styled by the theme when drawn.
public typealias TokenLine = [Token]

/// A piece of text and the theme element that styles it.
public struct Token: Sendable, Hashable {
    public var element: ThemeElement
    public var text: String

    /// Creates a token.
    public init(_ element: ThemeElement, _ text: String) {
        self.element = element
        self.text = text
    }
}
