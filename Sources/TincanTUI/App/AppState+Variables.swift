import Foundation
import TerminalUI
import TincanCore
import TincanSessions

/// The variables view (alt+v): every variable, its value now and where it comes from, secrets
/// hidden until r reveals them.
extension AppState {
    /// The view's title starts so; the modal's keys know it by it.
    static let variablesTitle = "Variables"

    /// Opens (or redraws) the variables view.
    mutating func showVariables() {
        let sources = workspace.session.variableSources(environment: workspace.environment, overrides: workspace.overrides,
                                                        captured: workspace.captured, processEnvironment: launch.environment)
        let environment = workspace.environment.map { "environment \($0)" } ?? "no environment"
        let title = "\(Self.variablesTitle) (\(sources.count)) · \(environment)"
        mode = .modal(.message(Dialog(title: title, lines: variableLines(sources),
                                      hint: "v \(revealsSecrets ? "hides" : "reveals") secrets · ↑↓ scroll · esc close")))
    }

    /// Two lines a variable: `name = value`, then where it comes from.
    func variableLines(_ sources: [VariableSource]) -> [StyledLine] {
        guard !sources.isEmpty else {
            return [[Span("No variables: variables: and environments: in the file, --var, and captures set them.", theme.style(.muted))]]
        }
        let width = max(20, self.width - 12)
        var lines: [StyledLine] = []
        for source in sources {
            let secret = Redaction.isSecret(name: source.name) || !source.environmentReads.isEmpty
            let shown: String
            let valueStyle: Style
            switch source.value {
            case .success(let value):
                shown = secret && !revealsSecrets ? Redaction.mask : Self.shortText(value)
                valueStyle = theme.style(.jsonString)
            case .failure(let error):
                shown = "no value: \(error)"
                valueStyle = theme.style(.error)
            }
            let head = "\(source.name) = \(shown)"
            lines.append([Span(String(TextWidth.prefix(source.name, fitting: width)), theme.style(.jsonKey)), Span(" = ", theme.style(.muted)),
                          Span(String(TextWidth.prefix(shown, fitting: max(1, width - TextWidth.of(head) + TextWidth.of(shown)))), valueStyle)])
            var origin = "  from \(source.layer)"
            if !source.hidden.isEmpty { origin += ", over " + source.hidden.map(\.description).joined(separator: ", ") }
            if !source.environmentReads.isEmpty { origin += "; reads $env." + source.environmentReads.joined(separator: ", $env.") }
            lines.append([Span(String(TextWidth.prefix(origin, fitting: width)), theme.style(.muted))])
        }
        return lines
    }

    /// A value on one line: text as it is, other values as JSON.
    private static func shortText(_ value: ParameterValue) -> String {
        let text = if case .string(let string) = value { string } else { JSONWriter.string(value) }
        return text.replacingOccurrences(of: "\n", with: "⏎")
    }
}
