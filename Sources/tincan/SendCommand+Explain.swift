import Foundation
import TincanCore
import TincanSessions

/// `tincan send --explain`: the Explain view's text instead of a send, as plain text or, with
/// `--format markdown`, as Markdown for handouts (with the wire preview in a fenced block).
extension SendCommand {
    /// Refuses the formats that do not go with `--explain` (or without it), naming the option.
    func checkExplainFormat() throws {
        if explain, format == .json {
            throw CLIFailure.badInput("--format json does not go with --explain; expected text or markdown")
        }
        if !explain, format == .markdown {
            throw CLIFailure.badInput("--format markdown is for --explain only; expected text or json")
        }
        if showSecrets, !explain {
            throw CLIFailure.badInput("--show-secrets is for --explain only")
        }
    }

    /// Writes the explanation of `request`, built from `draft`, with the Connection step the
    /// options give; secrets hidden unless `--show-secrets`.
    func writeExplanation(of draft: RequestDraft, request: HTTPRequest, httpVersion: HTTPVersionPreference, proxy: ProxySettings,
                          clientIdentity: ClientIdentity?, retryPolicy: RetryPolicy?, to output: inout StandardOutput) throws {
        var options = TaskOptions()
        options.proxy = proxy
        options.clientIdentity = clientIdentity
        options.httpVersion = httpVersion
        options.retryPolicy = retryPolicy
        var explanation = try draft.explain(request, cookieFile: cookieJar, httpVersion: httpVersion)
        explanation.steps.append(Explanation.connection(to: request.url, options: options))
        let hide = showSecrets ? [] : Self.secrets(of: request, typedURL: draft.url)
        for step in explanation.steps.indices {
            for line in explanation.steps[step].lines.indices {
                explanation.steps[step].lines[line].text = Self.hiding(hide, in: explanation.steps[step].lines[line].text)
            }
        }
        switch format {
        case .markdown:
            let preview = Self.hiding(hide, in: try RequestPreview.text(request, httpVersion: httpVersion))
            // The URL as a code span: its `_` and `*` are not emphasis.
            try output.write("# \(request.method) `\(Self.hiding(hide, in: request.url.string))`\n\n" + explanation.markdown(wirePreview: preview))
        case .text, .json:
            try output.write(explanation.text())
        }
        try output.flush()
    }

    /// The secrets in `request` and what each is shown as: secret headers' values (as
    /// ``Redaction/headerValue(name:value:)`` hides them), and the URL's password and secret query
    /// fields (``Redaction/url(_:)``), as a whole URL, as typed (`typedURL`, which may still hold
    /// a password the build moved into `Authorization`) and as the wire head's target.
    static func secrets(of request: HTTPRequest, typedURL: String) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for field in request.headers.fields where Redaction.isSecret(name: field.name) && !field.value.isEmpty {
            pairs.append((field.value, Redaction.headerValue(name: field.name, value: field.value)))
        }
        for url in [request.url.string, typedURL, request.wireHead.target] {
            pairs.append((url, Redaction.url(url)))
        }
        // Longest first, so a value that contains another is hidden whole.
        return pairs.filter { $0.0 != $0.1 }.sorted { $0.0.count > $1.0.count }
    }

    private static func hiding(_ secrets: [(String, String)], in text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }
}
