import Foundation
import TincanCore

/// Why a capture found nothing.
public enum CaptureFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No response arrived, so there is no status.
    case noResponse
    /// The response has no header of this name.
    case noHeader(String)
    /// The body is neither JSON nor a property list, so a path finds nothing.
    case bodyNotStructured(BodyPath)
    /// The path is not in the body.
    case notInBody(BodyPath)
    /// The pattern is not a regular expression.
    case invalidPattern(String)
    /// The pattern does not match the body.
    case noMatch(String)
    /// The pattern matched, but its group took no part in the match.
    case emptyMatch(String)
    /// No response set a cookie of this name.
    case noCookie(String)
    /// The cookie was set without this attribute.
    case noCookieAttribute(String, String)
    /// The body went to this file, so its size and digest are not in memory.
    case bodyDownloaded(String)
    /// The body was streamed as it arrived and not kept whole (`send --stream`, or past max-body).
    case bodyStreamed
    /// An XPath expression or a multi-valued body path found no value it can give: why.
    case unusable(String)
    /// A filter could not apply.
    case filter(ValueFilterFailure)

    public var description: String {
        switch self {
        case .noResponse: "no response"
        case .noHeader(let name): "the response has no \(name) header"
        case .bodyNotStructured(let path): "the body is not JSON or a property list, so \(path.text) has no value"
        case .notInBody(let path): "\(path.text) is not in the body"
        case .invalidPattern(let pattern): "'\(pattern)' is not a regular expression"
        case .noMatch(let pattern): "/\(pattern)/ does not match the body"
        case .emptyMatch(let pattern): "/\(pattern)/ matched nothing"
        case .noCookie(let name): "the response set no cookie \(name)"
        case .noCookieAttribute(let name, let attribute): "the cookie \(name) was set without \(attribute)"
        case .bodyDownloaded(let path): "the body went to \(path), so its size and digest are not checked in memory"
        case .bodyStreamed: "the body was streamed as it arrived and not kept whole, so its size and digest are not checked; stream-events, stream-first and stream-last check a stream"
        case .unusable(let reason): reason
        case .filter(let failure): failure.description
        }
    }
}

/// Checks one response: assertions, captures and comparison with a recording.
struct ResponseChecker {
    let result: TaskResult
    let template: Template
    /// What the server received for the exchange, for `received:` checks: nil when it was not
    /// asked (nothing checks it).
    let received: Result<ReceivedRequest, ReceivedRecord.Failure>?
    /// The body as a JSON document, when the serializer decoded JSON or a property list, or
    /// (the HTTP serializer decodes nothing) when the bytes are JSON anyway. A plain path reads
    /// its one value from the document; a path that selects several decodes the whole body
    /// once, however many such paths are checked and captured.
    let bodyDocument: JSONDocument?
    private let bodyValue = ParsedOnce<ParameterValue?>()
    /// The body as a document for XPath, parsed on the first XPath check or capture and then
    /// kept, however many there are.
    private let markupDocument = ParsedOnce<Result<MarkupDocument, MarkupError>>()

    init(result: TaskResult, template: Template, received: Result<ReceivedRequest, ReceivedRecord.Failure>? = nil) {
        self.result = result
        self.template = template
        self.received = received
        switch result.serialization?.body {
        case .json(let document)?: bodyDocument = document
        case .propertyList(let value)?: bodyDocument = JSONDocument(value)
        default: bodyDocument = try? JSONDocument(bytes: result.data)
        }
    }

    /// What `path` selects in the body, or nil when the body is not structured or a step of a
    /// plain path finds nothing.
    private func value(at path: BodyPath) -> ParameterValue? {
        guard let bodyDocument else { return nil }
        if path.isSingular { return path.value(in: bodyDocument) }
        return bodyValue.value { bodyDocument.value }.flatMap(path.value(in:))
    }

    func check(_ assertions: [Assertion]) -> [CheckResult] {
        var checks: [CheckResult] = []
        let decidesValidity = assertions.contains {
            switch $0 {
            case .status, .valid, .errors: true
            default: false
            }
        }
        if !decidesValidity {
            checks.append(CheckResult(name: "valid", failure: result.serialization?.error.map { "the response failed validation: \(chainText($0))" }))
        }
        let status = result.response?.statusCode
        for assertion in assertions {
            switch assertion {
            case .status(let text):
                let failure: String? = (try? StatusSet(text)).flatMap { set in
                    guard let status else { return "no response" }
                    return set.codes.contains(status) ? nil : "is \(status), expected \(text)"
                }
                checks.append(CheckResult(name: "status \(text)", failure: failure))
            case .header(let name, let predicate):
                let actual = result.response?.headers[name].map(ParameterValue.string)
                checks.append(CheckResult(name: "header \(name)", failure: evaluate(predicate, actual))
                    .hidingSecrets(of: name, actual: actual, predicate: predicate, template: template))
            case .body(let path, let predicate):
                let actual = value(at: path)
                var failure = path.tooMany(actual) ?? evaluate(predicate, actual, isNodeList: !path.isSingular)
                if failure != nil, bodyDocument == nil { failure = CaptureFailure.bodyNotStructured(path).description }
                checks.append(CheckResult(name: "body \(path.text)", failure: failure).hidingSecrets(of: path.lastKey ?? "", actual: actual, predicate: predicate, template: template))
            case .valid(let expected):
                let error = result.serialization?.error
                let failure: String? = (error == nil) == expected ? nil
                    : (expected ? "the response failed validation: \(error.map(chainText) ?? "")" : "the response passed validation, expected it to fail")
                checks.append(CheckResult(name: "valid \(expected)", failure: failure))
            case .errors(let expectations):
                checks.append(CheckResult(name: "errors", failure: errorsFailure(expectations)))
            case .maxDuration(let seconds):
                let took = result.metrics.total.inSeconds
                checks.append(CheckResult(name: "max-duration \(Assertion.durationText(seconds))",
                                          failure: took <= seconds ? nil : "took \(Int((took * 1000).rounded())) ms"))
            case .xpath(let expression, let predicate):
                let failure: String? = switch xpathValue(expression) {
                case .success(let found): evaluate(predicate, found.value, isNodeList: found.isNodeSet)
                case .failure(let failure): failure.description
                }
                checks.append(CheckResult(name: "xpath \(expression)", failure: failure))
            case .response(let fact, let predicate):
                let name = if case .cookie(let cookie) = fact { "cookie \(cookie)" } else { fact.key }
                let found = capture(.response(fact))
                var result = CheckResult(name: name, failure: evaluate(predicate, found))
                switch fact {
                case .cookie(let cookie): result = result.hidingSecrets(of: cookie, actual: try? found.get(), predicate: predicate, template: template)
                case .url, .location: result = result.hidingURLSecrets(actual: try? found.get(), predicate: predicate, template: template)
                default: break
                }
                checks.append(result)
            case .request:
                // Checked on the request as built, before it is sent (RequestChecker).
                break
            case .received(let check):
                checks.append(receivedCheck(check))
            case .transportError(let predicate):
                let reason = result.transportError.map { ParameterValue.string("\($0)") }
                var failure = evaluate(predicate, reason)
                if failure != nil, reason == nil {
                    failure = "the exchange completed\(status.map { " (status \($0))" } ?? ""), with no transport error"
                }
                checks.append(CheckResult(name: "transport-error", failure: failure))
            }
        }
        return checks
    }

    /// A `received:` check: a `request:` check on the request as the server received it,
    /// named as `request:`'s are with `received` for `request`.
    private func receivedCheck(_ check: RequestCheck) -> CheckResult {
        let record: ReceivedRequest
        switch received {
        case .success(let found)?: record = found
        case .failure(let failure)?: return CheckResult(name: "received " + RequestChecker.name(of: check), failure: failure.reason)
        case nil: return CheckResult(name: "received " + RequestChecker.name(of: check), failure: "what the server received was not asked for")
        }
        var checked = RequestChecker(request: record.asRequest(origin: result.request.url), template: template, naming: "received").check([.request(check)])
            .first ?? CheckResult(name: "received " + RequestChecker.name(of: check), failure: "not checked")
        if record.isTruncated, let failure = checked.failure { checked.failure = failure + " (the server kept only part of what it received)" }
        return checked
    }

    /// A predicate on a value that a capture source gives: a source that finds nothing fails
    /// with its reason, unless the predicate asks for `exists: false`.
    private func evaluate(_ predicate: Predicate, _ found: Result<ParameterValue, CaptureFailure>) -> String? {
        switch found {
        case .success(let value): return evaluate(predicate, value)
        case .failure(let failure):
            let missing = evaluate(predicate, nil)
            return missing == nil ? nil : failure.description
        }
    }

    private func evaluate(_ predicate: Predicate, _ actual: ParameterValue?, isNodeList: Bool = false) -> String? {
        predicate.failure(for: actual, isNodeList: isNodeList, template: template)
    }

    private func errorsFailure(_ expectations: [ErrorExpectation]) -> String? {
        let chain = result.serialization?.error?.chain ?? []
        guard chain.count >= expectations.count else {
            return "the chain has \(chain.count) error\(chain.count == 1 ? "" : "s")\(chain.isEmpty ? "" : " (\(chainText(chain[0])))"), expected \(expectations.count)"
        }
        for (depth, (expected, actual)) in zip(expectations, chain).enumerated() {
            let label = depth == 0 ? "the error" : "underlying error \(depth)"
            if let code = expected.code, code != actual.code { return "\(label) has code \(actual.code) (\(actual.message)), expected \(code)" }
            if let domain = expected.domain, domain != actual.domain { return "\(label) is in \(actual.domain), expected \(domain)" }
            if let message = expected.message, let failure = evaluate(message, .string(actual.message)) { return "\(label)'s message \(failure)" }
        }
        return nil
    }

    private func chainText(_ error: ResponseSerializationError) -> String {
        error.chain.map { "\($0.message) [\($0.code)]" }.joined(separator: " ← ")
    }

    func capture(_ source: CaptureSource) -> Result<ParameterValue, CaptureFailure> {
        switch source {
        case .status:
            guard let status = result.response?.statusCode else { return .failure(.noResponse) }
            return .success(.integer(Int64(status)))
        case .header(let name):
            guard let value = result.response?.headers[name] else { return .failure(.noHeader(name)) }
            return .success(.string(value))
        case .body(let path):
            guard bodyDocument != nil else { return .failure(.bodyNotStructured(path)) }
            guard let value = value(at: path) else { return .failure(.notInBody(path)) }
            if let reason = path.tooMany(value) { return .failure(.unusable(reason)) }
            return .success(value)
        case .regex(let pattern):
            switch ValueFilter.firstGroup(of: pattern, in: String(decoding: result.data, as: UTF8.self)) {
            case .invalidPattern: return .failure(.invalidPattern(pattern))
            case .noMatch: return .failure(.noMatch(pattern))
            case .emptyGroup: return .failure(.emptyMatch(pattern))
            case .found(let text): return .success(.string(text))
            }
        case .xpath(let expression):
            return xpathValue(expression).map { $0.value }
        case .response(let fact):
            return result.value(of: fact)
        case .filtered(let source, let filters):
            return capture(source).flatMap { ValueFilter.apply(filters, to: $0).mapError(CaptureFailure.filter) }
        }
    }

    /// An XPath expression's value on the body, and whether it is a node set.
    private func xpathValue(_ expression: String) -> Result<(value: ParameterValue, isNodeSet: Bool), CaptureFailure> {
        markup.mapError { CaptureFailure.unusable($0.description) }.flatMap { document in
            do {
                return .success(try document.value(of: expression))
            } catch {
                return .failure(.unusable("\(error)"))
            }
        }
    }

    /// The body as an XML or HTML document, for XPath: HTML when the Content-Type says so or the
    /// body starts like an HTML page, XML otherwise; read in the Content-Type's charset.
    private var markup: Result<MarkupDocument, MarkupError> {
        markupDocument.value {
            let essence = result.response?.headers["Content-Type"].flatMap(MIMEType.essence(of:)) ?? ""
            let html: Bool? = switch essence {
            case "text/html", "application/xhtml+xml": true
            case "text/xml", "application/xml": false
            case let type where type.hasSuffix("+xml"): false
            default: nil
            }
            return MarkupDocument.parse(result.data, html: html, charset: result.response?.textEncodingName)
        }
    }

    func compare(with recorded: RecordedResponse) -> [CheckResult] {
        var checks: [CheckResult] = []
        let status = result.response?.statusCode
        checks.append(CheckResult(name: "recorded status", failure: status == recorded.status ? nil : "is \(status.map(String.init) ?? "none"), recorded \(recorded.status)"))
        for header in recorded.headers {
            let actual = result.response?.headers[header.name]
            checks.append(CheckResult(name: "recorded header \(header.name)",
                                      failure: actual == header.value ? nil : "is \(actual.map { "\"\($0)\"" } ?? "missing"), recorded \"\(header.value ?? "")\""))
        }
        let recordedBytes = recorded.bodyBase64 ?? Array((recorded.body ?? "").utf8)
        var failure: String?
        if let expected = try? JSONParser.parse(bytes: recordedBytes), let actual = try? JSONParser.parse(bytes: result.data) {
            let strip = { (value: ParameterValue) in recorded.ignore.reduce(value) { $1.removing(from: $0) } }
            failure = Self.firstDifference(strip(actual), recorded: strip(expected))
        } else if recordedBytes != result.data {
            failure = "differs from the recording (\(result.data.count) bytes, recorded \(recordedBytes.count))"
        }
        checks.append(CheckResult(name: "recorded body", failure: failure))
        return checks
    }

    /// The first place where a body differs from its recording, as `PATH: recorded X, got Y`
    /// with the path in the syntax of captures and assertions (`$.items[2].name`), or nil when
    /// they are the same JSON value.
    ///
    /// Objects are compared as values: the order of their members does not matter (servers and
    /// serializers reorder them freely), while arrays compare in order; `1` equals `1.0`.
    static func firstDifference(_ actual: ParameterValue, recorded: ParameterValue, at steps: [BodyPath.Step] = []) -> String? {
        let path = BodyPath.text(steps)
        switch (actual, recorded) {
        case (.dictionary(let got), .dictionary(let expected)):
            for (key, value) in expected {
                guard let other = got[key] else { return "\(BodyPath.text(steps + [.key(key)])): recorded \(Predicate.show(value)), got nothing" }
                if let difference = firstDifference(other, recorded: value, at: steps + [.key(key)]) { return difference }
            }
            if let extra = got.first(where: { expected[$0.key] == nil }) {
                return "\(BodyPath.text(steps + [.key(extra.key)])): not recorded, got \(Predicate.show(extra.value))"
            }
            return nil
        case (.array(let got), .array(let expected)):
            for index in 0..<max(got.count, expected.count) {
                let step = steps + [.index(index)]
                guard index < got.count else { return "\(BodyPath.text(step)): recorded \(Predicate.show(expected[index])), got nothing" }
                guard index < expected.count else { return "\(BodyPath.text(step)): not recorded, got \(Predicate.show(got[index]))" }
                if let difference = firstDifference(got[index], recorded: expected[index], at: step) { return difference }
            }
            return nil
        case (.integer, .double), (.double, .integer), (.double, .double):
            return Predicate.number(actual) == Predicate.number(recorded) ? nil : "\(path): recorded \(Predicate.show(recorded)), got \(Predicate.show(actual))"
        default:
            return actual == recorded ? nil : "\(path): recorded \(Predicate.show(recorded)), got \(Predicate.show(actual))"
        }
    }
}

/// A value computed on first use and kept: the checker's parsed document.
private final class ParsedOnce<Value> {
    private var stored: Value?

    func value(_ compute: () -> Value) -> Value {
        if let stored { return stored }
        let computed = compute()
        stored = computed
        return computed
    }
}
