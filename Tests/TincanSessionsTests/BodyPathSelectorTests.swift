import Testing
import TestSupport
import TincanCore
@testable import TincanSessions

@Suite("Body paths: JSONPath selectors")
struct BodyPathSelectorTests {
    /// A store as JSONPath's examples have it.
    let store = try! JSONParser.parse(bytes: Array("""
        {"store": {"book": [
            {"category": "reference", "author": "Nigel Rees", "title": "Sayings", "price": 8.95},
            {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword", "price": 12.99},
            {"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99},
            {"category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord", "isbn": "0-395-19395-8", "price": 22.99}
          ],
          "bicycle": {"color": "red", "price": 19.95}},
         "n": [0, 1, 2, 3, 4, 5]}
        """.utf8))

    private func select(_ path: String) throws -> [ParameterValue] {
        try BodyPath(parsing: path).select(in: store)
    }

    private func texts(_ path: String) throws -> [String] {
        try select(path).map { $0.scalarText ?? "?" }
    }

    @Test("wildcards select every element or member, in document order")
    func wildcards() throws {
        #expect(try texts("$.store.book[*].author") == ["Nigel Rees", "Evelyn Waugh", "Herman Melville", "J. R. R. Tolkien"])
        #expect(try texts("$.store.bicycle.*") == ["red", "19.95"])
        #expect(try select("$.store.*").count == 2)
        #expect(try texts("store.book[*].title") == ["Sayings", "Sword", "Moby Dick", "The Lord"])
    }

    @Test("slices take start, end and step, with negative bounds from the end")
    func slices() throws {
        #expect(try texts("$.n[1:3]") == ["1", "2"])
        #expect(try texts("$.n[-2:]") == ["4", "5"])
        #expect(try texts("$.n[::2]") == ["0", "2", "4"])
        #expect(try texts("$.n[::-1]") == ["5", "4", "3", "2", "1", "0"])
        #expect(try texts("$.n[4:1:-2]") == ["4", "2"])
        #expect(try texts("$.n[:100]").count == 6)
        #expect(try texts("$.n[::0]").isEmpty)
        #expect(try texts("$.n[\(Int.max - 1):]").isEmpty)
        #expect(try texts("$.n[0::\(Int.max)]") == ["0"], "a huge step stops instead of overflowing")
    }

    @Test("recursive descent finds a name at every depth")
    func descent() throws {
        #expect(try texts("$..author").count == 4)
        #expect(try texts("$..price") == ["8.95", "12.99", "8.99", "22.99", "19.95"])
        #expect(try texts("$.store..color") == ["red"])
        #expect(try texts("$..book[0].title") == ["Sayings"])
        #expect(try texts("$..book[-1:].title") == ["The Lord"])
        #expect(try select("$..*").count > 20)
    }

    @Test("filters compare with ==, !=, <, <=, >, >= and combine with && and ||")
    func filters() throws {
        #expect(try texts("$.store.book[?(@.price < 10)].title") == ["Sayings", "Moby Dick"])
        #expect(try texts("$.store.book[?(@.price <= 8.99)].title") == ["Sayings", "Moby Dick"])
        #expect(try texts("$.store.book[?(@.price > 20)].title") == ["The Lord"])
        #expect(try texts("$.store.book[?(@.price >= 22.99)].title") == ["The Lord"])
        #expect(try texts("$.store.book[?(@.category == 'fiction')].title") == ["Sword", "Moby Dick", "The Lord"])
        #expect(try texts("$.store.book[?(@.category != \"fiction\")].title") == ["Sayings"])
        #expect(try texts("$.store.book[?(@.isbn)].title") == ["Moby Dick", "The Lord"])
        #expect(try texts("$.store.book[?(!@.isbn)].title") == ["Sayings", "Sword"])
        #expect(try texts("$.store.book[?(@.category == 'fiction' && @.price < 10)].title") == ["Moby Dick"])
        #expect(try texts("$.store.book[?(@.price < 9 || @.price > 20)].title") == ["Sayings", "Moby Dick", "The Lord"])
        #expect(try texts("$.store.book[?((@.price < 9 || @.price > 20) && @.isbn)].title") == ["Moby Dick", "The Lord"])
        #expect(try texts("$..book[?@.price < $.store.bicycle.price].title") == ["Sayings", "Sword", "Moby Dick"])
    }

    @Test("filter literals: strings, numbers, booleans and null; a missing value equals only null's absence")
    func literals() throws {
        let items = try JSONParser.parse(bytes: Array(#"[{"a": true}, {"a": null}, {"a": 1}, {"a": "1"}, {}]"#.utf8))
        func count(_ path: String) throws -> Int { try BodyPath(parsing: path).select(in: items).count }
        #expect(try count("$[?(@.a == true)]") == 1)
        #expect(try count("$[?(@.a == null)]") == 1)
        #expect(try count("$[?(@.a == 1.0)]") == 1, "numbers compare as numbers, text is not a number")
        #expect(try count("$[?(@.a == '1')]") == 1)
        #expect(try count("$[?(@.a != 1)]") == 4, "a missing member is unequal to 1")
        #expect(try count("$[?(@.a < 2)]") == 1, "only numbers order against a number")
        #expect(try count("$[?(@.b == @.c)]") == 5, "nothing equals nothing")
    }

    @Test("a plain path keeps its single value; a multi-valued one gives the list")
    func values() throws {
        #expect(try BodyPath(parsing: "$.store.bicycle.color").isSingular)
        #expect(try BodyPath(parsing: "$.store.bicycle.color").value(in: store) == .string("red"))
        #expect(try BodyPath(parsing: "$.nothing").value(in: store) == nil)
        #expect(try !BodyPath(parsing: "$.n[*]").isSingular)
        #expect(try BodyPath(parsing: "$.nothing[*]").value(in: store) == .array([]))
        #expect(try BodyPath(parsing: "$.n[0:2]").value(in: store) == .array([.integer(0), .integer(1)]))
    }

    @Test("multi-valued paths remove what they select, for recorded.ignore")
    func removing() throws {
        let removed = try BodyPath(parsing: "$..price").removing(from: store)
        #expect(try BodyPath(parsing: "$..price").select(in: removed).isEmpty)
        #expect(try BodyPath(parsing: "$..title").select(in: removed).count == 4)
        let cheap = try BodyPath(parsing: "$.store.book[?(@.price < 10)]").removing(from: store)
        #expect(try BodyPath(parsing: "$.store.book[*].title").select(in: cheap).map(\.scalarText) == ["Sword", "The Lord"])
        let sliced = try BodyPath(parsing: "$.n[::2]").removing(from: store)
        #expect(try BodyPath(parsing: "$.n").value(in: sliced) == .array([.integer(1), .integer(3), .integer(5)]))
        // `$` in a filter is the whole body when removing too, as when selecting.
        let body: ParameterValue = ["target": 2, "items": .array([["id": 1], ["id": 2], ["id": 3]])]
        let path = try BodyPath(parsing: "$.items[?(@.id == $.target)]")
        #expect(path.select(in: body) == [["id": 2]])
        #expect(path.removing(from: body) == ["target": 2, "items": .array([["id": 1], ["id": 3]])])
    }

    @Test("a path that selects more than a million values stops there and says so")
    func selectionLimit() async throws {
        // Arrays nested 1,500 deep: every `..*` of every node below is about 1.1 million values,
        // selected off the pool (a second's work in a debug build).
        let (count, tooMany, descendants) = try await offThePool {
            var deep = ParameterValue.array([])
            for _ in 0..<1_500 { deep = .array([deep]) }
            let path = try BodyPath(parsing: "$..*..*")
            let selected = path.select(in: deep)
            let all = try BodyPath(parsing: "$..*")
            return (selected.count, path.tooMany(.array(selected)), all.tooMany(all.value(in: deep)))
        }
        #expect(count == BodyPath.selectionLimit + 1)
        #expect(tooMany == "$..*..* selects more than 1000000 values")
        #expect(descendants == nil)
    }

    @Test("steps write back as they read")
    func text() throws {
        for path in ["$.a[*]", "$.a[1:3]", "$.a[::-1]", "$..name", "$..[0]", "$.a[?(@.b < 1)]"] {
            let steps = try BodyPath(parsing: path).steps
            #expect(try BodyPath(parsing: BodyPath.text(steps)).steps == steps, "\(path)")
        }
        #expect(try BodyPath.text(BodyPath(parsing: "$..name").steps) == "$..name")
    }

    @Test("errors in the selectors name the column and what was expected")
    func errors() {
        let cases: [(String, String)] = [
            ("$.a[1:x]", "bad body path '$.a[1:x]': expected a slice of whole numbers such as [1:3], [-2:] or [::2] at column 5"),
            ("$.a[?(@.b <)]", "bad body path '$.a[?(@.b <)]': expected @, a path, or a string, number, true, false or null at column 12"),
            ("$.a[?(@.b < 1]", "bad body path '$.a[?(@.b < 1]': expected ')' to close '(' at column 14"),
            ("$.a[?(@.b < 1)", "bad body path '$.a[?(@.b < 1)': expected ']' to close the filter, or && or || to go on with it at column 15"),
            ("$.a[?(1)]", "bad body path '$.a[?(1)]': expected a comparison (==, !=, <, <=, >, >=) after the value at column 8"),
            ("$..", "bad body path '$..': expected a member name, * or [ after '..' at column 4"),
            ("a[?(@.b == 'x)]", "bad body path 'a[?(@.b == 'x)]': expected ' to close the string at column 12"),
            ("$.a[1:2:3:4]", "bad body path '$.a[1:2:3:4]': expected a slice of whole numbers such as [1:3], [-2:] or [::2] at column 5"),
        ]
        for (path, message) in cases {
            do {
                _ = try BodyPath(parsing: path)
                Issue.record("\(path) parsed")
            } catch {
                #expect(error.description == message)
            }
        }
        let deep = "$[?" + String(repeating: "!", count: 100) + "@.a]"
        #expect(throws: BodyPathError.self) { try BodyPath(parsing: deep) }
        let long = "$[?" + Array(repeating: "@.a", count: 300).joined(separator: " && ") + "]"
        #expect(throws: BodyPathError.self, "a chain of && nests as deep as it is long") { try BodyPath(parsing: long) }
        let fine = "$[?" + Array(repeating: "@.a", count: 200).joined(separator: " || ") + "]"
        #expect(throws: Never.self) { try BodyPath(parsing: fine) }
    }

    @Test("every node of a deep body is located with its path in bounded memory, and a descendant walk stops at the limit")
    func deepBodiesAreLocatedCheaply() async throws {
        // Off the pool: the walks are a second's work in a debug build.
        let (count, lastSteps, lastPath, wideCount) = try await offThePool {
            // 400 nested arrays around 20,000 numbers: each located path shares its steps with its parent's.
            var value = ParameterValue.array(Array(repeating: .integer(0), count: 20_000))
            for _ in 0..<400 { value = .array([value]) }
            let matches = try BodyPath(parsing: "$..*").locate(in: value)
            // A walk that would pass the limit stops there instead of gathering every node first.
            let wide = ParameterValue.array(Array(repeating: .array([.integer(1), .integer(2)]), count: BodyPath.selectionLimit / 2))
            return (matches.count, matches.last?.steps.count, matches.last?.path, try BodyPath(parsing: "$..*").select(in: wide).count)
        }
        #expect(count == 20_400)
        #expect(lastSteps == 401)
        #expect(lastPath?.hasSuffix("[0][19999]") == true)
        #expect(wideCount == BodyPath.selectionLimit + 1)
    }
}
