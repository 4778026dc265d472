import TincanCore

/// The secrets of one request and how each is shown: what `tincan send --explain` and a lesson's
/// handout hide in the text they write about the request.
public struct RequestSecrets: Sendable {
    /// Each secret and what it is shown as, longest first, so a value that contains another is
    /// hidden whole.
    private let pairs: [(secret: String, shown: String)]

    /// No secrets: text is written as it is (`--show-secrets`).
    public static let none = RequestSecrets(pairs: [])

    private init(pairs: [(secret: String, shown: String)]) {
        self.pairs = pairs
    }

    /// The secrets in `request`: secret headers' values (as ``Redaction/headerValue(name:value:)``
    /// hides them), and the URL's password and secret query fields (``Redaction/url(_:)``), as a
    /// whole URL, as typed (`typedURL`, which may still hold a password the build moved into
    /// `Authorization`) and as the wire head's target.
    public init(of request: HTTPRequest, typedURL: String) {
        var pairs: [(String, String)] = []
        for field in request.headers.fields where Redaction.isSecret(name: field.name) && !field.value.isEmpty {
            pairs.append((field.value, Redaction.headerValue(name: field.name, value: field.value)))
        }
        for url in [request.url.string, typedURL, request.wireHead.target] {
            pairs.append((url, Redaction.url(url)))
        }
        self.pairs = pairs.filter { $0.0 != $0.1 }.sorted { $0.0.count > $1.0.count }
    }

    /// Whether there is nothing to hide.
    public var isEmpty: Bool { pairs.isEmpty }

    /// These secrets and `other`'s, longest first.
    public func merging(_ other: RequestSecrets) -> RequestSecrets {
        RequestSecrets(pairs: (pairs + other.pairs).sorted { $0.secret.count > $1.secret.count })
    }

    /// `text` with every secret replaced by how it is shown.
    public func hiding(in text: String) -> String {
        guard !pairs.isEmpty else { return text }
        return pairs.reduce(text) { $0.replacingOccurrences(of: $1.secret, with: $1.shown) }
    }

    /// `explanation` with every line's secrets hidden.
    public func hiding(in explanation: Explanation) -> Explanation {
        var hidden = explanation
        for step in hidden.steps.indices {
            for line in hidden.steps[step].lines.indices {
                hidden.steps[step].lines[line].text = hiding(in: hidden.steps[step].lines[line].text)
            }
        }
        return hidden
    }
}
