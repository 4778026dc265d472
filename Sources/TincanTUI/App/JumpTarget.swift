import TerminalUI

/// Where jump mode (ctrl+o, as in Posting) can take the focus: a pane or field, a request tab, a
/// view of the preview or the response box (issue 34 §4).
public enum JumpTarget: Sendable, Hashable {
    case pane(Pane)
    case requestTab(RequestTab)
    case previewView(PreviewView)
    case responseView(ResponseView)

    /// The key that goes there: the same key every time, so that it is learned.
    var key: Character {
        switch self {
        case .pane(.collection): "c"
        case .pane(.method): "m"
        case .pane(.serializer): "s"
        case .pane(.baseURL): "b"
        case .pane(.url): "u"
        case .pane(.query): "q"
        case .pane(.response): "r"
        case .pane: "?"
        case .requestTab(.headers): "h"
        case .requestTab(.parameters): "p"
        case .requestTab(.body): "y"
        case .requestTab(.auth): "a"
        case .requestTab(.properties): "o"
        case .requestTab(.checks): "k"
        case .previewView(.wire): "w"
        case .previewView(.explain): "e"
        case .previewView(.received): "v"
        case .previewView(.notes): "n"
        case .responseView(.pretty): "1"
        case .responseView(.raw): "2"
        case .responseView(.headers): "3"
        case .responseView(.timing): "4"
        }
    }

    /// A label on the screen: the target, the cell its key is drawn in, and what is drawn there.
    struct Label: Sendable, Equatable {
        var target: JumpTarget
        var x: Int
        var y: Int
        /// The character shown: the key's letter in the target's name, as the name writes it, or
        /// the key itself in the cell before the name.
        var shown: Character
    }

    /// The label of a target whose name starts at `x`: its key's letter highlighted in the name
    /// (as a menu shows its accelerators), else the key in the cell before the name.
    static func label(_ target: JumpTarget, name: String, x: Int, y: Int) -> Label {
        if let index = name.firstIndex(where: { $0.lowercased() == String(target.key) }) {
            return Label(target: target, x: x + name.distance(from: name.startIndex, to: index), y: y, shown: name[index])
        }
        return Label(target: target, x: x - 1, y: y, shown: target.key)
    }

    /// Every target on the screen as laid out now, each with the cell its key is shown in.
    static func labels(_ layout: ScreenLayout, _ state: AppState) -> [Label] {
        var labels = [
            label(.pane(.method), name: "Method", x: 1, y: layout.methodField.y),
            label(.pane(.serializer), name: "Serializer", x: layout.methodField.maxX + 1, y: layout.methodField.y),
            label(.pane(.baseURL), name: "Base", x: 1, y: layout.baseField.y),
            label(.pane(.url), name: "URL", x: 1, y: layout.urlField.y),
        ]
        if let box = layout.collectionBox {
            labels.append(label(.pane(.collection), name: "", x: box.x + 1, y: box.y))
        } else if state.workspace.showsCollection, let box = layout.requestBox {
            // The collection shares the request box's place on a narrow screen.
            labels.append(label(.pane(.collection), name: "", x: box.x + 1, y: box.maxY - 1))
        }
        if let box = layout.requestBox {
            let titles = Tabs.fitted(RequestTab.allCases.map(\.rawValue), active: RequestTab.allCases.firstIndex(of: state.requestTab) ?? 0, width: box.width - 4)
            for (index, (tab, range)) in zip(RequestTab.allCases, layout.requestTabRanges).enumerated() where range.count > 0 {
                labels.append(label(.requestTab(tab), name: titles[index], x: range.lowerBound, y: box.y))
            }
            if state.requestTab == .parameters, !state.showsZoomed || state.focus == .query {
                labels.append(label(.pane(.query), name: "Query", x: box.x + 2, y: box.y + 1))
            }
        }
        if let box = layout.previewBox {
            for (view, range) in zip(state.previewViews, layout.previewViewRanges) where range.count > 0 {
                labels.append(label(.previewView(view), name: view.rawValue, x: range.lowerBound, y: box.y))
            }
        }
        if let box = layout.responseBox {
            labels.append(label(.pane(.response), name: "", x: box.x + 1, y: box.y))
            for (view, range) in zip(ResponseView.allCases, layout.responseViewRanges) where range.count > 0 {
                labels.append(label(.responseView(view), name: view.rawValue, x: range.lowerBound, y: box.y))
            }
        }
        return labels.filter { $0.x >= 0 && $0.x < state.width && $0.y >= 0 && $0.y < state.height }
    }
}

extension AppState {
    /// Opens jump mode: every target is labelled with its key until one is pressed.
    mutating func startJump() {
        mode = .jump
        status = StatusMessage("Jump: press a highlighted key to go there; esc stays.")
    }

    /// A key pressed in jump mode: the focus goes to its target, or jump mode ends with a word.
    mutating func handleJump(_ event: InputEvent) {
        mode = .panes
        guard case .key(let key) = event, key.modifiers.isEmpty, case .character(let typed) = key.key else {
            status = nil
            return
        }
        let labels = JumpTarget.labels(ScreenLayout(self), self)
        guard let label = labels.first(where: { $0.target.key == Character(typed.lowercased()) }) else {
            status = StatusMessage("No target is labelled \(typed).", .warning)
            return
        }
        jump(to: label.target)
    }

    /// Moves the focus to a target, showing its tab or view.
    mutating func jump(to target: JumpTarget) {
        status = nil
        switch target {
        case .pane(let pane):
            if zoomed, pane != focus { zoomed = false }
            setFocus(pane)
        case .requestTab(let tab):
            if zoomed { zoomed = false }
            switchRequestTab(to: tab)
        case .previewView(let view):
            if zoomed, focus != .preview { zoomed = false }
            if previewView != view {
                previewView = view
                previewScroll = ScrollState()
                refreshPreview()
            }
            setFocus(.preview)
        case .responseView(let view):
            if zoomed, focus != .response { zoomed = false }
            if responseView != view {
                showResponseView(view)
                responseScroll = ScrollState()
            }
            setFocus(.response)
        }
    }
}
