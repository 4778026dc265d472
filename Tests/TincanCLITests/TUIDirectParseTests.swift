import Testing
@testable import tincan

/// The TUI's direct reading of its arguments (TUIArguments+DirectParse) against the argument
/// parser, with and without `open`: a line it reads must mean what the parser makes of it, and a
/// line it leaves goes to the parser.
@Suite("The TUI's arguments read without the parser")
struct TUIDirectParseTests {
    /// What the argument parser makes of `tincan ARGUMENTS`, or nil when it refuses them, answers
    /// with help, or runs another command.
    static func parsed(_ arguments: [String]) -> TUIArguments? {
        (try? TincanCommand.parseAsRoot(arguments) as? TUICommand)?.arguments
    }

    static let check = DirectParseCheck(leading: ["s.tincan.yaml"], direct: TUIArguments.parsedDirectly, parsed: parsed)
    static let checkOpen = DirectParseCheck(leading: ["open", "s.tincan.yaml"], direct: TUIArguments.parsedDirectly, parsed: parsed)

    @Test("every option and flag the parser lists is read directly, as the parser reads it, with and without open")
    func everyListedOption() async throws {
        let listed = try ListedOption.all(of: "open")
        #expect(listed.count == 8)
        for check in [Self.check, Self.checkOpen] {
            let readings = await check.readingsOfEveryOption(listed, attachedChanges: true)
            #expect(readings.count > listed.count)
            for reading in readings {
                #expect(reading.direct == reading.parsed, "\(reading.line)")
                #expect(reading.direct != nil, "\(reading.line) was left to the parser")
                #expect(reading.direct != TUIArguments(file: "s.tincan.yaml"), "\(reading.line) changed no argument")
            }
        }
    }

    @Test("usual lines are read as the parser reads them", arguments: [
        [], ["--no-mouse"], ["open"], ["s.tincan.yaml"], ["open", "s.tincan.yaml", "--env", "staging"],
        ["--demo", "--theme", "nord", "--keymap=k.yaml", "--no-history"],
        ["s.tincan.yaml", "--var", "a=1", "--var=b=2", "--first-paint-marker"],
        // After `open`, a subcommand's name is the file.
        ["open", "send"], ["open", "help"],
    ])
    func usualLines(line: [String]) throws {
        let direct = try #require(TUIArguments.parsedDirectly(line[...]))
        #expect(direct == Self.parsed(line))
    }

    @Test("subcommands, help, version, two files and unknown or repeated options go to the parser", arguments: [
        ["send"], ["replay", "a.tincan.yaml"], ["keys"], ["help"], ["--demo", "send"], ["serve", "--port", "0"], ["learn"],
        ["--help"], ["-h"], ["--version"], ["open", "--help"], ["a", "b"], ["--", "a"], ["-"], ["--unknown"],
        ["--theme", "a", "--theme", "b"], ["--demo", "--demo"], ["--theme"], ["--theme", "-x"], ["--demo=true"],
        ["--generate-completion-script", "bash"],
    ])
    func leftToTheParser(line: [String]) {
        #expect(TUIArguments.parsedDirectly(line[...]) == nil)
    }

    @Test("generated lines are read as the parser reads them, or left to it")
    func generatedLines() async throws {
        let listed = try ListedOption.all(of: "open")
        let names = listed.map(\.name) + ["--help", "-h", "--version", "--", "-", "-x", "--unknown", "--demo=true", "--first-paint-marker", "open"]
            + listed.filter { $0.kind == "option" }.map { "\($0.name)=" } + ["--theme=nord", "--var=a=b"]
        let values = ["s.tincan.yaml", "open", "send", "replay", "help", "nord", "a=b", "", "-v", "--demo", "=", "é", "--", "-"]
        let (differing, direct) = await Self.check.generatedLines(names: names, values: values, count: 3000, longest: 6)
        #expect(differing.isEmpty, "read otherwise than the parser reads them: \(differing.prefix(10))")
        #expect(direct > 200)
    }
}
