import TerminalUI

/// The widgets of the state whose drawing also settles where their view starts: a list's first
/// visible row, a field's first visible column, a text's scroll position.
///
/// Drawing is the only place that knows the space each one gets, so it is the one that keeps a
/// selection or a cursor in view, and the position it settles on must last until the next frame
/// (a list scrolls only when its selection leaves the view). As ratatui's stateful widgets take
/// their `State` mutably and nothing else, the panes draw from an ``AppState`` they cannot
/// change plus these widgets, and ``Renderer/render(_:)`` writes them back: the one write-back of
/// drawing.
struct StatefulWidgets: Equatable {
    var baseField: TextField
    var urlField: TextField
    /// The collection pane's cursor (`workspace.list`).
    var collection: ListState
    var headers: ListState
    var query: ListState
    var parameters: TreeEditor
    var body: TextArea
    var auth: ListState
    var properties: ListState
    var checks: ListState
    var preview: ScrollState
    /// The Headers and Timing views' scroll.
    var response: ScrollState
    /// The Pretty and Raw views' selected row.
    var bodyRows: ListState
    /// The open modal's dialog or list, or the command line's or search's field.
    var mode: InputMode
}

extension AppState {
    /// The widgets drawing settles, read from and written back to their places in the state.
    var statefulWidgets: StatefulWidgets {
        get {
            StatefulWidgets(baseField: baseField, urlField: urlField, collection: workspace.list, headers: headerList, query: queryList, parameters: parameters,
                            body: body, auth: authList, properties: propertyList, checks: checkList, preview: previewScroll, response: responseScroll, bodyRows: bodyList, mode: mode)
        }
        set {
            baseField = newValue.baseField
            urlField = newValue.urlField
            workspace.list = newValue.collection
            headerList = newValue.headers
            queryList = newValue.query
            authList = newValue.auth
            parameters = newValue.parameters
            body = newValue.body
            propertyList = newValue.properties
            checkList = newValue.checks
            previewScroll = newValue.preview
            responseScroll = newValue.response
            bodyList = newValue.bodyRows
            mode = newValue.mode
        }
    }
}
