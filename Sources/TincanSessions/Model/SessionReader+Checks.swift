import Foundation
import TincanCore
import Yams

/// The parts of `capture:` and `assert:` beyond body paths and headers: checks, filters, XPath,
/// facts about the exchange, and checks on the request as built.
extension SessionReader {
    func predicate(_ node: Node) throws -> Predicate {
        guard let mapping = node.mapping else { return Predicate([.equals(try parameter(node))]) }
        var checks: [Predicate.Check] = []
        var filters: [ValueFilter] = []
        for (key, _, value) in try file.entries(of: mapping, SessionKey.Check.self, in: "a check") {
            switch key {
            case .equals: checks.append(.equals(try parameter(value)))
            case .notEquals: checks.append(.notEquals(try parameter(value)))
            case .contains: checks.append(.contains(try text(value, "the text or element to look for")))
            case .matches: checks.append(.matches(try pattern(value)))
            case .exists: checks.append(.exists(try bool(value)))
            case .type:
                let name = try text(value, "a type")
                guard let type = Predicate.ValueType(rawValue: name) else {
                    throw file.error(at: value, "'\(name)' is not a type; expected one of: \(Predicate.ValueType.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                checks.append(.type(type))
            case .lessThan: checks.append(.lessThan(try bound(value, key)))
            case .greaterThan: checks.append(.greaterThan(try bound(value, key)))
            case .lessOrEqual: checks.append(.lessOrEqual(try bound(value, key)))
            case .greaterOrEqual: checks.append(.greaterOrEqual(try bound(value, key)))
            case .count:
                checks.append(.count(Int(try number(value, .count))))
            case .oneOf:
                guard let sequence = value.sequence else { throw file.error(at: value, "expected a list of allowed values") }
                checks.append(.oneOf(try sequence.map(parameter)))
            case .startsWith: checks.append(.startsWith(try text(value, "the text the value starts with")))
            case .endsWith: checks.append(.endsWith(try text(value, "the text the value ends with")))
            case .isEmpty: checks.append(.isEmpty(try bool(value)))
            case .isDate: checks.append(.isDate(try bool(value)))
            case .not: checks.append(.not(try predicate(value)))
            case .filters: filters = try self.filters(value)
            }
        }
        guard !checks.isEmpty else {
            let names = SessionKey.Check.allCases.filter { $0 != .filters }.map(\.rawValue).joined(separator: ", ")
            throw file.error(at: node, "expected a check: one of \(names)")
        }
        return Predicate(checks, filters: filters)
    }

    /// A capture written as a mapping: one source, and `filters:` if any.
    func capture(_ node: Node, named name: String) throws -> CaptureSource {
        let entries = try entries(node, SessionKey.Capture.self, in: "capture '\(name)'")
        let sources = entries.filter { $0.key != .filters }
        guard sources.count == 1, let (key, _, value) = sources.first else {
            let names = SessionKey.Capture.allCases.filter { $0 != .filters }.map { "\($0.rawValue):" }.joined(separator: ", ")
            throw file.error(at: node, "expected exactly one of \(names) in capture '\(name)' (and filters: if any)")
        }
        let source: CaptureSource
        switch key {
        case .json: source = .body(try path(try text(value, "a body path such as $.json.id"), at: value))
        case .header: source = .header(try text(value, "a header name"))
        case .status: source = .status
        case .regex: source = .regex(try pattern(value))
        case .xpath: source = .xpath(try xpath(try text(value, "an XPath expression such as string(//title)"), at: value))
        case .cookie: source = .response(.cookie(try cookie(try text(value, "a cookie name, or NAME[ATTRIBUTE]"), at: value)))
        case .url, .redirects, .location, .duration, .bodySize, .bodySHA256, .bodyMD5, .streamEvents, .streamFirst, .streamLast:
            guard try bool(value) else { throw file.error(at: value, "expected true: \(key.rawValue): true captures the \(key.rawValue)") }
            source = .response(ResponseValue(key: key.rawValue) ?? .url)
        case .filters: throw file.error(at: value, "filters: is not a source")
        }
        guard let filtersNode = entries.first(where: { $0.key == .filters })?.value else { return source }
        return .filtered(source, try filters(filtersNode))
    }

    /// `filters:`: a list of names (`count`) and one-key mappings (`{nth: 2}`).
    func filters(_ node: Node) throws -> [ValueFilter] {
        let names = SessionKey.Filter.allCases.map(\.rawValue).joined(separator: ", ")
        guard let sequence = node.sequence else { throw file.error(at: node, "expected a list of filters such as [first, to-int]: \(names)") }
        return try sequence.map { item in
            let key: SessionKey.Filter
            var argument: Node?
            if item.scalar != nil {
                let name = try text(item, "a filter")
                guard let found = SessionKey.Filter(rawValue: name) else { throw file.error(at: item, "'\(name)' is not a filter; expected one of: \(names)") }
                key = found
            } else {
                let entries = try entries(item, SessionKey.Filter.self, in: "a filter")
                guard entries.count == 1, let entry = entries.first else { throw file.error(at: item, "expected one filter per item, such as {nth: 2}") }
                key = entry.key
                argument = entry.value
            }
            func required(_ expected: String) throws -> Node {
                guard let argument else { throw file.error(at: item, "the filter \(key.rawValue) needs \(expected): {\(key.rawValue): …}") }
                return argument
            }
            switch key {
            case .nth: return .nth(Int(try number(try required("an index"), .filterIndex)))
            case .split: return .split(try text(try required("a separator"), "a separator"))
            case .regex: return .regex(try pattern(try required("a regular expression")))
            case .count, .first, .last, .toInt, .toFloat, .urlDecode, .base64Decode:
                if let argument { throw file.error(at: argument, "the filter \(key.rawValue) takes no value; write it as a plain name") }
                return switch key {
                case .count: .count
                case .first: .first
                case .last: .last
                case .toInt: .toInt
                case .toFloat: .toFloat
                case .urlDecode: .urlDecode
                default: .base64Decode
                }
            }
        }
    }

    /// `request:` in `assert:` (and `received:`, named by `place`, which takes the same checks).
    func requestChecks(_ node: Node, in place: String = "request") throws -> [RequestCheck] {
        var checks: [RequestCheck] = []
        for (key, _, value) in try entries(node, SessionKey.RequestAssert.self, in: place) {
            switch key {
            case .method: checks.append(.method(try predicate(value)))
            case .url: checks.append(.url(try predicate(value)))
            case .query:
                for (name, _, check) in try pairs(value, "a mapping of query fields to expected values") { checks.append(.query(name, try predicate(check))) }
            case .headers:
                for (name, _, check) in try pairs(value, "a mapping of header names to expected values") { checks.append(.header(name, try predicate(check))) }
            case .body:
                for (pathText, pathNode, check) in try pairs(value, "a mapping of body paths such as $.name to expected values") {
                    checks.append(.body(try path(pathText, at: pathNode), try predicate(check)))
                }
            }
        }
        return checks
    }

    func xpath(_ expression: String, at node: Node) throws -> String {
        do {
            try XPath.validate(expression)
        } catch {
            throw file.error(at: node, "\(error)")
        }
        return expression
    }

    /// A cookie's name, or `NAME[Attribute]`.
    func cookie(_ text: String, at node: Node) throws -> String {
        if case .failure(let error) = CookieAttribute.split(text) { throw file.error(at: node, error.description) }
        return text
    }

    private func pattern(_ node: Node) throws -> String {
        let pattern = try text(node, "a regular expression")
        guard (try? NSRegularExpression(pattern: pattern)) != nil else { throw file.error(at: node, "'\(pattern)' is not a regular expression") }
        return pattern
    }

    private func bound(_ node: Node, _ key: SessionKey.Check) throws -> Double {
        try number(node, NumericRange.comparison.named(key.rawValue))
    }
}
