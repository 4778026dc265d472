import TerminalUI
import TincanCore
import TincanSessions

/// A query field (`query:`): always in the URL, as `name==value` puts it, unless turned off; the
/// session's own type, so the TUI's list and the file hold the same thing.
public typealias QueryField = QuerySetting

extension QuerySetting {
    /// Reads `name==value` by the command line's item rules (backslash escapes included).
    ///
    /// - Returns: The field, or why the text is not one.
    static func parse(_ text: String) -> Result<QueryField, QueryFieldError> {
        do {
            guard case let .query(name, value) = try RequestItem.parse(text) else {
                return .failure(QueryFieldError("expected name==value (a query field; parameters go in the tree below)"))
            }
            return .success(QueryField(name: name, value: value))
        } catch {
            return .failure(QueryFieldError(error.reason))
        }
    }
}

/// Why a query field prompt's answer was refused.
struct QueryFieldError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The query fields above the parameter tree in the Params tab.
extension AppState {
    mutating func addQueryField() {
        mode = .modal(.prompt(Prompt(.addQuery, title: "Add query field", question: "name==value (always in the URL; {{variables}} expand)")))
    }

    mutating func editQueryField() {
        guard query.indices.contains(queryList.selected) else { return addQueryField() }
        let field = query[queryList.selected]
        mode = .modal(.prompt(Prompt(.editQuery(queryList.selected), title: "Edit query field", question: "name==value", text: "\(field.name)==\(field.value)")))
    }

    mutating func removeQueryField() {
        guard query.indices.contains(queryList.selected) else { return }
        let removed = query.remove(at: queryList.selected)
        queryList.select(queryList.selected, count: query.count)
        status = StatusMessage("Removed the query field \(removed.name).")
    }

    /// Turns the selected field off (kept, not sent) or on again.
    mutating func toggleQueryField() {
        guard query.indices.contains(queryList.selected) else { return }
        query[queryList.selected].isEnabled.toggle()
        let field = query[queryList.selected]
        status = StatusMessage("The query field \(field.name) is \(field.isEnabled ? "on" : "off: kept, not sent").")
    }

    /// Answers the add or edit prompt.
    mutating func answerQueryField(_ text: String, at index: Int?) -> String? {
        switch QueryField.parse(text) {
        case .failure(let error): return error.description
        case .success(let field):
            editor.setQueryField(field, at: index)
            return nil
        }
    }
}
