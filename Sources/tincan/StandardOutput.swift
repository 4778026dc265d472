import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TincanCore

/// A buffered writer to standard output that writes through in large blocks and checks every
/// write.
///
/// Output goes through write(2), never `FileHandle.write(_:)`, which traps on an error: a reader
/// that closed the pipe (`tincan send … | head -c 100`) or a full disk crashed the process. Here a
/// short write is continued, an interrupted one retried, and any other failure is thrown as an
/// ``OutputError``, which `TincanCommand.main` turns into exit 23 (curl's "write error").
struct StandardOutput {
    private var buffer: [UInt8] = []
    private let blockSize = 256 * 1024

    mutating func write(_ text: String) throws(OutputError) {
        try write(Array(text.utf8))
    }

    mutating func write(_ bytes: [UInt8]) throws(OutputError) {
        // A block or more goes out from where it lies, after what is buffered: a 100 MB body
        // is not copied into the buffer first.
        if bytes.count >= blockSize {
            try flush()
            return try Self.writeNow(bytes)
        }
        buffer += bytes
        if buffer.count >= blockSize { try flush() }
    }

    /// Writes what is buffered.
    ///
    /// - Throws: ``OutputError``; the buffer is dropped either way, since a descriptor that
    ///   failed once is not written to again.
    mutating func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try Self.writeNow(buffer)
    }

    /// Writes `text` to standard output now, unbuffered (for lines that stream as work goes on).
    static func print(_ text: String) throws(OutputError) {
        try writeNow(Array(text.utf8))
    }

    /// Writes `bytes` to standard output now.
    static func writeNow(_ bytes: [UInt8]) throws(OutputError) {
        let code = AtomicFile.writeAll(bytes, to: STDOUT_FILENO)
        if code != 0 { throw OutputError(target: "standard output", code: code) }
    }

    /// Makes a closed pipe a write error (EPIPE) rather than a signal that ends the process
    /// without a word, for every subcommand alike. NIO ignores SIGPIPE process-wide as soon as it
    /// opens a socket, so the TUI (which always starts its demo server) and every send already
    /// ran this way; only commands that open no socket (offline sends, export) changed.
    static func ignoreClosedPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// A write to standard output or to a file the user named that failed.
struct OutputError: Error, CustomStringConvertible {
    /// `standard output`, or the file's path.
    var target: String
    /// The system's error number.
    var code: Int32

    /// The reader went away (a closed pipe): the process stops quietly, as `head` expects, but
    /// not with exit 0, since the output is incomplete.
    var isClosedPipe: Bool { code == EPIPE }

    var description: String { "cannot write to \(target): \(String(cString: strerror(code)))" }
}

/// Writes that fail inside callbacks that cannot throw (replay's progress, the server's log):
/// the first failure is kept, later writes are skipped, and the command throws it afterwards.
final class CheckedLines: Sendable {
    private let failure = Mutex<OutputError?>(nil)

    /// Writes `text` to standard output unless an earlier write failed. These are lines for
    /// people (a replay's progress, the server's log) that quote names, URLs and values from
    /// outside, so their control characters are neutralised (``TerminalText``).
    func print(_ text: String) {
        failure.withLock { failure in
            guard failure == nil else { return }
            do throws(OutputError) {
                try StandardOutput.print(TerminalText.text(text))
            } catch {
                failure = error
            }
        }
    }

    /// Writes `text` as it is, Tincan's own escape sequences included (colours, clearing the
    /// screen), unless an earlier write failed: for text whose parts from outside the caller has
    /// already passed through ``TerminalText`` (`serve --show`'s requests, the classroom's table).
    func printControlling(_ text: String) {
        failure.withLock { failure in
            guard failure == nil else { return }
            do throws(OutputError) {
                try StandardOutput.print(text)
            } catch {
                failure = error
            }
        }
    }

    /// The first write that failed, if any.
    var firstFailure: OutputError? { failure.withLock { $0 } }
}

/// Standard error, for messages and progress. A failure to write there is ignored: there is
/// nowhere left to report it, and it must not crash the command (as `FileHandle.write` would)
/// nor change its exit code.
enum StandardError {
    /// Writes `text` now, unbuffered. Messages quote what came from outside (a server's reason, a
    /// certificate's names, an imported item's name), so their control characters are
    /// neutralised (``TerminalText``) whatever the caller did.
    static func print(_ text: String) {
        printControlling(TerminalText.text(text))
    }

    /// Writes `tincan: warning: message` as one line, whatever the message quotes: a name from a
    /// collection can hold a line break, which must not begin a line that reads as Tincan's own.
    static func warn(_ message: String) {
        print("tincan: warning: \(TerminalText.line(message))\n")
    }

    /// Writes `text` as it is: only for Tincan's own escape sequences (the progress line's).
    static func printControlling(_ text: String) {
        _ = AtomicFile.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
}
