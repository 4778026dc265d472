import Foundation
import CNcursesw
import Glibc
import Synchronization
import TerminalUI

/// The ncurses terminal: the only code that talks to ncurses (docs/ARCHITECTURE.md, "What ncurses from Swift needs").
///
/// One thread owns it: the UI loop that calls ``waitForEvents(timeout:)`` and ``draw(_:cursor:)``.
/// Other threads only call ``wake()``, which writes one byte to a self-pipe that the loop polls
/// beside standard input. Signal handlers (C, in shim.h) write to the same pipe: SIGWINCH chains
/// ncurses' handler so KEY_RESIZE arrives; SIGINT, SIGTERM and SIGHUP ask the loop to stop so the
/// terminal is restored on the way out; crash signals restore it and re-raise.
public final class CursesTerminal: TerminalDevice {
    // Only the UI thread calls ncurses. wake() uses only the pipe's fd, which never changes
    // after init; the pair cache and flags sit behind `state`'s Mutex.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = Mutex(State())
    private let mouse: Bool
    /// Whether the locale writes UTF-8; without it, cells are drawn as ASCII (``ASCIIFallback``).
    private let unicode: Bool

    private struct State: Sendable {
        var pairs: [PairKey: Int32] = [:]
        var needsFullRepaint = false
        var started = false
    }

    private struct PairKey: Hashable {
        var foreground: Int32
        var background: Int32
    }

    /// Custom key codes for sequences ncurses does not name, bound with define_key.
    private enum CustomKey: Int32 {
        case pasteStart = 2001, pasteEnd, ctrlLeft, ctrlRight, ctrlUp, ctrlDown, altLeft, altRight, ctrlDelete, ctrlHome, ctrlEnd
    }

    /// Takes over the terminal: UTF-8 locale, raw keys, colours, mouse and bracketed paste.
    ///
    /// - Parameter mouse: Whether to report mouse clicks and the wheel (off keeps the terminal's
    ///   own selection working).
    /// - Throws: ``TerminalError`` when standard input or output is not a terminal.
    public init(mouse: Bool = true) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TerminalError.pipe(errno) }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        self.mouse = mouse

        setlocale(LC_ALL, "")
        unicode = String(cString: nl_langinfo(nl_item(CODESET))).uppercased().replacingOccurrences(of: "-", with: "") == "UTF8"
        // A short ESC delay: alt+key and a lone Escape are told apart within 25 ms.
        tincan_set_escdelay(25)
        guard initscr() != nil else { throw TerminalError.notATerminal }
        takeTerminal()
        tincan_install_signal_handlers(wakeWrite)
        state.withLock { $0.started = true }
    }

    deinit {
        stop()
        close(wakeRead)
        close(wakeWrite)
    }

    /// Gives the terminal back: modes off, `endwin`, signal handlers restored. Safe to call twice.
    public func stop() {
        let wasStarted = state.withLock { state in
            defer { state.started = false }
            return state.started
        }
        guard wasStarted else { return }
        releaseTerminal()
        tincan_restore_signal_handlers()
    }

    private func takeTerminal() {
        raw()
        noecho()
        nonl()
        keypad(tincan_stdscr(), true)
        nodelay(tincan_stdscr(), true)
        if has_colors() {
            start_color()
            use_default_colors()
        }
        if mouse {
            mouseinterval(0)
            mousemask(tincan_all_mouse_events(), nil)
        }
        defineKeys()
        writeRaw("\u{1B}[?2004h")
        state.withLock { $0.needsFullRepaint = true }
    }

    private func releaseTerminal() {
        writeRaw("\u{1B}[?2004l")
        if mouse { mousemask(0, nil) }
        curs_set(1)
        endwin()
    }

    private func defineKeys() {
        let sequences: [(String, CustomKey)] = [
            ("\u{1B}[200~", .pasteStart), ("\u{1B}[201~", .pasteEnd),
            ("\u{1B}[1;5D", .ctrlLeft), ("\u{1B}[1;5C", .ctrlRight), ("\u{1B}[1;5A", .ctrlUp), ("\u{1B}[1;5B", .ctrlDown),
            ("\u{1B}[1;3D", .altLeft), ("\u{1B}[1;3C", .altRight), ("\u{1B}[3;5~", .ctrlDelete),
            ("\u{1B}[1;5H", .ctrlHome), ("\u{1B}[1;5F", .ctrlEnd),
        ]
        for (sequence, key) in sequences { define_key(sequence, key.rawValue) }
    }

    private func writeRaw(_ text: String) {
        fflush(nil)
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    // MARK: - TerminalDevice

    public var size: (width: Int, height: Int) {
        (Int(tincan_getmaxx(tincan_stdscr())), Int(tincan_getmaxy(tincan_stdscr())))
    }

    public var colorCount: Int { has_colors() ? Int(tincan_colors()) : 0 }

    public var stopRequested: Bool { tincan_stop_requested() != 0 }

    /// The signal that asked to stop, for the exit status (128 + signal).
    public var stopSignal: Int32 { tincan_stop_requested() }

    public func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    public func draw(_ changes: [ScreenBuffer.Change], cursor: Point?) {
        let screen = tincan_stdscr()
        if state.withLock({ state in defer { state.needsFullRepaint = false }; return state.needsFullRepaint }) {
            clearok(screen, true)
        }
        let colors = colorCount
        // Runs of cells share a style: look its pair and attributes up once per run of the same style.
        var lastStyle: Style?
        var pair: Int32 = 0
        var attributes: attr_t = tincan_a_normal()
        var wide: [wchar_t] = []
        for change in changes {
            wmove(screen, Int32(change.y), Int32(change.x))
            for cell in change.cells {
                // A wide character is one cell and its continuation in UTF-8; in ASCII each is a column of its own.
                if cell.isContinuation, unicode { continue }
                if cell.style != lastStyle {
                    lastStyle = cell.style
                    pair = pairNumber(cell.style, colors: colors)
                    attributes = self.attributes(cell.style.attributes)
                }
                var character = cchar_t()
                wide.removeAll(keepingCapacity: true)
                let text = unicode ? cell.text : cell.isContinuation ? " " : ASCIIFallback.text(cell.text)
                for scalar in text.unicodeScalars { wide.append(wchar_t(bitPattern: scalar.value)) }
                wide.append(0)
                setcchar(&character, &wide, attributes, 0, &pair)
                wadd_wch(screen, &character)
            }
        }
        if let cursor {
            wmove(screen, Int32(cursor.y), Int32(cursor.x))
            curs_set(1)
        } else {
            curs_set(0)
        }
        wnoutrefresh(screen)
        doupdate()
    }

    public func waitForEvents(timeout: Int?) -> [InputEvent] {
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, Int32(timeout ?? -1))
        if fds[1].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 256)
            while read(wakeRead, &sink, sink.count) > 0 {}
        }
        return readInput()
    }

    public func setClipboard(_ text: String) {
        // OSC 52, clipboard selection, base64 of the UTF-8 text, ended with ST.
        writeRaw("\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{1B}\\")
    }

    public func suspend() {
        releaseTerminal()
        // SIGSTOP, not SIGTSTP: ncurses' own SIGTSTP handler would repaint on its own terms.
        // raise (tgkill to this thread), not kill(getpid()): a signal sent to the process is
        // taken by whichever thread the kernel picks, and this thread returned from kill and
        // went on to take the terminal back, alternate screen and all, before the stop
        // reached it. A signal to this thread stops it before raise returns.
        raise(SIGSTOP)
        // `fg` continues here.
        reset_prog_mode()
        takeTerminal()
    }

    /// Gives the terminal to another program in Tincan's process group, with the terminal in the
    /// modes the shell gave Tincan, and takes it back when `body` returns. Meanwhile ctrl+c and
    /// ctrl+\ are the program's (Tincan ignores them) and ctrl+z stops Tincan with it
    /// (`tincan_handoff_begin` in shim.h).
    public func withTerminalReleased<T>(_ body: () throws -> T) rethrows -> T {
        def_prog_mode()
        releaseTerminal()
        tincan_handoff_begin()
        defer {
            tincan_handoff_end()
            reset_prog_mode()
            takeTerminal()
        }
        return try body()
    }

    // MARK: - Input

    private func readInput() -> [InputEvent] {
        var events: [InputEvent] = []
        var paste: String.UnicodeScalarView?
        var pendingEscape = false
        while true {
            var code: wint_t = 0
            let kind = wget_wch(tincan_stdscr(), &code)
            if kind == ERR { break }
            if kind == KEY_CODE_YES {
                let key = Int32(code)
                if key == CustomKey.pasteStart.rawValue {
                    paste = String.UnicodeScalarView()
                    continue
                }
                if key == CustomKey.pasteEnd.rawValue {
                    if let text = paste { events.append(.paste(String(text))) }
                    paste = nil
                    continue
                }
                if paste != nil, key == KEY_ENTER {
                    paste?.append("\n")
                    continue
                }
                if let event = functionKey(key) {
                    events.append(pendingEscape ? alt(event) : event)
                    pendingEscape = false
                }
                continue
            }
            guard let scalar = Unicode.Scalar(UInt32(code)) else { continue }
            if paste != nil {
                paste?.append(scalar == "\r" ? "\n" : scalar)
                continue
            }
            if scalar == "\u{1B}" {
                if pendingEscape { events.append(.key(KeyEvent(.escape))) }
                pendingEscape = true
                continue
            }
            let event = characterKey(scalar)
            if pendingEscape, Self.endsAnEscape(scalar) {
                // Esc, then ctrl+c (or another control key) soon after: two keys, not alt+ctrl+c,
                // which nothing binds and which would swallow the ctrl+c (issue 34 §4).
                events.append(.key(KeyEvent(.escape)))
                events.append(event)
            } else {
                events.append(pendingEscape ? alt(event) : event)
            }
            pendingEscape = false
        }
        if pendingEscape { events.append(.key(KeyEvent(.escape))) }
        if let text = paste, !text.isEmpty { events.append(.paste(String(text))) }
        return events
    }

    /// Whether a byte after Esc is a key of its own rather than Alt with it: a control key (ctrl+a
    /// to ctrl+z but tab, enter and backspace, which alt+tab, alt+enter and alt+backspace send).
    static func endsAnEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x08, 0x09, 0x0A, 0x0D: false
        case 0x00...0x1A: true
        default: false
        }
    }

    private func alt(_ event: InputEvent) -> InputEvent {
        guard case var .key(key) = event else { return event }
        key.modifiers.insert(.alt)
        return .key(key)
    }

    private func characterKey(_ scalar: Unicode.Scalar) -> InputEvent {
        switch scalar.value {
        case 0x0D, 0x0A: return .key(KeyEvent(.enter))
        case 0x09: return .key(KeyEvent(.tab))
        case 0x7F, 0x08: return .key(KeyEvent(.backspace))
        case 0x00: return .key(.ctrl(" "))
        case 0x1F: return .key(.ctrl("_"))
        case 0x1C...0x1E: return .key(.ctrl(Character(Unicode.Scalar(scalar.value + 0x40)!)))
        case 0x01...0x1A: return .key(.ctrl(Character(Unicode.Scalar(scalar.value + 0x60)!)))
        default: return .key(.char(Character(scalar)))
        }
    }

    private func functionKey(_ key: Int32) -> InputEvent? {
        switch key {
        case KEY_UP: return .key(KeyEvent(.up))
        case KEY_DOWN: return .key(KeyEvent(.down))
        case KEY_LEFT: return .key(KeyEvent(.left))
        case KEY_RIGHT: return .key(KeyEvent(.right))
        case KEY_SLEFT: return .key(KeyEvent(.left, .shift))
        case KEY_SRIGHT: return .key(KeyEvent(.right, .shift))
        case KEY_SR: return .key(KeyEvent(.up, .shift))
        case KEY_SF: return .key(KeyEvent(.down, .shift))
        case KEY_SHOME: return .key(KeyEvent(.home, .shift))
        case KEY_SEND: return .key(KeyEvent(.end, .shift))
        case KEY_HOME: return .key(KeyEvent(.home))
        case KEY_END: return .key(KeyEvent(.end))
        case KEY_PPAGE: return .key(KeyEvent(.pageUp))
        case KEY_NPAGE: return .key(KeyEvent(.pageDown))
        case KEY_DC: return .key(KeyEvent(.delete))
        case KEY_IC: return .key(KeyEvent(.insert))
        case KEY_BACKSPACE: return .key(KeyEvent(.backspace))
        case KEY_ENTER: return .key(KeyEvent(.enter))
        case KEY_BTAB: return .key(KeyEvent(.tab, .shift))
        case KEY_RESIZE:
            let size = size
            return .resize(width: size.width, height: size.height)
        case KEY_MOUSE: return mouseEvent()
        case CustomKey.ctrlLeft.rawValue: return .key(KeyEvent(.left, .control))
        case CustomKey.ctrlRight.rawValue: return .key(KeyEvent(.right, .control))
        case CustomKey.ctrlUp.rawValue: return .key(KeyEvent(.up, .control))
        case CustomKey.ctrlDown.rawValue: return .key(KeyEvent(.down, .control))
        case CustomKey.altLeft.rawValue: return .key(KeyEvent(.left, .alt))
        case CustomKey.altRight.rawValue: return .key(KeyEvent(.right, .alt))
        case CustomKey.ctrlDelete.rawValue: return .key(KeyEvent(.delete, .control))
        case CustomKey.ctrlHome.rawValue: return .key(KeyEvent(.home, .control))
        case CustomKey.ctrlEnd.rawValue: return .key(KeyEvent(.end, .control))
        // xterm's terminfo (and tmux's) numbers shift+F1–F12 as F13–F24 and ctrl+F1–F12 as F25–F36.
        case (KEY_F0 + 1)...(KEY_F0 + 12): return .key(KeyEvent(.function(Int(key - KEY_F0))))
        case (KEY_F0 + 13)...(KEY_F0 + 24): return .key(KeyEvent(.function(Int(key - KEY_F0 - 12)), .shift))
        case (KEY_F0 + 25)...(KEY_F0 + 36): return .key(KeyEvent(.function(Int(key - KEY_F0 - 24)), .control))
        default: return nil
        }
    }

    private func mouseEvent() -> InputEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        let action: MouseEvent.Action
        if state & tincan_button4_pressed() != 0 {
            action = .wheelUp
        } else if state & tincan_button5_pressed() != 0 {
            action = .wheelDown
        } else if state & (tincan_button1_pressed() | tincan_button1_clicked()) != 0 {
            action = .press(button: 1)
        } else if state & tincan_button3_pressed() != 0 {
            action = .press(button: 3)
        } else if state & tincan_button1_released() != 0 {
            action = .release
        } else {
            return nil
        }
        return .mouse(MouseEvent(action, x: Int(event.x), y: Int(event.y)))
    }

    // MARK: - Styles

    private func attributes(_ attributes: TextAttributes) -> attr_t {
        var result = tincan_a_normal()
        if attributes.contains(.bold) { result |= tincan_a_bold() }
        if attributes.contains(.dim) { result |= tincan_a_dim() }
        if attributes.contains(.italic) { result |= tincan_a_italic() }
        if attributes.contains(.underline) { result |= tincan_a_underline() }
        if attributes.contains(.reverse) { result |= tincan_a_reverse() }
        return result
    }

    private func colorNumber(_ color: Color, colors: Int) -> Int32 {
        guard colors > 0 else { return -1 }
        let mapped: Color
        if colors >= 256 {
            mapped = color.nearest256
        } else if colors >= 16, case let .indexed(index) = color, index < 16 {
            mapped = color
        } else {
            mapped = color.nearest8
        }
        switch mapped {
        case .default: return -1
        case let .indexed(index): return Int32(index)
        case .rgb: return -1
        }
    }

    /// An extended colour pair for a style, allocated once (`alloc_pair`), passed through
    /// setcchar's opts because COLOR_PAIR packs only 8 bits.
    private func pairNumber(_ style: Style, colors: Int) -> Int32 {
        guard colors > 0 else { return 0 }
        let key = PairKey(foreground: colorNumber(style.foreground, colors: colors), background: colorNumber(style.background, colors: colors))
        if key.foreground == -1, key.background == -1 { return 0 }
        if let pair = state.withLock({ $0.pairs[key] }) { return pair }
        let pair = max(0, alloc_pair(key.foreground, key.background))
        state.withLock { $0.pairs[key] = pair }
        return pair
    }
}

/// Why the terminal could not be used.
public enum TerminalError: Error, CustomStringConvertible {
    case notATerminal
    case pipe(Int32)

    public var description: String {
        switch self {
        case .notATerminal: "standard input and output must be a terminal (use `tincan send` or `tincan replay` in scripts)"
        case let .pipe(code): "could not create the wake-up pipe: \(String(cString: strerror(code)))"
        }
    }
}
