import Foundation
import OrderedCollections
import TincanCore

/// Bruno's `vars:post-response` as captures and its `assert` block as checks, where the
/// expression is one Tincan has: `res.status`, `res.body…` (a path), `res.headers…` (a header),
/// `res.responseTime`, with Bruno's operators (`eq 200`, `contains x`, `isString`…).
extension BrunoImporter {
    /// What a response expression reads.
    enum ResponseExpression: Equatable {
        case status
        case body(BodyPath, counted: Bool)
        case header(String)
        case responseTime
    }

    /// `vars:post-response`: each expression Tincan can capture; the others named.
    mutating func responseVariables(_ file: BrunoFile, place: String) -> OrderedDictionary<String, CaptureSource> {
        var captures: OrderedDictionary<String, CaptureSource> = [:]
        for pair in file.pairs("vars:post-response") {
            let name = Self.variableName(pair.name)
            guard pair.isEnabled else {
                notCarried.append("\(place): the disabled post-response variable \(name) is not carried over")
                continue
            }
            switch Self.expression(pair.value) {
            case .status?: captures[name] = .status
            case .header(let header)?: captures[name] = .header(header)
            case .body(let path, false)?: captures[name] = .body(path)
            case .body(let path, true)?: captures[name] = .filtered(.body(path), [.count])
            default: notCarried.append("\(place): the post-response variable \(name) = \(pair.value) is not carried over; Tincan captures res.status, res.body paths and res.headers")
            }
        }
        return captures
    }

    /// The `assert` block's checks Tincan can make; the others named.
    mutating func assertions(_ file: BrunoFile, place: String) -> [Assertion] {
        var assertions: [Assertion] = []
        for pair in file.pairs("assert") {
            guard pair.isEnabled else {
                notCarried.append("\(place): the disabled assertion \(pair.name): \(pair.value) is not carried over")
                continue
            }
            if let assertion = Self.assertion(pair.name, pair.value) {
                assertions.append(assertion)
            } else {
                notCarried.append("\(place): the assertion \(pair.name): \(pair.value) is not carried over")
            }
        }
        return assertions
    }

    /// `res.status`, `res.body.a[0].b`, `res.body.items.length`, `res.headers.name` or
    /// `res.headers['name']`, `res.responseTime`; nil for anything else.
    static func expression(_ text: String) -> ResponseExpression? {
        let text = text.trimmingWhitespace()
        switch text {
        case "res.status", "res.getStatus()": return .status
        case "res.responseTime", "res.getResponseTime()": return .responseTime
        default: break
        }
        if text.hasPrefix("res.headers") || text.hasPrefix("res.header") {
            var rest = Substring(text.hasPrefix("res.headers") ? text.dropFirst("res.headers".count) : text.dropFirst("res.header".count))
            if rest.hasPrefix(".") {
                rest = rest.dropFirst()
            } else if rest.hasPrefix("["), rest.hasSuffix("]") {
                rest = rest.dropFirst().dropLast()
                rest = rest.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))[...]
            } else {
                return nil
            }
            return rest.isEmpty || !HTTPHeaders.isValidName(String(rest)) ? nil : .header(String(rest))
        }
        // A method call (`res.body.n.toString()`) is JavaScript, which Tincan does not run.
        guard text == "res.body" || text.hasPrefix("res.body.") || text.hasPrefix("res.body["), !text.contains("(") else { return nil }
        var path = "$" + text.dropFirst("res.body".count)
        var counted = false
        if path.hasSuffix(".length") {
            path = String(path.dropLast(".length".count))
            counted = true
        }
        guard let parsed = try? BodyPath(parsing: path), parsed.isSingular else { return nil }
        return .body(parsed, counted: counted)
    }

    /// One assertion, or nil when Tincan has no equivalent.
    static func assertion(_ left: String, _ right: String) -> Assertion? {
        guard let expression = expression(left), let (checks, status) = predicate(right) else { return nil }
        switch expression {
        case .status:
            guard let status else { return nil }
            return .status(status)
        case .body(let path, let counted): return .body(path, Predicate(checks, filters: counted ? [.count] : []))
        case .header(let name): return .header(name, Predicate(checks))
        case .responseTime: return .response(.duration, Predicate(checks))
        }
    }

    /// Bruno's operators: the checks, and for the status the set they allow (`eq 200`, `in 200,201`).
    static func predicate(_ text: String) -> (checks: [Predicate.Check], status: String?)? {
        let text = text.trimmingWhitespace()
        let word = text.prefix { !$0.isWhitespace }
        let argument = text.dropFirst(word.count).trimmingWhitespace()
        // `in` and `notIn` take `a,b` or `[a, b]`; `matches` a pattern or `/pattern/`.
        let listText = argument.hasPrefix("[") && argument.hasSuffix("]") ? String(argument.dropFirst().dropLast()) : argument
        let list = listText.split(separator: ",").map { value(String($0)) }
        let pattern = argument.count >= 2 && argument.hasPrefix("/") && argument.hasSuffix("/") ? String(argument.dropFirst().dropLast()) : argument
        func number(_ value: ParameterValue) -> Double? {
            switch value {
            case .integer(let integer): Double(integer)
            case .double(let double): double
            default: nil
            }
        }
        switch word {
        case "eq" where argument == "undefined": return ([.exists(false)], nil)
        case "neq" where argument == "undefined": return ([.exists(true)], nil)
        case "eq":
            let expected = value(argument)
            return ([.equals(expected)], number(expected).map { _ in argument })
        case "neq": return ([.notEquals(value(argument))], nil)
        case "gt", "gte", "lt", "lte":
            guard let bound = number(value(argument)) else { return nil }
            let check: Predicate.Check = switch word {
            case "gt": .greaterThan(bound)
            case "gte": .greaterOrEqual(bound)
            case "lt": .lessThan(bound)
            default: .lessOrEqual(bound)
            }
            return ([check], nil)
        case "between":
            guard list.count == 2, let low = number(list[0]), let high = number(list[1]) else { return nil }
            return ([.greaterOrEqual(low), .lessOrEqual(high)], nil)
        case "in":
            let statuses = list.allSatisfy { number($0) != nil } ? list.map(\.importedText).joined(separator: ",") : nil
            return ([.oneOf(list)], statuses)
        case "notIn": return ([.not(Predicate([.oneOf(list)]))], nil)
        case "contains": return ([.contains(value(argument).importedText)], nil)
        case "notContains": return ([.not(Predicate([.contains(value(argument).importedText)]))], nil)
        case "length":
            guard case .integer(let count) = value(argument), let exact = Int(exactly: count) else { return nil }
            return ([.count(exact)], nil)
        case "matches": return ([.matches(pattern)], nil)
        case "notMatches": return ([.not(Predicate([.matches(pattern)]))], nil)
        case "startsWith": return ([.startsWith(value(argument).importedText)], nil)
        case "endsWith": return ([.endsWith(value(argument).importedText)], nil)
        case "isEmpty": return ([.isEmpty(true)], nil)
        case "isNotEmpty": return ([.isEmpty(false)], nil)
        case "isNull": return ([.equals(.null)], nil)
        case "isUndefined": return ([.exists(false)], nil)
        case "isDefined": return ([.exists(true)], nil)
        case "isNumber": return ([.type(.number)], nil)
        case "isString": return ([.type(.string)], nil)
        case "isBoolean": return ([.type(.boolean)], nil)
        case "isArray": return ([.type(.array)], nil)
        // Bruno's chai checks these strictly: `to.be.true`, `to.be.false`.
        case "isTruthy": return ([.equals(.bool(true))], nil)
        case "isFalsy": return ([.equals(.bool(false))], nil)
        case "isJson": return nil
        default:
            // No operator: Bruno compares for equality.
            let expected = value(text)
            return ([.equals(expected)], number(expected).map { _ in text })
        }
    }

    /// An operand as Bruno reads it: a number, `true`, `false`, `null`, a quoted string, else the text.
    static func value(_ text: String) -> ParameterValue {
        let text = text.trimmingWhitespace()
        if text.count >= 2, let quote = text.first, quote == "\"" || quote == "'", text.last == quote {
            return .string(String(text.dropFirst().dropLast()))
        }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if let number = try? JSONParser.parse(text), case .integer = number { return number }
        if let number = try? JSONParser.parse(text), case .double = number { return number }
        return .string(convert(text))
    }
}
