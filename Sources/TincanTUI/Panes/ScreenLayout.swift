import TerminalUI

/// What a click lands on.
enum HitTarget: Sendable {
    case pane(Pane)
    case requestTab(RequestTab)
    case responseView(ResponseView)
    case previewView(PreviewView)
}

/// Where everything goes on the screen, computed from the state alone, so that rendering and
/// mouse handling agree.
struct ScreenLayout {
    var title: Rect
    var methodField: Rect
    var serializerField: Rect
    var responseInfo: Rect
    var baseField: Rect
    var urlField: Rect
    var collectionBox: Rect?
    /// A lesson's notes, in a column of their own on a wide screen.
    var notesBox: Rect?
    var requestBox: Rect?
    var previewBox: Rect?
    var responseBox: Rect?
    var progressRows: [Rect]
    var status: Rect
    var footer: Rect
    var modalFrame: Rect?
    var requestTabRanges: [Range<Int>] = []
    var responseViewRanges: [Range<Int>] = []
    var previewViewRanges: [Range<Int>] = []
    var hits = HitMap<HitTarget>()

    /// The label column before the fields.
    static let labelWidth = 7

    init(_ state: AppState) {
        let screen = Rect(x: 0, y: 0, width: state.width, height: state.height)
        let progressCount = Self.progressRowCount(state)
        let rows = screen.split(.vertical, [.fixed(1), .fixed(1), .fixed(1), .fixed(1), .fill, .fixed(progressCount), .fixed(1), .fixed(1)])
        title = rows[0]
        let pickers = rows[1].split(.horizontal, [.fixed(Self.labelWidth), .fixed(10), .fixed(12), .fixed(13), .fill])
        methodField = pickers[1]
        serializerField = pickers[3]
        responseInfo = pickers[4]
        baseField = Rect(x: Self.labelWidth, y: rows[2].y, width: rows[2].width - Self.labelWidth - 1, height: 1)
        urlField = Rect(x: Self.labelWidth, y: rows[3].y, width: rows[3].width - Self.labelWidth - 1, height: 1)
        progressRows = (0..<progressCount).map { rows[5].row($0) }
        status = rows[6]
        footer = rows[7]

        var main = rows[4]
        if state.showsZoomed {
            switch state.focus {
            case .collection: collectionBox = main
            case .preview: previewBox = main
            case .response: responseBox = main
            default: requestBox = main
            }
        } else {
            // The collection is a column of its own on a wide screen; on a narrow one it takes
            // the request box's place while it has the focus.
            if state.showsNotesColumn {
                // A lesson's notes take the collection's place, wider: they are read all along.
                let sides = main.split(.horizontal, [.percent(38), .fill])
                notesBox = sides[0]
                main = sides[1]
            } else if state.workspace.showsCollection, main.width >= 100 {
                let sides = main.split(.horizontal, [.fixed(min(36, main.width / 4)), .fill])
                collectionBox = sides[0]
                main = sides[1]
            }
            let columns = main.split(.horizontal, [.percent(main.width >= 100 ? 38 : 44), .fill])
            if state.workspace.showsCollection, collectionBox == nil, notesBox == nil, state.focus == .collection {
                collectionBox = columns[0]
            } else {
                requestBox = columns[0]
            }
            // A lesson's notes are read more than the response: they take more of the column.
            let right = columns[1].split(.vertical, [.percent(state.shownPreviewView == .notes ? 62 : 42), .fill])
            previewBox = right[0]
            responseBox = right[1]
        }

        hits.add(methodField, .pane(.method))
        hits.add(serializerField, .pane(.serializer))
        hits.add(rows[2], .pane(.baseURL))
        hits.add(rows[3], .pane(.url))
        if let collectionBox { hits.add(collectionBox, .pane(.collection)) }
        if let requestBox {
            hits.add(requestBox, .pane(state.requestTab.pane))
            let titles = Tabs.fitted(RequestTab.allCases.map(\.rawValue), active: RequestTab.allCases.firstIndex(of: state.requestTab) ?? 0, width: requestBox.width - 4)
            requestTabRanges = Self.tabRanges(titles, startingAt: requestBox.x + 2, width: requestBox.width - 4)
            for (tab, range) in zip(RequestTab.allCases, requestTabRanges) {
                hits.add(Rect(x: range.lowerBound, y: requestBox.y, width: range.count, height: 1), .requestTab(tab))
            }
        }
        if let previewBox {
            hits.add(previewBox, .pane(.preview))
            previewViewRanges = Self.tabRanges(state.previewViews.map(\.rawValue), startingAt: previewBox.x + 2, width: previewBox.width - 4)
            for (view, range) in zip(state.previewViews, previewViewRanges) {
                hits.add(Rect(x: range.lowerBound, y: previewBox.y, width: range.count, height: 1), .previewView(view))
            }
        }
        if let responseBox {
            hits.add(responseBox, .pane(.response))
            responseViewRanges = Self.tabRanges(ResponseView.allCases.map(\.rawValue), startingAt: responseBox.x + 2, width: responseBox.width - 4)
            for (view, range) in zip(ResponseView.allCases, responseViewRanges) {
                hits.add(Rect(x: range.lowerBound, y: responseBox.y, width: range.count, height: 1), .responseView(view))
            }
        }
        if let modal = state.modal {
            modalFrame = Self.frame(of: modal, in: screen)
        }
    }

    /// Tab titles as drawn by ``Tabs`` in a box's top edge `width` wide: titles joined by
    /// ``Tabs/separator(_:width:)``.
    static func tabRanges(_ titles: [String], startingAt start: Int, width: Int = .max) -> [Range<Int>] {
        var x = start
        var ranges: [Range<Int>] = []
        let gap = TextWidth.of(Tabs.separator(titles, width: width))
        for (index, title) in titles.enumerated() {
            if index > 0 { x += gap }
            ranges.append(x..<(x + TextWidth.of(title)))
            x += TextWidth.of(title)
        }
        return ranges
    }

    /// One row per direction that is moving or has moved during the current send.
    static func progressRowCount(_ state: AppState) -> Int {
        guard let exchange = state.exchange else { return 0 }
        return (exchange.upload.progress != nil ? 1 : 0) + (exchange.download.progress != nil ? 1 : 0)
    }

    static func frame(of modal: Modal, in screen: Rect) -> Rect {
        switch modal {
        case let .help(dialog), let .message(dialog): dialog.frame(in: screen)
        case let .prompt(prompt): prompt.displayDialog.frame(in: screen)
        case let .picker(picker):
            screen.centered(width: min(screen.width - 2, max(30, TextWidth.of(picker.title) + 6, (picker.options.map(TextWidth.of).max() ?? 0) + 4)),
                            height: pickerViewport(picker, screenHeight: screen.height) + 2)
        }
    }

    /// How many of a picker's options show at once.
    static func pickerViewport(_ picker: Picker, screenHeight: Int) -> Int {
        max(1, min(picker.options.count, screenHeight - 6))
    }
}
