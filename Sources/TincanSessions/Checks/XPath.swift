import Foundation
import TincanCore

/// An XPath 1.0 expression, of the subset that checks on XML and HTML bodies need
/// (docs/session-format.md, *XPath*): location paths with `/` and `//`, the `child`,
/// `descendant-or-self`, `self`, `parent` and `attribute` axes in their short forms (`name`,
/// `*`, `//`, `.`, `..`, `@name`, `@*`), the node tests `text()` and `node()`, predicates (`[2]`,
/// `[last()]`, `[@id='x']`, `[name='v']`, `[contains(., 'x')]`), `|`, `or`, `and`, `=`, `!=`,
/// `<`, `<=`, `>`, `>=`, string and number literals, and the functions `string()`, `count()`,
/// `normalize-space()`, `contains()`, `starts-with()`, `not()`, `last()`, `position()`,
/// `name()`, `number()`, `boolean()`, `true()` and `false()`.
public struct XPath: Sendable {
    indirect enum Expression: Sendable {
        case path(absolute: Bool, start: Expression?, [Step])
        case literal(String)
        case number(Double)
        case function(String, [Expression])
        case binary(String, Expression, Expression)
        case union(Expression, Expression)
        case negate(Expression)
    }

    enum Axis: Sendable {
        case child, descendantOrSelf, selfNode, parent, attribute
    }

    enum Test: Sendable {
        case name(String)
        case anyElement
        case text
        case node
    }

    struct Step: Sendable {
        var axis: Axis
        var test: Test
        var predicates: [Expression]
    }

    /// A value: a node set (node indices in document order), text, a number or a boolean.
    enum Value {
        case nodes([Int])
        case string(String)
        case number(Double)
        case boolean(Bool)
    }

    static let functions: [String: ClosedRange<Int>] = [
        "string": 0...1, "count": 1...1, "normalize-space": 0...1, "contains": 2...2, "starts-with": 2...2,
        "not": 1...1, "last": 0...0, "position": 0...0, "name": 0...1, "number": 0...1, "boolean": 1...1,
        "true": 0...0, "false": 0...0,
    ]

    /// The expression as written.
    public let text: String
    let expression: Expression

    /// Parses an expression.
    ///
    /// - Throws: ``XPathError`` naming the column and what was expected there.
    public init(parsing text: String) throws(XPathError) {
        self.text = text
        var parser = XPathParser(text)
        expression = try parser.parse()
    }

    /// The expression's value on a document: a node set as the array of its nodes' string
    /// values (and `true` for `isNodeSet`); text, a number or a boolean as itself.
    func evaluate(on document: MarkupDocument) throws(XPathError) -> (value: ParameterValue, isNodeSet: Bool) {
        var evaluator = XPathEvaluator(document: document)
        let value: Value
        do {
            value = try evaluator.evaluate(expression, context: (0, 1, 1))
        } catch {
            throw XPathError(expression: text, message: error.message, column: nil)
        }
        switch value {
        case .nodes(let nodes): return (.array(nodes.map { .string(document.stringValue($0)) }), true)
        case .string(let string): return (.string(string), false)
        case .number(let number):
            if number == number.rounded(), let integer = Int64(exactly: number) { return (.integer(integer), false) }
            return (number.isFinite ? .double(number) : .string(XPathEvaluator.text(number)), false)
        case .boolean(let boolean): return (.bool(boolean), false)
        }
    }
}

/// An XPath expression that could not be parsed or evaluated.
public struct XPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The expression as written.
    public var expression: String
    /// What was expected, or what went wrong.
    public var message: String
    /// Where (1-based), or nil for an evaluation error.
    public var column: Int?

    public var description: String {
        "bad XPath '\(expression)': \(message)\(column.map { " at column \($0)" } ?? "")"
    }
}

private struct XPathParser: CharacterCursor {
    let text: String
    let characters: [Character]
    var index = 0
    var depth = 0
    /// How many operands the expression has: operator chains nest as deep as they are long.
    var terms = 0

    init(_ text: String) {
        self.text = text
        characters = Array(text)
    }

    mutating func parse() throws(XPathError) -> XPath.Expression {
        let expression = try or()
        skipSpaces()
        guard index == characters.count else { throw error("an operator or the end of the expression") }
        return expression
    }

    private mutating func or() throws(XPathError) -> XPath.Expression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 64 else { throw error("at most 64 nested expressions") }
        var left = try and()
        while takeWord("or") { left = .binary("or", left, try and()) }
        return left
    }

    private mutating func and() throws(XPathError) -> XPath.Expression {
        var left = try comparison()
        while takeWord("and") { left = .binary("and", left, try comparison()) }
        return left
    }

    private mutating func comparison() throws(XPathError) -> XPath.Expression {
        var left = try unary()
        while true {
            guard let op = ["!=", "<=", ">=", "=", "<", ">"].first(where: { take($0) }) else { return left }
            left = .binary(op, left, try unary())
        }
    }

    private mutating func unary() throws(XPathError) -> XPath.Expression {
        terms += 1
        guard terms <= 256 else { throw error("at most 256 operands in one expression") }
        if take("-") { return .negate(try unary()) }
        var left = try primaryOrPath()
        while take("|") { left = .union(left, try primaryOrPath()) }
        return left
    }

    private mutating func primaryOrPath() throws(XPathError) -> XPath.Expression {
        skipSpaces()
        guard let first = peek else { throw error("a path, a string, a number or a function") }
        if first == "\"" || first == "'" {
            index += 1
            let start = index
            while let character = peek, character != first { index += 1 }
            guard peek == first else { throw error("\(first) to close the string") }
            index += 1
            return .literal(String(characters[start..<(index - 1)]))
        }
        if first.isNumber || (first == "." && next?.isNumber == true) {
            let start = index
            while let character = peek, character.isNumber || character == "." { index += 1 }
            guard let number = Double(String(characters[start..<index])) else { throw error("a number", at: start) }
            return .number(number)
        }
        if first == "(" {
            index += 1
            let inner = try or()
            guard take(")") else { throw error("')'") }
            return try pathAfter(inner)
        }
        let start = index
        let word = name()
        skipSpaces()
        if !word.isEmpty, peek == "(", !["text", "node"].contains(word) {
            index += 1
            guard let arity = XPath.functions[word] else {
                throw error("a function: \(XPath.functions.keys.sorted().joined(separator: ", ")); '\(word)' is not one", at: start)
            }
            var arguments: [XPath.Expression] = []
            if !take(")") {
                repeat { arguments.append(try or()) } while take(",")
                guard take(")") else { throw error("',' or ')' in \(word)()") }
            }
            guard arity.contains(arguments.count) else {
                let count = arity.lowerBound == arity.upperBound ? "\(arity.lowerBound) argument\(arity.lowerBound == 1 ? "" : "s")" : "\(arity.lowerBound) to \(arity.upperBound) arguments"
                throw error("\(word)() to take \(count)", at: start)
            }
            return try pathAfter(.function(word, arguments))
        }
        index = start
        return try locationPath()
    }

    /// `(…)/step` or `f()/step`: a path that starts from an expression's nodes.
    private mutating func pathAfter(_ start: XPath.Expression) throws(XPathError) -> XPath.Expression {
        skipSpaces()
        guard peek == "/" else { return start }
        return .path(absolute: false, start: start, try steps())
    }

    private mutating func locationPath() throws(XPathError) -> XPath.Expression {
        skipSpaces()
        if peek == "/" {
            let afterSlash = index + 1 < characters.count ? characters[index + 1] : nil
            if afterSlash == nil || afterSlash == " " || afterSlash == ")" || afterSlash == "]" {
                index += 1
                return .path(absolute: true, start: nil, [])
            }
            return .path(absolute: true, start: nil, try steps())
        }
        var all = [try step()]
        all += try steps()
        return .path(absolute: false, start: nil, all)
    }

    /// `/step` and `//step`, repeated.
    private mutating func steps() throws(XPathError) -> [XPath.Step] {
        var steps: [XPath.Step] = []
        while true {
            skipSpaces()
            guard peek == "/" else { return steps }
            index += 1
            if peek == "/" {
                index += 1
                steps.append(XPath.Step(axis: .descendantOrSelf, test: .node, predicates: []))
            }
            steps.append(try step())
        }
    }

    private mutating func step() throws(XPathError) -> XPath.Step {
        skipSpaces()
        if take("..") { return XPath.Step(axis: .parent, test: .node, predicates: []) }
        if peek == ".", next != "." {
            index += 1
            return XPath.Step(axis: .selfNode, test: .node, predicates: [])
        }
        var axis = XPath.Axis.child
        if peek == "@" {
            index += 1
            axis = .attribute
        }
        let test: XPath.Test
        if peek == "*" {
            index += 1
            test = .anyElement
        } else {
            let start = index
            let word = name()
            guard !word.isEmpty else { throw error("a name, *, @name, . or .. as a step", at: start) }
            if axis == .child, ["text", "node"].contains(word), take("(") {
                guard take(")") else { throw error("')' after \(word)(") }
                test = word == "text" ? .text : .node
            } else {
                test = .name(word)
            }
        }
        var predicates: [XPath.Expression] = []
        while take("[") {
            predicates.append(try or())
            guard take("]") else { throw error("']' to close the predicate") }
        }
        return XPath.Step(axis: axis, test: test, predicates: predicates)
    }

    private mutating func name() -> String {
        var word = ""
        while let character = peek, character.isLetter || character.isNumber || "-_:".contains(character) || (character == "." && !word.isEmpty) {
            word.append(character)
            index += 1
        }
        return word
    }

    private var next: Character? { index + 1 < characters.count ? characters[index + 1] : nil }

    private mutating func takeWord(_ word: String) -> Bool {
        skipSpaces()
        let start = index
        guard take(word) else { return false }
        if let character = peek, character.isLetter || character.isNumber || character == "-" {
            index = start
            return false
        }
        return true
    }

    private func error(_ expected: String, at position: Int? = nil) -> XPathError {
        XPathError(expression: text, message: "expected \(expected)", column: (position ?? index) + 1)
    }
}

private struct XPathEvaluator {
    let document: MarkupDocument
    /// Steps taken, so that a hostile expression on a large body stops instead of running on.
    var work = 0
    static let maximumWork = 50_000_000

    init(document: MarkupDocument) {
        self.document = document
    }

    typealias Context = (node: Int, position: Int, size: Int)

    mutating func evaluate(_ expression: XPath.Expression, context: Context) throws(XPathError) -> XPath.Value {
        switch expression {
        case .literal(let text): return .string(text)
        case .number(let number): return .number(number)
        case .negate(let inner): return .number(-number(try evaluate(inner, context: context)))
        case .union(let left, let right):
            guard case .nodes(let a) = try evaluate(left, context: context), case .nodes(let b) = try evaluate(right, context: context) else {
                throw failure("| joins node sets only")
            }
            return .nodes(Array(Set(a + b)).sorted())
        case .binary(let op, let left, let right):
            let first = boolean(try evaluate(left, context: context))
            if op == "or" { return .boolean(first ? true : boolean(try evaluate(right, context: context))) }
            if op == "and" { return .boolean(first ? boolean(try evaluate(right, context: context)) : false) }
            return .boolean(compare(op, try evaluate(left, context: context), try evaluate(right, context: context)))
        case .function(let name, let arguments):
            return try function(name, arguments, context: context)
        case .path(let absolute, let start, let steps):
            var nodes: [Int]
            if let start {
                guard case .nodes(let found) = try evaluate(start, context: context) else { throw failure("a path can only follow a node set") }
                nodes = found
            } else {
                nodes = [absolute ? 0 : context.node]
            }
            for step in steps { nodes = try apply(step, to: nodes) }
            return .nodes(nodes)
        }
    }

    private mutating func apply(_ step: XPath.Step, to nodes: [Int]) throws(XPathError) -> [Int] {
        var result: [Int] = []
        var seen: Set<Int> = []
        for node in nodes {
            var candidates: [Int] = switch step.axis {
            case .child: document.nodes[node].children
            case .descendantOrSelf: document.descendantsOrSelf(node)
            case .selfNode: [node]
            case .parent: document.nodes[node].parent.map { [$0] } ?? []
            case .attribute: document.nodes[node].attributes
            }
            work += candidates.count
            guard work <= Self.maximumWork else { throw failure("the expression does too much work on this body") }
            candidates = candidates.filter { matches(step.test, $0, axis: step.axis) }
            for predicate in step.predicates {
                var kept: [Int] = []
                for (position, candidate) in candidates.enumerated() {
                    let value = try evaluate(predicate, context: (candidate, position + 1, candidates.count))
                    let holds = if case .number(let wanted) = value { Double(position + 1) == wanted } else { boolean(value) }
                    if holds { kept.append(candidate) }
                }
                candidates = kept
            }
            for candidate in candidates where seen.insert(candidate).inserted { result.append(candidate) }
        }
        return nodes.count > 1 ? result.sorted() : result
    }

    private func matches(_ test: XPath.Test, _ node: Int, axis: XPath.Axis) -> Bool {
        let kind = document.nodes[node].kind
        switch test {
        case .node: return true
        case .text: if case .text = kind { return true } else { return false }
        case .anyElement:
            switch kind {
            case .element: return axis != .attribute
            case .attribute: return axis == .attribute
            default: return false
            }
        case .name(let name):
            switch kind {
            case .element(let element): return element == name
            case .attribute(let attribute, _): return attribute == name
            default: return false
            }
        }
    }

    private mutating func function(_ name: String, _ arguments: [XPath.Expression], context: Context) throws(XPathError) -> XPath.Value {
        var values: [XPath.Value] = []
        for argument in arguments { values.append(try evaluate(argument, context: context)) }
        let document = self.document
        let contextText = { document.stringValue(context.node) }
        switch name {
        case "string": return .string(values.first.map(string) ?? contextText())
        case "count":
            guard case .nodes(let nodes) = values[0] else { throw failure("count() takes a node set") }
            return .number(Double(nodes.count))
        case "normalize-space":
            let text = values.first.map(string) ?? contextText()
            return .string(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " "))
        case "contains":
            let (haystack, needle) = (string(values[0]), string(values[1]))
            return .boolean(needle.isEmpty || haystack.contains(needle))
        case "starts-with": return .boolean(string(values[0]).hasPrefix(string(values[1])))
        case "not": return .boolean(!boolean(values[0]))
        case "last": return .number(Double(context.size))
        case "position": return .number(Double(context.position))
        case "name":
            if let value = values.first {
                guard case .nodes(let nodes) = value else { throw failure("name() takes a node set") }
                return .string(nodes.first.flatMap(document.name) ?? "")
            }
            return .string(document.name(context.node) ?? "")
        case "number": return .number(number(values.first ?? .string(contextText())))
        case "boolean": return .boolean(boolean(values[0]))
        case "true": return .boolean(true)
        default: return .boolean(false)
        }
    }

    private func compare(_ op: String, _ left: XPath.Value, _ right: XPath.Value) -> Bool {
        // A node set compares through each of its nodes' text (XPath 1.0 §3.4).
        if case .nodes(let nodes) = left { return nodes.contains { compare(op, .string(document.stringValue($0)), right) } }
        if case .nodes(let nodes) = right { return nodes.contains { compare(op, left, .string(document.stringValue($0))) } }
        switch op {
        case "=", "!=":
            let equal: Bool
            if case .boolean = left { equal = boolean(left) == boolean(right) }
            else if case .boolean = right { equal = boolean(left) == boolean(right) }
            else if case .number = left { equal = number(left) == number(right) }
            else if case .number = right { equal = number(left) == number(right) }
            else { equal = string(left) == string(right) }
            return op == "=" ? equal : !equal
        case "<": return number(left) < number(right)
        case "<=": return number(left) <= number(right)
        case ">": return number(left) > number(right)
        default: return number(left) >= number(right)
        }
    }

    private func string(_ value: XPath.Value) -> String {
        switch value {
        case .nodes(let nodes): nodes.first.map(document.stringValue) ?? ""
        case .string(let string): string
        case .number(let number): Self.text(number)
        case .boolean(let boolean): boolean ? "true" : "false"
        }
    }

    private func number(_ value: XPath.Value) -> Double {
        switch value {
        case .number(let number): number
        case .boolean(let boolean): boolean ? 1 : 0
        default: Double(string(value).trimmingWhitespaceAndNewlines()) ?? .nan
        }
    }

    private func boolean(_ value: XPath.Value) -> Bool {
        switch value {
        case .nodes(let nodes): !nodes.isEmpty
        case .string(let string): !string.isEmpty
        case .number(let number): number != 0 && !number.isNaN
        case .boolean(let boolean): boolean
        }
    }

    static func text(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        return ParameterValue.format(number)
    }

    private func failure(_ message: String) -> XPathError {
        XPathError(expression: "", message: message, column: nil)
    }
}
