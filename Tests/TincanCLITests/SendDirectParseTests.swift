import Testing
@testable import tincan

/// `send`'s direct reading of its arguments (SendCommand+DirectParse) against the argument
/// parser: a line it reads must mean what the parser makes of it, and a line it leaves goes to
/// the parser.
@Suite("send's arguments read without the parser")
struct SendDirectParseTests {
    /// What the argument parser makes of `tincan send ARGUMENTS`, or nil when it refuses them
    /// or answers with help.
    static func parsed(_ arguments: [String]) -> SendOptions? {
        (try? TincanCommand.parseAsRoot(["send"] + arguments) as? SendCommand)?.options
    }

    static let check = DirectParseCheck(leading: ["GET", "http://127.0.0.1:9/"], direct: SendOptions.parsedDirectly, parsed: parsed)

    @Test("every option and flag the parser lists is read directly, as the parser reads it, and changes the options")
    func everyListedOption() async throws {
        let listed = try ListedOption.all(of: "send")
        #expect(listed.count == 39)
        let defaults = SendOptions(method: "GET", url: "http://127.0.0.1:9/")
        let readings = await Self.check.readingsOfEveryOption(listed, attachedChanges: false)
        #expect(readings.count > listed.count)
        for reading in readings {
            #expect(reading.direct == reading.parsed, "\(reading.line)")
            if reading.changes {
                #expect(reading.direct != nil, "\(reading.line) was left to the parser")
                #expect(reading.direct != defaults, "\(reading.line) changed no option")
            }
        }
    }

    @Test("a bare line has the parser's defaults")
    func defaults() throws {
        let line = ["GET", "http://127.0.0.1:9/"]
        let direct = try #require(SendOptions.parsedDirectly(line[...]))
        #expect(direct == Self.parsed(line))
        #expect(direct == SendOptions(method: "GET", url: "http://127.0.0.1:9/"))
    }

    @Test("usual lines, with items, headers and options among them, are read as the parser reads them", arguments: [
        ["POST", "http://127.0.0.1:9/post", "name=Ada", "age:=36", "X-Trace:1", "q==1"],
        ["--offline", "PUT", ":8080/x", "a=1", "--serializer", "json", "-H", "Accept: text/plain", "b=2", "-H", "X-A: 1"],
        ["GET", "/get", "--base", "http://127.0.0.1:9/api/", "--format", "json", "--max-time", "2.5", "--retry=3"],
        ["POST", "http://127.0.0.1:9/", "--params-json", "{\"a\":[1,2]}", "--explain", "--format", "markdown", "--show-secrets"],
        ["GET", "http://127.0.0.1:9/", "--proxy", "", "--noproxy", "*", "--pin", "a.pem", "--pin", "b.pem", "--pin-mode", "public-key"],
        ["GET", "http://127.0.0.1:9/", "file@/tmp/x", "name=@/tmp/y", "--upload=/tmp/z", "--throttle", "1k"],
    ])
    func usualLines(line: [String]) throws {
        let direct = try #require(SendOptions.parsedDirectly(line[...]))
        #expect(direct == Self.parsed(line))
    }

    @Test("help, version, unknown or repeated options, values that look like options and words no enumeration takes go to the parser", arguments: [
        ["GET"], [], ["--help"], ["GET", "u", "-h"], ["GET", "u", "--version"],
        ["GET", "u", "--"], ["GET", "u", "--", "-x"], ["GET", "u", "--unknown", "x"], ["GET", "u", "-x"], ["GET", "u", "-1"],
        ["GET", "u", "--base", "-x"], ["GET", "u", "--base"], ["GET", "u", "--base", "a", "--base", "b"],
        ["GET", "u", "--offline", "--offline"], ["GET", "u", "--offline=true"], ["GET", "u", "--format", "yaml"],
        ["GET", "u", "--serializer=xml"], ["GET", "u", "-Hx: 1"], ["GET", "u", "-H=x: 1"], ["GET", "u", "--generate-completion-script", "bash"],
        ["GET", "u", "--experimental-dump-help"], ["GET", "u", "-"],
    ])
    func leftToTheParser(line: [String]) {
        #expect(SendOptions.parsedDirectly(line[...]) == nil)
    }

    @Test("generated lines are read as the parser reads them, or left to it")
    func generatedLines() async throws {
        let listed = try ListedOption.all(of: "send")
        let names = listed.map(\.name) + ["--help", "-h", "--version", "--", "-", "-x", "--unknown", "--offline=true", "-Hx"]
            + listed.filter { $0.kind == "option" }.map { "\($0.name)=" } + ["--base=-x", "--format=json", "--timeout=-1"]
        let values = ["GET", "http://127.0.0.1:9/", "a=1", "b:=2", "X-A:1", "q==3", "f@/tmp/x", "", "json", "text", "markdown",
                      "yaml", "form", "digest", "public-key", "-v", "--offline", "help", "=", "é=ü", "2.5", "-1", " -x", "--", "-"]
        // Thousands of lines through the parser take seconds in a debug build: off the pool.
        let (differing, direct) = await Self.check.generatedLines(names: names, values: values, count: 5000, longest: 8)
        #expect(differing.isEmpty, "read otherwise than the parser reads them: \(differing.prefix(10))")
        // Enough of them are read directly for the comparison to mean something.
        #expect(direct > 200)
    }
}

