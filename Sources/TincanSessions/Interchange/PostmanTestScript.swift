import Foundation
import TincanCore

/// A request's captures and checks as a Postman test script (`pm.test`, `pm.expect`,
/// `pm.collectionVariables.set`), for an exported collection: what Tincan checks, Postman
/// checks the same way. What a script line cannot say is named instead.
enum PostmanTestScript {
    /// The script's lines; empty when the request captures and checks nothing.
    static func lines(for request: SavedRequest, place: String, warnings: inout [String]) -> [String] {
        var lines: [String] = []
        for assertion in request.assertions {
            guard let line = line(for: assertion) else {
                warnings.append("\(place): the check \(CheckLine.text(of: assertion)) is not carried over to the test script")
                continue
            }
            lines.append(line)
        }
        for (name, source) in request.captures {
            guard let value = value(of: source) else {
                warnings.append("\(place): the capture \(name) is not carried over to the test script")
                continue
            }
            lines.append("pm.collectionVariables.set(\(literal(name)), \(value));")
        }
        return lines
    }

    /// A JavaScript string literal (JSON's, which JavaScript reads the same).
    static func literal(_ text: String) -> String {
        JSONWriter.string(.string(text))
    }

    /// An expected value, its `{{variables}}` resolved by Postman.
    static func expected(_ value: ParameterValue) -> String {
        if case .string(let text) = value, Template.mayHoldReferences(text) { return "pm.variables.replaceIn(\(literal(text)))" }
        return JSONWriter.string(value)
    }

    /// Where a capture's or check's value is read in a test script.
    static func value(of source: CaptureSource) -> String? {
        switch source {
        case .status: return "pm.response.code"
        case .header(let name): return "pm.response.headers.get(\(literal(name)))"
        case .body(let path): return accessor(path)
        case .filtered(let inner, [.count]): return value(of: inner).map { "(\($0) || []).length" }
        case .response(.duration): return "pm.response.responseTime"
        default: return nil
        }
    }

    /// A plain body path as a JavaScript accessor on the JSON body.
    static func accessor(_ path: BodyPath) -> String? {
        var expression = "pm.response.json()"
        for step in path.steps {
            switch step {
            case .key(let key): expression += "?.[\(literal(key))]"
            case .index(let index) where index >= 0: expression += "?.[\(index)]"
            default: return nil
            }
        }
        return expression
    }

    static func line(for assertion: Assertion) -> String? {
        switch assertion {
        case .status(let set):
            guard let test = statusTest(set) else { return nil }
            return "pm.test(\(literal("status is \(set)")), () => { const c = pm.response.code; pm.expect(\(test), \(literal("status ")) + c).to.be.true; });"
        case .header(let name, let predicate):
            return check("header \(name)", value: value(of: .header(name))!, predicate)
        case .body(let path, let predicate):
            guard let value = value(of: .body(path)) else { return nil }
            return check("body \(path.text)", value: value, predicate)
        case .response(.duration, let predicate):
            return check("duration", value: "pm.response.responseTime", predicate)
        default:
            return nil
        }
    }

    /// A status set (`200`, `2xx`, `200-299,304`) as a test of `c`.
    static func statusTest(_ set: String) -> String? {
        var tests: [String] = []
        for part in set.split(separator: ",").map({ $0.trimmingWhitespace() }) {
            if let code = Int(part) {
                tests.append("c === \(code)")
            } else if part.count == 3, part.hasSuffix("xx"), let hundred = Int(part.prefix(1)) {
                tests.append("(c >= \(hundred * 100) && c <= \(hundred * 100 + 99))")
            } else if let dash = part.firstIndex(of: "-"), let low = Int(part[..<dash]), let high = Int(part[part.index(after: dash)...]) {
                tests.append("(c >= \(low) && c <= \(high))")
            } else {
                return nil
            }
        }
        return tests.isEmpty ? nil : tests.joined(separator: " || ")
    }

    /// A `pm.test` of `value` against each of the predicate's checks (with its count filter).
    static func check(_ title: String, value: String, _ predicate: Predicate) -> String? {
        var subject = value
        if !predicate.filters.isEmpty {
            guard predicate.filters == [.count] else { return nil }
            subject = "(\(value) || []).length"
        }
        var expectations: [String] = []
        for check in predicate.checks {
            let expect = "pm.expect(\(subject))"
            switch check {
            case .equals(let expected): expectations.append("\(expect).to.eql(\(Self.expected(expected)));")
            case .notEquals(let expected): expectations.append("\(expect).to.not.eql(\(Self.expected(expected)));")
            case .contains(let part): expectations.append("\(expect).to.include(\(Self.expected(.string(part))));")
            case .matches(let pattern): expectations.append("\(expect).to.match(new RegExp(\(literal(pattern))));")
            case .exists(true): expectations.append("\(expect).to.not.be.undefined;")
            case .exists(false): expectations.append("\(expect).to.be.undefined;")
            case .type(let type):
                switch type {
                case .string: expectations.append("\(expect).to.be.a('string');")
                case .number, .integer: expectations.append("\(expect).to.be.a('number');")
                case .boolean: expectations.append("\(expect).to.be.a('boolean');")
                case .null: expectations.append("\(expect).to.be.null;")
                case .array: expectations.append("\(expect).to.be.an('array');")
                case .object: expectations.append("\(expect).to.be.an('object');")
                }
            case .lessThan(let bound): expectations.append("\(expect).to.be.below(\(ParameterValue.format(bound)));")
            case .greaterThan(let bound): expectations.append("\(expect).to.be.above(\(ParameterValue.format(bound)));")
            case .lessOrEqual(let bound): expectations.append("\(expect).to.be.at.most(\(ParameterValue.format(bound)));")
            case .greaterOrEqual(let bound): expectations.append("\(expect).to.be.at.least(\(ParameterValue.format(bound)));")
            case .count(let count): expectations.append("\(expect).to.have.lengthOf(\(count));")
            case .oneOf(let values): expectations.append("\(expect).to.be.oneOf([\(values.map(Self.expected).joined(separator: ", "))]);")
            case .startsWith(let prefix): expectations.append("pm.expect(String(\(subject)).startsWith(\(Self.expected(.string(prefix))))).to.be.true;")
            case .endsWith(let suffix): expectations.append("pm.expect(String(\(subject)).endsWith(\(Self.expected(.string(suffix))))).to.be.true;")
            case .isEmpty(true): expectations.append("\(expect).to.be.empty;")
            case .isEmpty(false): expectations.append("\(expect).to.not.be.empty;")
            case .not, .isDate: return nil
            }
        }
        return "pm.test(\(literal(title)), () => { \(expectations.joined(separator: " ")) });"
    }
}
