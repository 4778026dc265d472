import Foundation
import OrderedCollections
import TincanCore

/// Checks `assert: request:` on the request as built, before it is sent: its method, URL,
/// query fields, headers and body paths.
struct RequestChecker {
    let request: HTTPRequest
    let template: Template
    /// The word each check's name starts with: `request`, or `received` for a `received:` check
    /// on the request as the server received it.
    var naming = "request"

    /// A check's name after that word: `method`, `query page`, `header Accept`, `body $.id`.
    static func name(of check: RequestCheck) -> String {
        switch check {
        case .method: "method"
        case .url: "url"
        case .query(let name, _): "query \(name)"
        case .header(let name, _): "header \(name)"
        case .body(let path, _): "body \(path.text)"
        }
    }

    func check(_ assertions: [Assertion]) -> [CheckResult] {
        assertions.compactMap { assertion in
            guard case .request(let check) = assertion else { return nil }
            let label = naming + " " + Self.name(of: check)
            switch check {
            case .method(let predicate):
                return result(label, predicate, .string(request.method))
            case .url(let predicate):
                let actual = ParameterValue.string(request.url.string)
                return result(label, predicate, actual).hidingURLSecrets(actual: actual, predicate: predicate, template: template)
            case .query(let name, let predicate):
                let actual = Self.queryFields(request.url.query).first { $0.name == name }.map { ParameterValue.string($0.value) }
                return result(label, predicate, actual).hidingSecrets(of: name, actual: actual, predicate: predicate, template: template)
            case .header(let name, let predicate):
                let actual = request.headers[name].map(ParameterValue.string)
                return result(label, predicate, actual).hidingSecrets(of: name, actual: actual, predicate: predicate, template: template)
            case .body(let path, let predicate):
                let name = label
                switch body {
                case .success(let value):
                    let found = path.value(in: value)
                    return CheckResult(name: name, failure: path.tooMany(found) ?? failure(predicate, found, isNodeList: !path.isSingular))
                        .hidingSecrets(of: path.lastKey ?? "", actual: found, predicate: predicate, template: template)
                case .failure(let reason):
                    return CheckResult(name: name, failure: reason.description)
                }
            }
        }
    }

    private func result(_ name: String, _ predicate: Predicate, _ actual: ParameterValue?) -> CheckResult {
        CheckResult(name: name, failure: failure(predicate, actual))
    }

    private func failure(_ predicate: Predicate, _ actual: ParameterValue?, isNodeList: Bool = false) -> String? {
        predicate.failure(for: actual, isNodeList: isNodeList, template: template)
    }

    /// Why a request's body has no value for a path.
    struct BodyFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The body as a value tree: JSON, or a form's fields (`application/x-www-form-urlencoded`).
    private var body: Result<ParameterValue, BodyFailure> {
        guard case .bytes(let bytes) = request.body else {
            return .failure(BodyFailure(description: request.body.length == nil || request.body.length == 0
                ? "the request has no body" : "the request's body is a file or a multipart form, which body paths do not read"))
        }
        if request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            var fields: OrderedDictionary<String, ParameterValue> = [:]
            for field in Self.queryFields(String(decoding: bytes, as: UTF8.self)) where fields[field.name] == nil { fields[field.name] = .string(field.value) }
            return .success(.dictionary(fields))
        }
        do {
            return .success(try JSONParser.parse(bytes: bytes))
        } catch {
            return .failure(BodyFailure(description: "the request's body is not JSON or a form: \(error)"))
        }
    }

    /// The fields of a query string or form body, decoded (`+` is a space, `%XX` a byte).
    static func queryFields(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        func decode(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return query.split(separator: "&").map { field in
            let pieces = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(pieces[0]), pieces.count > 1 ? decode(pieces[1]) : "")
        }
    }
}
