import TincanCore

/// The keys of a session file's mappings (docs/session-format.md), one enum per mapping, in the
/// order Tincan writes them.
///
/// The reader and the writer both go through these: the reader switches over them, so a key
/// added here and not read is a compile error rather than a key read as another, and the writer
/// cannot write a key the reader would refuse. A test compares them with
/// docs/session.schema.json. The keys of `properties:` are the core's
/// ``ObservedProperty/sessionKey``.
public enum SessionKey {
    /// The top level of a session.
    public enum TopLevel: String, Sendable, CaseIterable {
        case name, description, base, defaults, variables, environments
        /// A cookie file kept across runs (issue 18 §6).
        case cookies
        /// The steps of a lesson (issue 20), in a lesson file.
        case lesson
        case requests
    }

    /// `lesson:` at the top level.
    public enum Lesson: String, Sendable, CaseIterable {
        case title, summary, steps
    }

    /// One step of `steps:` in `lesson:`.
    public enum LessonStep: String, Sendable, CaseIterable {
        case title, text, request, goals, hints
    }

    /// One goal of a step besides its checks, which are `assert:`'s keys.
    public enum LessonGoal: String, Sendable, CaseIterable {
        case says
    }

    /// `cookies:` at the top level: the jar kept across runs.
    public enum Cookies: String, Sendable, CaseIterable {
        case file
    }

    /// `defaults:`.
    public enum Defaults: String, Sendable, CaseIterable {
        case serializer, headers, properties, response, security, proxy, noproxy, tls
        case httpVersion = "http-version"
        case retryPolicy = "retry-policy"
        /// Credentials for every request without its own `auth:`.
        case auth
    }

    /// `retry-policy:`, in the defaults and in a request.
    public enum RetryPolicy: String, Sendable, CaseIterable {
        case limit, delay
        case maxDelay = "max-delay"
        case methods, statuses
    }

    /// `tls:` in the defaults: the client certificate presented to servers that ask for one.
    public enum TLS: String, Sendable, CaseIterable {
        case cert, key
    }

    /// `response:`, in the defaults and in a request.
    public enum Response: String, Sendable, CaseIterable {
        case serializer
        case acceptStatus = "accept-status"
        case acceptType = "accept-type"
        case removeNulls = "remove-nulls"
        case maxBody = "max-body"
    }

    /// `security:` in the defaults.
    public enum Security: String, Sendable, CaseIterable {
        case caFile = "ca-file"
        case pins
        case pinMode = "pin-mode"
        case insecure
        case tlsMin = "tls-min"
    }

    /// The values of `pin-mode:` in `security:`.
    public enum PinMode: String, Sendable, CaseIterable {
        case certificate
        case publicKey = "public-key"

        /// The value that names `mode` (a policy with no pins is written without one).
        public init(_ mode: SecurityPolicy.PinningMode) {
            self = mode == .publicKey ? .publicKey : .certificate
        }

        /// What the security policy pins.
        public var mode: SecurityPolicy.PinningMode {
            switch self {
            case .certificate: .certificate
            case .publicKey: .publicKey
            }
        }
    }

    /// One request of `requests:`.
    public enum Request: String, Sendable, CaseIterable {
        case name
        /// The folder the request sits in, as a slash-separated path (`pets/admin`); imports set it.
        case group
        /// The request's own variables, over the session's and the environment's.
        case variables
        case method, url, serializer, headers, query, params, body, files, auth, download, upload
        case properties, response, capture, assert
        case followRedirects = "follow-redirects"
        case maxRedirects = "max-redirects"
        case retry
        case retryInterval = "retry-interval"
        case delay
        case `repeat`
        case httpVersion = "http-version"
        case maxTime = "max-time"
        case retryPolicy = "retry-policy"
        /// A WebSocket request's messages (issue 39 §3).
        case websocket
        case recorded
    }

    /// `websocket:` in a request: the messages a WebSocket request sends.
    public enum WebSocket: String, Sendable, CaseIterable {
        case messages, receive
        case maxMessageSize = "max-message-size"
    }

    /// A message of `websocket: messages:` written as a mapping: exactly one key.
    public enum WebSocketMessage: String, Sendable, CaseIterable {
        case text, base64
    }

    /// A header written as a mapping (a header turned off).
    public enum Header: String, Sendable, CaseIterable {
        case value, enabled
    }

    /// A query field written as a mapping (a field turned off).
    public enum QueryField: String, Sendable, CaseIterable {
        case value, enabled
    }

    /// `body:` written as a mapping.
    public enum Body: String, Sendable, CaseIterable {
        case text, base64, file, graphql
    }

    /// `graphql:` in `body:`: a GraphQL operation.
    public enum GraphQL: String, Sendable, CaseIterable {
        case query, variables
        case operationName = "operation-name"
    }

    /// One part of `files:`.
    public enum FilePart: String, Sendable, CaseIterable {
        case field, path, type
    }

    /// `auth:`.
    public enum Auth: String, Sendable, CaseIterable {
        case type, user, password
        /// `type: oauth2`'s keys (RFC 6749, 7636, 8628).
        case grant
        case tokenURL = "token-url"
        case authURL = "auth-url"
        case deviceURL = "device-url"
        case redirectURI = "redirect-uri"
        case clientID = "client-id"
        case clientSecret = "client-secret"
        case clientAuth = "client-auth"
        case scope, audience
        case refreshToken = "refresh-token"
        /// Further parameters of the token request, a mapping of names to values.
        case tokenParams = "token-params"
    }

    /// `upload:` written as a mapping.
    public enum Upload: String, Sendable, CaseIterable {
        case file, rate
    }

    /// A capture written as a mapping.
    public enum Capture: String, Sendable, CaseIterable {
        case json, header, status, regex, xpath, cookie
        case url, redirects, location, duration
        case bodySize = "body-size"
        case bodySHA256 = "body-sha256"
        case bodyMD5 = "body-md5"
        case streamEvents = "stream-events"
        case streamFirst = "stream-first"
        case streamLast = "stream-last"
        /// Not a source: the filters applied to the value the source gives.
        case filters
    }

    /// `assert:`.
    public enum Assert: String, Sendable, CaseIterable {
        case status, headers, body, xpath, cookies
        case url, redirects, location, duration
        case bodySize = "body-size"
        case bodySHA256 = "body-sha256"
        case bodyMD5 = "body-md5"
        case streamEvents = "stream-events"
        case streamFirst = "stream-first"
        case streamLast = "stream-last"
        case valid, errors
        case maxDuration = "max-duration"
        case request
        case transportError = "transport-error"
        case decodedBy = "decoded-by"
        case trustedBy = "trusted-by"
        case cache
        /// The request as a Tincan demo server received it, checked as `request:` checks the
        /// request as built.
        case received
    }

    /// `request:` in `assert:`: checks on the request as built, before it is sent.
    public enum RequestAssert: String, Sendable, CaseIterable {
        case method, url, query, headers, body
    }

    /// The filters of `filters:`, each a plain name (`count`) or a one-key mapping (`{nth: 2}`).
    public enum Filter: String, Sendable, CaseIterable {
        case count, nth, first, last, split
        case toInt = "to-int"
        case toFloat = "to-float"
        case regex
        case urlDecode = "url-decode"
        case base64Decode = "base64-decode"
    }

    /// One expected error of `assert: errors:`.
    public enum ExpectedError: String, Sendable, CaseIterable {
        case code, domain, message
    }

    /// A check written as a mapping (`{contains: json}`).
    public enum Check: String, Sendable, CaseIterable {
        case equals
        case notEquals = "not-equals"
        case contains, matches, exists, type
        case lessThan = "less-than"
        case greaterThan = "greater-than"
        case count
        case oneOf = "one-of"
        case startsWith = "starts-with"
        case endsWith = "ends-with"
        case isEmpty = "is-empty"
        case not
        case lessOrEqual = "less-or-equal"
        case greaterOrEqual = "greater-or-equal"
        case isDate = "is-date"
        /// Not a check: the filters applied to the value before the checks.
        case filters
    }

    /// `recorded:`.
    public enum Recorded: String, Sendable, CaseIterable {
        case status, headers, body
        case bodyBase64 = "body-base64"
        case ignore
    }
}
