/// A stage of one send, in the order a request passes through them: what a slow-motion send
/// stops before (issue 20 §4).
public enum SendStage: String, Sendable, CaseIterable, Comparable {
    /// The draft's URL is resolved against the base URL (the front end's step).
    case build
    /// The request serializer encodes the parameters and sets the headers (the front end's step).
    case serialize
    /// The connection is opened (DNS, TCP, TLS): AsyncHTTPClient writes the request head as soon as it is up.
    case connect
    /// The request head is written. Not a stop of its own: AsyncHTTPClient writes the head as
    /// soon as the connection is up, so the `connect` stop covers it; a front end marks it passed
    /// when the task reports the head sent.
    case requestHead
    /// The request body is written.
    case requestBody
    /// The response head has arrived and waits to be handed to the task's delegate.
    case responseHead
    /// The first bytes of the response body have arrived and wait to be handed to the task's delegate.
    case responseBody
    /// The response serializer checks the status and the content type.
    case validate
    /// The response serializer decodes the body.
    case decode

    public static func < (lhs: SendStage, rhs: SendStage) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The stage in words ("request head").
    public var title: String {
        switch self {
        case .build: "build"
        case .serialize: "serialize"
        case .connect: "connect"
        case .requestHead: "request head"
        case .requestBody: "request body"
        case .responseHead: "response head"
        case .responseBody: "response body"
        case .validate: "validate"
        case .decode: "decode"
        }
    }

    /// What happens when the stage goes ahead, in one sentence.
    public var action: String {
        switch self {
        case .build: "RequestDraft → URL: the URL is resolved against the base URL, the items sorted into parameters and headers."
        case .serialize: "The request serializer encodes the parameters into the query or the body and sets Content-Type and the default headers."
        case .connect: "DNS, TCP and TLS; as soon as the connection is up AsyncHTTPClient writes the request head (a bodiless request's head is the whole request)."
        case .requestHead: "The request head is written as soon as the connection is up (no stop of its own)."
        case .requestBody: "The body stream writes its first bytes: the server has the head, not the body."
        case .responseHead: "The status line and headers have arrived; the delegate has not been told (the body is held back)."
        case .responseBody: "The first body bytes have arrived and are held: nothing more is read from the socket until they are taken."
        case .validate: "The response serializer checks the status code and the Content-Type."
        case .decode: "The response serializer decodes the body (JSON, XML, plist, image…)."
        }
    }

    /// The Explain view's steps this stage is about.
    public var topics: [Explanation.Topic] {
        switch self {
        case .build: [.url]
        case .serialize: [.parameters, .contentType, .encoding, .headers]
        case .connect: [.authorization, .connection]
        case .requestHead: [.headers, .properties]
        case .requestBody: [.contentType, .encoding]
        case .responseHead, .validate: [.validation]
        case .responseBody, .decode: [.validation, .errors]
        }
    }
}

/// Stops a task before each ``SendStage`` until it is let through: a slow-motion send.
///
/// A task's ``TaskOptions/stageGate``: the runner waits at `connect`, `validate` and `decode`,
/// and the transport at `requestBody` (before the body stream's first write, the head sent), `responseHead` (the
/// future AsyncHTTPClient waits on before reading the body) and `responseBody` (the first body
/// part's future). These are real pauses: while one waits, nothing more is sent or read, and the
/// idle timeout does not run (the deadline does: it is the whole request's). A wait that throws
/// ends the task as cancelled; a cancelled task ends the wait it is in.
///
/// Two gates are equal when they are the same gate (made by one ``init(_:)``).
public struct StageGate: Sendable, Hashable {
    private final class Identity: Sendable {}
    private let identity = Identity()
    private let pass: @Sendable (SendStage) async throws -> Void

    /// A gate that calls `pass` before each stage; the stage goes ahead when it returns.
    ///
    /// - Parameter pass: Waits until `stage` may go ahead; throws to end the task. It is called on
    ///   the task's own task, or a task of the transport's, which is cancelled when the request is.
    public init(_ pass: @escaping @Sendable (SendStage) async throws -> Void) {
        self.pass = pass
    }

    /// Waits until `stage` may go ahead.
    ///
    /// - Throws: ``TransportError`` `.cancelled` when the gate refuses or the task is cancelled.
    public func wait(before stage: SendStage) async throws(TransportError) {
        do {
            try await pass(stage)
        } catch {
            throw TransportError(.cancelled)
        }
        if Task.isCancelled { throw TransportError(.cancelled) }
    }

    public static func == (lhs: StageGate, rhs: StageGate) -> Bool {
        lhs.identity === rhs.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(identity))
    }
}
