import Foundation
import Testing
import TestSupport
import TincanDemoServer
@testable import tincan

/// A command's direct reading of its arguments held to the argument parser's reading of the same
/// lines: `SendDirectParseTests` and `ReplayDirectParseTests` check `send` and `replay` with it.
struct DirectParseCheck<Options: Equatable & Sendable>: Sendable {
    /// Positionals every line of `readingsOfEveryOption` starts with.
    var leading: [String]
    /// The command's direct reading of a line.
    var direct: @Sendable (ArraySlice<String>) -> Options?
    /// What the parser makes of the same line, or nil when it refuses it or answers with help.
    var parsed: @Sendable ([String]) -> Options?

    /// One reading of a line: the direct one, the parser's, and whether the line should change
    /// the options from their defaults.
    struct Reading: Sendable {
        var line: [String]
        var direct: Options?
        var parsed: Options?
        var changes: Bool
    }

    /// A line for each option and flag the parser lists, and one more with the value attached
    /// (`--name=v=1`) where an option takes any value, each read both ways, off the pool (the
    /// parser is slow in a debug build). `attachedChanges` says whether `v=1` changes the options.
    func readingsOfEveryOption(_ listed: [ListedOption], attachedChanges: Bool) async -> [Reading] {
        await offThePool {
            listed.flatMap { option -> [Reading] in
                var line = leading
                switch option.kind {
                case "flag":
                    line.append(option.name)
                default:
                    let value = option.allValues.first { $0 != option.defaultValue } ?? "v1"
                    line += [option.name, value]
                    if option.isRepeating { line += [option.name, "v2"] }
                }
                var lines = [(line, changes: true)]
                if option.kind == "option", option.allValues.isEmpty, !option.isRepeating {
                    lines.append((leading + ["\(option.name)=v=1"], changes: attachedChanges))
                }
                return lines.map { Reading(line: $0.0, direct: direct($0.0[...]), parsed: parsed($0.0), changes: $0.changes) }
            }
        }
    }

    /// `count` random lines of up to `longest` words from `names` and `values`: the ones read
    /// directly that the parser reads otherwise, and how many were read directly.
    func generatedLines(names: [String], values: [String], count: Int, longest: Int) async -> (differing: [[String]], direct: Int) {
        await offThePool {
            var generator = SeededGenerator(seed: 16)
            var differing: [[String]] = []
            var directCount = 0
            for _ in 0..<count {
                let length = Int.random(in: 0...longest, using: &generator)
                let line = (0..<length).map { _ in
                    Bool.random(using: &generator) ? names.randomElement(using: &generator)! : values.randomElement(using: &generator)!
                }
                guard let options = direct(line[...]) else { continue }
                directCount += 1
                if options != parsed(line) { differing.append(line) }
            }
            return (differing, directCount)
        }
    }
}

/// One argument of a command as the parser lists it (`--experimental-dump-help`).
struct ListedOption: Sendable {
    var kind: String
    var name: String
    var isRepeating: Bool
    var allValues: [String]
    var defaultValue: String?

    /// Every option and flag of `command` that the parser lists, built-in help and version aside.
    static func all(of command: String) throws -> [ListedOption] {
        var dump = ""
        do {
            _ = try TincanCommand.parseAsRoot([command, "--experimental-dump-help"])
        } catch {
            dump = TincanCommand.fullMessage(for: error)
        }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any])
        let description = try #require(root["command"] as? [String: Any])
        let arguments = try #require(description["arguments"] as? [[String: Any]])
        return try arguments.compactMap { argument in
            let kind = try #require(argument["kind"] as? String)
            guard kind != "positional" else { return nil }
            let preferred = try #require(argument["preferredName"] as? [String: String])
            let name = (preferred["kind"] == "short" ? "-" : "--") + (preferred["name"] ?? "")
            guard name != "--help", name != "--version" else { return nil }
            return ListedOption(kind: kind, name: name, isRepeating: argument["isRepeating"] as? Bool ?? false,
                                allValues: argument["allValues"] as? [String] ?? [], defaultValue: argument["defaultValue"] as? String)
        }
    }
}
