import Foundation
import TerminalUI
import TincanCore
import TincanSessions

/// A filter over the Pretty view's JSON: the values a body path selects, each under its own path
/// (issue 17 §3). The path is read by the parser assertions use, so `$.items[?(@.price < 10)]`,
/// wildcards, slices and `..` work as they do in a session file.
public struct BodyFilter: Sendable {
    /// The path as typed.
    public var path: String
    /// The exchange whose body it filters; another response ends the filter.
    public var exchange: Int
    /// The selected values laid out: a path row, then the value indented under it.
    public var document: BodyDocument
    /// How many values the path selected.
    public var matchCount: Int
    /// The Pretty view's selected row when the filter was set, given back when it is cleared.
    public var savedSelection: Int
}

extension AppState {
    /// Opens the filter prompt (the last path in it), for a JSON body in the Pretty view.
    mutating func promptBodyFilter() {
        guard exchange?.result != nil, responseView == .pretty, exchange?.prettyBody.folds == true else {
            status = StatusMessage("The filter narrows a JSON body in the Pretty view (F3 switches views).", .warning)
            return
        }
        let current = activeBodyFilter?.path ?? "$"
        mode = .modal(.prompt(Prompt(.bodyFilter, title: "Filter the JSON", question: "Body path (as in assertions): $.items[?(@.price < 10)]; empty clears", text: current)))
    }

    /// The filter in force for the response shown, if any.
    var activeBodyFilter: BodyFilter? {
        guard let bodyFilter, bodyFilter.exchange == exchange?.id else { return nil }
        return bodyFilter
    }

    /// Applies the prompt's path. - Returns: the parser's error (with its column), or nil.
    mutating func answerBodyFilter(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed != "$" else {
            clearBodyFilter()
            return nil
        }
        let path: BodyPath
        do {
            path = try BodyPath(parsing: trimmed)
        } catch {
            return Self.filterRefusal(error)
        }
        guard let exchange, let root = decodedJSON() else { return "the body is not JSON" }
        let matches = path.locate(in: root)
        guard matches.count <= BodyPath.selectionLimit else { return "\(trimmed) selects more than \(BodyPath.selectionLimit) values" }
        let saved = activeBodyFilter?.savedSelection ?? bodyList.selected
        bodyFilter = BodyFilter(path: trimmed, exchange: exchange.id, document: Self.filterDocument(matches, path: trimmed), matchCount: matches.count, savedSelection: saved)
        showNewBodyDocument()
        status = StatusMessage(matches.isEmpty ? "\(trimmed) selects nothing in this body. f changes the filter; an empty path clears it." : "\(trimmed): \(matches.count) value\(matches.count == 1 ? "" : "s"). f changes the filter; an empty path clears it.", matches.isEmpty ? .warning : .success)
        return nil
    }

    /// Ends the filter: the whole outline again, its selected row as it was.
    mutating func clearBodyFilter() {
        guard let filter = activeBodyFilter else {
            bodyFilter = nil
            status = StatusMessage("No filter.")
            return
        }
        bodyFilter = nil
        showNewBodyDocument(selecting: filter.savedSelection)
        status = StatusMessage("Filter cleared: the whole body again.")
    }

    /// The parser's error in two lines that fit a prompt on an 80-column screen: where, then
    /// what was expected there (the path itself is in the field below).
    static func filterRefusal(_ error: BodyPathError) -> String {
        if case let .expected(what, column) = error.reason { return "bad body path: at column \(column), expected\n\(what)" }
        guard let cut = error.description.range(of: "': expected ") else { return error.description }
        return "bad body path:\nexpected " + error.description[cut.upperBound...]
    }

    /// The response's value: the decoded JSON or property-list tree, or (for a large body,
    /// whose tree was let go) the outlined JSON read again.
    private func decodedJSON() -> ParameterValue? {
        guard let result = exchange?.result else { return nil }
        switch result.serialization?.body {
        case let .json(document)?: return document.value
        case let .propertyList(value)?: return value
        default: return exchange?.prettyBody.outlinedJSON.flatMap { try? JSONParser.parse(bytes: $0) }
        }
    }

    /// The matches laid out: each path as a title, its value as the outline draws it, indented.
    /// The most rows a filtered view shows: each row keeps its path, which a deep body makes long.
    static let filterLineLimit = 10_000

    static func filterDocument(_ matches: [BodyPathMatch], path: String) -> BodyDocument {
        guard !matches.isEmpty else { return BodyDocument(lines: [[Token(.muted, "\(path) selects nothing in this body.")]]) }
        var lines: [TokenLine] = []
        // Each row's body path, so y copies it as on the whole outline.
        var paths: [String] = []
        for match in matches {
            guard lines.count < Self.filterLineLimit else {
                lines.append([Token(.muted, "… more values not shown; narrow the path")])
                paths.append(match.path)
                break
            }
            let path = match.path
            lines.append([Token(.label, path)])
            paths.append(path)
            guard let outline = JSONOutline(JSONWriter.bytes(match.value)) else { continue }
            for row in 0..<min(outline.rowCount, max(0, Self.filterLineLimit - lines.count)) {
                lines.append([Token(.base, "  ")] + outline.line(row))
                paths.append(path + String(outline.path(at: row).dropFirst()))
            }
        }
        var document = BodyDocument(lines: lines)
        document.rowPaths = paths
        return document
    }
}
