/// A terminal the app loop draws to and reads from: ncurses in the product, memory in tests.
///
/// All methods are called from the one UI thread, except ``wake()``, which any thread may call
/// to make a blocked ``waitForEvents(timeout:)`` return.
public protocol TerminalDevice: AnyObject, Sendable {
    /// The current size in cells.
    var size: (width: Int, height: Int) { get }
    /// Whether the terminal shows 256 colours (otherwise 8).
    var colorCount: Int { get }
    /// Writes changed cells and places (or hides) the cursor.
    func draw(_ changes: [ScreenBuffer.Change], cursor: Point?)
    /// Blocks until input arrives, ``wake()`` is called, or the timeout (milliseconds, nil for
    /// none) passes; returns all input that is ready.
    func waitForEvents(timeout: Int?) -> [InputEvent]
    /// Makes a blocked ``waitForEvents(timeout:)`` return.
    func wake()
    /// Whether a signal asked the program to stop (SIGINT, SIGTERM, SIGHUP).
    var stopRequested: Bool { get }
    /// Gives the terminal back to the shell, stops the process (job control), and takes the
    /// terminal again when it is continued; the next draw must repaint everything.
    func suspend()
    /// Asks the terminal to put `text` on the system clipboard (OSC 52). Terminals that do not
    /// support it ignore it; tmux takes it into a paste buffer with `set-clipboard on`.
    func setClipboard(_ text: String)
    /// Gives the terminal to another program (such as `$EDITOR`) while `body` runs.
    func withTerminalReleased<T>(_ body: () throws -> T) rethrows -> T
}
