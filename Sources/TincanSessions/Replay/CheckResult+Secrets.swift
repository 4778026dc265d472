import TincanCore

extension CheckResult {
    /// This result with the secret values in its failure hidden: a check on a secret header
    /// (Authorization, Cookie, a token) or cookie quotes the value it found and the one it
    /// expected, and reports, history and lesson notes must not show either. An Authorization
    /// value keeps its scheme (`"Basic ••••••"`), as ``Redaction/headerValue(name:value:)`` shows it.
    ///
    /// - Parameters:
    ///   - name: The header's (or cookie's) name; nothing is hidden unless it names a secret.
    ///   - actual: The value found.
    ///   - predicate: The check, whose expected texts are hidden too once expanded by `template`.
    func hidingSecrets(of name: String, actual: ParameterValue?, predicate: Predicate, template: Template, alwaysSecret: Bool = false) -> CheckResult {
        guard var failure, alwaysSecret || Redaction.isSecret(name: name) else { return self }
        var secrets = predicate.expectedTexts.compactMap { try? Template.text(template.expand(.string($0))) }
        if case .string(let value)? = actual { secrets.append(value) }
        // Longest first, so a value that holds another is hidden whole.
        for secret in secrets.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            let hidden = alwaysSecret ? Redaction.mask : Redaction.headerValue(name: name, value: secret)
            failure = failure.replacingOccurrences(of: JSONWriter.string(.string(secret)), with: JSONWriter.string(.string(hidden)))
                .replacingOccurrences(of: secret, with: hidden)
        }
        return CheckResult(name: self.name, failure: failure)
    }
}

extension CheckResult {
    /// This result with the URLs in its failure shown as the report's `url` field shows them
    /// (``Redaction/url(_:)``: the password and secret query fields hidden): a failed `url:` or
    /// `location:` check quotes the URL it found and the one it expected.
    func hidingURLSecrets(actual: ParameterValue?, predicate: Predicate, template: Template) -> CheckResult {
        guard var failure else { return self }
        var urls = predicate.expectedTexts.compactMap { try? Template.text(template.expand(.string($0))) }
        if case .string(let value)? = actual { urls.append(value) }
        for url in urls.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            let hidden = Redaction.url(url)
            guard hidden != url else { continue }
            failure = failure.replacingOccurrences(of: JSONWriter.string(.string(url)), with: JSONWriter.string(.string(hidden)))
                .replacingOccurrences(of: url, with: hidden)
        }
        return CheckResult(name: name, failure: failure)
    }
}

extension RequestOutcome {
    /// The outcome with each of `values` (a secret variable's, an environment variable's)
    /// hidden in what reports show of it: the URL, the error, the checks' messages.
    func hiding(_ values: [String]) -> RequestOutcome {
        func hide(_ text: String) -> String {
            values.reduce(text) { text, value in text.contains(value) ? text.replacingOccurrences(of: value, with: Redaction.mask) : text }
        }
        var outcome = self
        outcome.url = hide(url)
        outcome.error = error.map(hide)
        outcome.checks = checks.map { CheckResult(name: hide($0.name), failure: $0.failure.map(hide)) }
        outcome.assertionResults = assertionResults.map { $0.map { CheckResult(name: hide($0.name), failure: $0.failure.map(hide)) } }
        return outcome
    }
}

extension BodyPath {
    /// The name its last step reads (`password` in `$.json.password`), or nil.
    var lastKey: String? {
        if case .key(let name)? = steps.last { return name }
        return nil
    }
}

extension Predicate {
    /// The texts its checks compare with, as written (`equals`, `contains`, `starts-with`…).
    var expectedTexts: [String] {
        checks.flatMap { check -> [String] in
            switch check {
            case .equals(.string(let text)), .notEquals(.string(let text)), .contains(let text), .startsWith(let text), .endsWith(let text), .matches(let text): [text]
            case .oneOf(let values): values.compactMap { if case .string(let text) = $0 { text } else { nil } }
            case .not(let inner): inner.expectedTexts
            default: []
            }
        }
    }
}
