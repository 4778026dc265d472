import TerminalUI

/// Everything a key can do. The raw value is the name a keymap file uses.
public enum Action: String, Sendable, CaseIterable, Hashable {
    // Global
    case send, cancel, quit, help, focusNext = "focus-next", focusPrevious = "focus-previous"
    case nextTab = "next-tab", nextResponseView = "next-response-view", editExternally = "edit-externally"
    case cycleTheme = "cycle-theme", zoom, suspend
    case jump, previousTab = "previous-tab", focusURL = "focus-url", focusMethod = "focus-method", focusBody = "focus-body"
    case save, saveAs = "save-as", openSession = "open-session", environment, history, copyCurl = "copy-curl", copyCode = "copy-code"
    case commandLine = "command-line", explain, received, compare, variables
    case toggleWrap = "toggle-wrap", cookieJar = "cookie-jar", cache, slowMotion = "slow-motion"
    // Lessons (tincan learn)
    case lessonNotes = "lesson-notes", nextStep = "next-step", previousStep = "previous-step", lessonHint = "lesson-hint"
    case resetStep = "reset-step", resetLesson = "reset-lesson"
    // Collection
    case openRequest = "open-request", addRequest = "add-request", removeRequest = "remove-request", renameRequest = "rename-request"
    // Pickers (method, serializer)
    case graphQLSchema = "graphql-schema", completeField = "complete-field"
    case nextChoice = "next-choice", previousChoice = "previous-choice", openPicker = "open-picker"
    // Headers table
    case addHeader = "add-header", editHeader = "edit-header", removeHeader = "remove-header", toggleHeader = "toggle-header"
    // Query fields
    case addQuery = "add-query", editQuery = "edit-query", removeQuery = "remove-query", toggleQuery = "toggle-query"
    // Parameter tree
    case addParameter = "add-parameter", editValue = "edit-value", renameParameter = "rename-parameter"
    case removeParameter = "remove-parameter", cycleType = "cycle-type", expand, collapse
    // Properties
    case changeProperty = "change-property", resetProperty = "reset-property"
    // Checks
    case addCheck = "add-check", addCapture = "add-capture", editCheck = "edit-check", removeCheck = "remove-check"
    // Response body
    case search, searchNext = "search-next", searchPrevious = "search-previous", copyPath = "copy-path"
    case toggleFold = "toggle-fold", fold, unfold, foldAll = "fold-all", unfoldAll = "unfold-all"
    case viewInPager = "view-in-pager", viewInEditor = "view-in-editor", saveBody = "save-body", filterBody = "filter-body"
    // Body editor
    case applyBody = "apply-body", bodyKind = "body-kind"
    // Auth tab
    case changeAuth = "change-auth", revealSecrets = "reveal-secrets"
    // Anywhere that is not a text field
    case helpQuestion = "help-question", commandLineColon = "command-line-colon"
    case scrollLeft = "scroll-left", scrollRight = "scroll-right"
}

/// Where a binding applies. The focused pane's scope is searched first, then `list` for panes
/// that are not text fields, then `global`.
public enum Scope: String, Sendable, CaseIterable {
    case global, list, collection, picker, headers, query, parameters, body, auth, properties, checks, response
}

/// The built-in key table: the one declaration behind dispatch, the footer, the help screen and
/// `docs/keys.md`.
///
/// Defaults avoid ctrl+b (tmux's prefix), ctrl+s and ctrl+q (flow control), ctrl+\ (SIGQUIT) and
/// keys a text field needs for editing (ctrl+a/e/k/u/w/y/_ and alt+b/f/d).
public enum KeyBindings {
    public static let table: [KeyBinding<Action>] = [
        KeyBinding([.ctrl("r"), KeyEvent(.function(5))], .send, label: "send", help: "Send the request", inFooter: true),
        KeyBinding([.ctrl("g")], .cancel, label: "cancel", help: "Cancel the request in flight"),
        KeyBinding([.ctrl("c"), KeyEvent(.function(10))], .quit, label: "quit", help: "Quit Tincan", inFooter: true),
        KeyBinding([KeyEvent(.function(1))], .help, label: "help", help: "Show every key binding", inFooter: true),
        KeyBinding([KeyEvent(.tab)], .focusNext, label: "next", help: "Focus the next pane"),
        KeyBinding([KeyEvent(.tab, .shift)], .focusPrevious, label: "previous", help: "Focus the previous pane"),
        KeyBinding([.ctrl("o")], .jump, label: "jump", help: "Jump: label every pane, field, tab and view with a key; that key goes there (esc stays)", inFooter: true),
        KeyBinding([KeyEvent(.function(2)), .alt("]")], .nextTab, label: "tab", help: "Show the next request tab: headers, parameters, body, auth, properties, checks", inFooter: true),
        KeyBinding([KeyEvent(.function(2), .shift), .alt("[")], .previousTab, label: "tab back", help: "Show the previous request tab"),
        KeyBinding([.ctrl("l"), .alt("U")], .focusURL, label: "URL", help: "Go to the URL field"),
        KeyBinding([.alt("M")], .focusMethod, label: "method", help: "Go to the method picker"),
        KeyBinding([.alt("B")], .focusBody, label: "body", help: "Go to the body (the Body tab)"),
        KeyBinding([KeyEvent(.function(3))], .nextResponseView, label: "view", help: "Show the next response view: pretty, raw, headers, timing"),
        KeyBinding([KeyEvent(.function(4))], .editExternally, label: "$EDITOR", help: "Edit the body (the parameters as JSON, or the text) in $EDITOR"),
        KeyBinding([.ctrl("t")], .cycleTheme, label: "theme", help: "Switch to the next theme"),
        KeyBinding([KeyEvent(.function(12)), .ctrl("x")], .zoom, label: "zoom", help: "Zoom the focused pane to the whole screen, and back"),
        KeyBinding([.ctrl("z")], .suspend, label: "suspend", help: "Suspend to the shell (resume with fg)"),
        KeyBinding([KeyEvent(.function(6)), .alt("w")], .save, label: "save", help: "Save the session to its file (asks for a name the first time)", inFooter: true),
        KeyBinding([KeyEvent(.function(7))], .saveAs, label: "save as", help: "Save the session to another file"),
        KeyBinding([.alt("o")], .openSession, label: "open", help: "Open a session file (.tincan.yaml)"),
        KeyBinding([KeyEvent(.function(8)), .alt("e")], .environment, label: "env", help: "Choose the environment whose variables apply"),
        KeyBinding([.alt("=")], .compare, label: "compare", help: "Compare two sends of this run: requests and responses, line by line"),
        KeyBinding([.alt("h")], .history, label: "history", help: "Reopen a request from the history"),
        KeyBinding([.alt("x")], .commandLine, label: "command", help: "Open the command line (get /users page==2, header …, send; help lists them)", inFooter: true),
        KeyBinding([KeyEvent(.function(9)), .alt("i")], .explain, label: "explain", help: "Show why the request looks as it does and why the response passed or failed, or the wire preview again"),
        KeyBinding([.alt("r")], .received, label: "received", help: "Show the last request as a Tincan demo server received it, line by line against the preview (transport details named), or the preview again"),
        KeyBinding([.alt("v")], .variables, label: "variables", help: "Show every variable: its value now and where it comes from (file, environment, --var, a capture, $env)"),
        KeyBinding([.alt("c")], .copyCurl, label: "curl", help: "Copy the request as a curl command (shown, and put on the clipboard)"),
        KeyBinding([.alt("C")], .copyCode, label: "code", help: "Copy the request as code: a menu of curl, Python, JavaScript, Go, HTTPie, Swift and Alamofire"),
        KeyBinding([.alt("j")], .cookieJar, label: "cookies", help: "List the cookie jar (values hidden until revealed); delete one cookie or all"),
        KeyBinding([.alt("m")], .cache, label: "cache", help: "List the response cache: URL, status, freshness left, validators; delete one or all"),
        KeyBinding([.alt("l")], .lessonNotes, label: "notes", help: "In a lesson: show the step's notes and goals, or the wire preview again"),
        KeyBinding([.alt("n")], .nextStep, label: "next step", help: "In a lesson: go to the next step (unlocked once every goal of this one passes)"),
        KeyBinding([.alt("g")], .previousStep, label: "step back", help: "In a lesson: go back to the previous step"),
        KeyBinding([.alt("t")], .lessonHint, label: "hint", help: "In a lesson: show the step's next hint"),
        KeyBinding([.alt("R")], .resetStep, label: "reset step", help: "In a lesson: put this step's request back as shipped, and send the earlier steps again to rebuild what they left"),
        KeyBinding([.alt("E")], .resetLesson, label: "reset lesson", help: "In a lesson: start it afresh: every request as shipped, the cookies, cache and captures emptied, no step passed"),
        KeyBinding([.alt("z")], .toggleWrap, label: "wrap", help: "Wrap long lines in the preview and response boxes, or cut them at the edge again"),
        KeyBinding([.alt("p")], .slowMotion, label: "slow motion", help: "Send in slow motion: stop before each stage (build, serialize, connect, request body, response head, response body, validate, decode); alt+p again goes on to the next"),

        KeyBinding([KeyEvent(.enter)], .openRequest, label: "open", help: "Load the request into the editor", scope: Scope.collection.rawValue, inFooter: true),
        KeyBinding([.char("a"), KeyEvent(.insert)], .addRequest, label: "add", help: "Add a request after the selected one", scope: Scope.collection.rawValue, inFooter: true),
        KeyBinding([.char("d"), KeyEvent(.delete)], .removeRequest, label: "remove", help: "Remove the selected request", scope: Scope.collection.rawValue, inFooter: true),
        KeyBinding([.char("r")], .renameRequest, label: "rename", help: "Name the selected request", scope: Scope.collection.rawValue, inFooter: true),

        KeyBinding([KeyEvent(.down), .char("j"), .char(" ")], .nextChoice, label: "next", help: "Choose the next value", scope: Scope.picker.rawValue),
        KeyBinding([KeyEvent(.up), .char("k")], .previousChoice, label: "previous", help: "Choose the previous value", scope: Scope.picker.rawValue),
        KeyBinding([KeyEvent(.enter)], .openPicker, label: "pick", help: "Pick from a list", scope: Scope.picker.rawValue, inFooter: true),

        KeyBinding([.char("a"), KeyEvent(.insert)], .addHeader, label: "add", help: "Add a header", scope: Scope.headers.rawValue, inFooter: true),
        KeyBinding([KeyEvent(.enter), .char("e")], .editHeader, label: "edit", help: "Edit the selected header", scope: Scope.headers.rawValue, inFooter: true),
        KeyBinding([.char("d"), KeyEvent(.delete)], .removeHeader, label: "remove", help: "Remove the selected header; a default is saved as name: null, and comes back with d again", scope: Scope.headers.rawValue, inFooter: true),
        KeyBinding([.char(" ")], .toggleHeader, label: "on/off", help: "Turn the selected header off or on; a default turned off is saved as name: null", scope: Scope.headers.rawValue, inFooter: true),
        KeyBinding([.char("v")], .revealSecrets, label: "show/hide", help: "Show secrets (credentials, tokens, cookies, URL passwords) as they are in every view, or as dots again", scope: Scope.headers.rawValue),

        KeyBinding([.char("a"), KeyEvent(.insert)], .addQuery, label: "add", help: "Add a query field (name==value, always in the URL)", scope: Scope.query.rawValue, inFooter: true),
        KeyBinding([KeyEvent(.enter), .char("e")], .editQuery, label: "edit", help: "Edit the selected query field", scope: Scope.query.rawValue, inFooter: true),
        KeyBinding([.char("d"), KeyEvent(.delete)], .removeQuery, label: "remove", help: "Remove the selected query field", scope: Scope.query.rawValue, inFooter: true),
        KeyBinding([.char(" ")], .toggleQuery, label: "on/off", help: "Turn the selected query field off (kept in the file, not sent) or on", scope: Scope.query.rawValue, inFooter: true),

        KeyBinding([.char("a"), KeyEvent(.insert)], .addParameter, label: "add", help: "Add a parameter (inside an object or array, or after the selection): a key, where user[address][city] names its place from the top, then its type", scope: Scope.parameters.rawValue, inFooter: true),
        KeyBinding([KeyEvent(.enter), .char("e")], .editValue, label: "value", help: "Edit the selected value", scope: Scope.parameters.rawValue, inFooter: true),
        KeyBinding([.char("r")], .renameParameter, label: "rename", help: "Rename the selected key", scope: Scope.parameters.rawValue, inFooter: true),
        KeyBinding([.char("d"), KeyEvent(.delete)], .removeParameter, label: "remove", help: "Remove the selected parameter and its children", scope: Scope.parameters.rawValue, inFooter: true),
        KeyBinding([.char("t")], .cycleType, label: "type", help: "Change the type: string, number, bool, null, array, object", scope: Scope.parameters.rawValue, inFooter: true),
        KeyBinding([KeyEvent(.right), .char("l")], .expand, label: "expand", help: "Expand the selected object or array", scope: Scope.parameters.rawValue),
        KeyBinding([KeyEvent(.left), .char("h")], .collapse, label: "collapse", help: "Collapse, or go to the parent", scope: Scope.parameters.rawValue),

        KeyBinding([KeyEvent(.enter), .char(" ")], .changeProperty, label: "change", help: "Change the selected property", scope: Scope.properties.rawValue, inFooter: true),
        KeyBinding([.char("x"), KeyEvent(.delete)], .resetProperty, label: "reset", help: "Reset the selected property to the session's default", scope: Scope.properties.rawValue, inFooter: true),

        KeyBinding([.char("a"), KeyEvent(.insert)], .addCheck, label: "assert", help: "Add an assertion (body $.json.id equals 7, status 2xx, headers Content-Type contains json)", scope: Scope.checks.rawValue, inFooter: true),
        KeyBinding([.char("c")], .addCapture, label: "capture", help: "Add a capture (id: $.json.id, etag: {header: ETag})", scope: Scope.checks.rawValue, inFooter: true),
        KeyBinding([KeyEvent(.enter), .char("e")], .editCheck, label: "edit", help: "Edit the selected assertion or capture", scope: Scope.checks.rawValue, inFooter: true),
        KeyBinding([.char("d"), KeyEvent(.delete)], .removeCheck, label: "remove", help: "Remove the selected assertion or capture", scope: Scope.checks.rawValue, inFooter: true),

        KeyBinding([.char("/")], .search, label: "search", help: "Search the body (a capital letter makes it case-sensitive)", scope: Scope.response.rawValue, inFooter: true),
        KeyBinding([.char("n")], .searchNext, label: "next", help: "Go to the next match", scope: Scope.response.rawValue, inFooter: true),
        KeyBinding([.char("N")], .searchPrevious, label: "previous", help: "Go to the previous match", scope: Scope.response.rawValue),
        KeyBinding([.char("y")], .copyPath, label: "path", help: "Copy the selected value's body path ($.tags[0]), or add an assertion that it equals its value now", scope: Scope.response.rawValue, inFooter: true),
        KeyBinding([KeyEvent(.enter), .char(" ")], .toggleFold, label: "fold", help: "Fold or unfold the selected object or array", scope: Scope.response.rawValue, inFooter: true),
        KeyBinding([KeyEvent(.left), .char("h")], .fold, label: "fold", help: "Fold the selected container, or go to its parent", scope: Scope.response.rawValue),
        KeyBinding([KeyEvent(.right), .char("l")], .unfold, label: "unfold", help: "Unfold the selected container", scope: Scope.response.rawValue),
        KeyBinding([.char("-")], .foldAll, label: "fold all", help: "Fold every top-level member, for an overview", scope: Scope.response.rawValue),
        KeyBinding([.char("f")], .filterBody, label: "filter", help: "Narrow the JSON to what a body path selects ($.items[?(@.price < 10)]), as assertions write it; an empty path clears", scope: Scope.response.rawValue),
        KeyBinding([.char("p")], .viewInPager, label: "pager", help: "Open the body in $PAGER (less): the Pretty view's text written out, or the Raw view's as received", scope: Scope.response.rawValue),
        KeyBinding([.char("e")], .viewInEditor, label: "editor", help: "Open the body in $EDITOR, to read (changes are not kept)", scope: Scope.response.rawValue),
        KeyBinding([.char("s")], .saveBody, label: "save body", help: "Save the body to a file (asks before overwriting one)", scope: Scope.response.rawValue),
        KeyBinding([.char("+"), .char("=")], .unfoldAll, label: "unfold all", help: "Unfold everything", scope: Scope.response.rawValue),

        KeyBinding([.alt("s")], .applyBody, label: "apply", help: "Apply the body: JSON into the parameters, base64 into bytes", scope: Scope.body.rawValue, inFooter: true),
        KeyBinding([.alt("k")], .bodyKind, label: "kind", help: "Choose what the body is: the parameters, text (any Content-Type), bytes, a file, an upload", scope: Scope.body.rawValue, inFooter: true),
        KeyBinding([.alt("q")], .graphQLSchema, label: "schema", help: "GraphQL: ask the server for its schema (introspection) and list its queries, mutations and types", scope: Scope.body.rawValue),
        KeyBinding([.alt("/")], .completeField, label: "complete", help: "GraphQL: complete the field name at the cursor from the schema (alt+q loads it)", scope: Scope.body.rawValue),

        KeyBinding([KeyEvent(.enter), .char("e")], .changeAuth, label: "change", help: "Change the selected field: the type (none, basic, digest, bearer, oauth2), the user, the password, the token or a grant's field", scope: Scope.auth.rawValue, inFooter: true),
        KeyBinding([.char("v")], .revealSecrets, label: "show/hide", help: "Show secrets (credentials, tokens, cookies, URL passwords) as they are in every view, or as dots again", scope: Scope.auth.rawValue, inFooter: true),

        KeyBinding([.char("?")], .helpQuestion, label: "help", help: "Show every key binding", scope: Scope.list.rawValue),
        KeyBinding([.char("v")], .revealSecrets, label: "show/hide", help: "Show secrets (credentials, tokens, cookies, URL passwords) as they are in the preview, Explain, Received and the response, or as dots again", scope: Scope.list.rawValue),
        KeyBinding([.char(":")], .commandLineColon, label: "command", help: "Open the command line", scope: Scope.list.rawValue),
        KeyBinding([.char("<"), KeyEvent(.left, .shift)], .scrollLeft, label: "left", help: "Scroll the preview or response box left (long lines not wrapped)", scope: Scope.list.rawValue),
        KeyBinding([.char(">"), KeyEvent(.right, .shift)], .scrollRight, label: "right", help: "Scroll the preview or response box right, to read the rest of long lines", scope: Scope.list.rawValue),
    ]

    /// The keys for an action as the footer and help write them (`ctrl+r/f5`).
    static func keysText(_ binding: KeyBinding<Action>) -> String {
        binding.keys.map(\.description).joined(separator: "/")
    }

    /// The key reference, as `docs/keys.md` holds it.
    public static func markdown(_ keymap: Keymap<Action> = Keymap(table)) -> String {
        var text = """
        # Key bindings

        Generated from the key table in `Sources/TincanTUI/App/Action.swift` (`tincan keys` prints it).
        Keys in a scope apply while that scope's pane is focused; global keys apply everywhere.
        A keymap file (`$XDG_CONFIG_HOME/tincan/keymap.yaml`, or `--keymap FILE`) replaces the keys
        of the actions it names:

        ```yaml
        send: [ctrl+r, f5]
        quit: [f10]
        ```

        """
        for scope in Scope.allCases {
            let bindings = keymap.bindings.filter { $0.scope == scope.rawValue }
            guard !bindings.isEmpty else { continue }
            text += "\n## \(scope.rawValue)\n\n| Keys | Action | What it does |\n|---|---|---|\n"
            for binding in bindings {
                let keys = binding.keys.map { "`\($0.description)`" }.joined(separator: ", ")
                text += "| \(keys) | `\(binding.action.rawValue)` | \(binding.help) |\n"
            }
        }
        text += """

        ## Text fields

        | Keys | What it does |
        |---|---|
        | `ctrl+a`, `home` / `ctrl+e`, `end` | Start / end of the line |
        | `alt+b`, `ctrl+left` / `alt+f`, `ctrl+right` | Previous / next word |
        | `ctrl+k` / `ctrl+u` / `ctrl+w`, `alt+backspace` / `alt+d` | Kill to the end / to the start / the word before / the word after |
        | `ctrl+y` | Yank the last killed text |
        | `ctrl+_` | Undo |
        | paste | Inserted as text (bracketed paste), never run as keys |

        """
        return text
    }
}
