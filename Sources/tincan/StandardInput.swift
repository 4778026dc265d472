import Foundation

/// The process's standard input as `send` reads it for a body: once, whole, within ``limit``.
///
/// Nothing waits on a standard input that cannot give a body: a terminal is not read at all, and
/// `/dev/null` or a closed pipe end at once (what CI gives a step). An open pipe that nobody
/// writes to would wait, as it does for curl and HTTPie; `--ignore-stdin` is for that case.
struct StandardInput: Sendable {
    /// The most bytes read: 64 MiB. The body is held in memory; a larger one is sent from its
    /// file with `--upload FILE`, which streams it from disk.
    static let limit = 64 << 20

    /// Where the bytes come from.
    enum Source: Sendable {
        /// A file descriptor: the process's standard input.
        case fileDescriptor(Int32)
        /// Bytes given as they are (in-process tests, which must not read the test runner's input).
        case bytes([UInt8])
        /// No standard input, as with a terminal.
        case none
    }

    /// The standard input `send` reads; in-process runs replace it.
    @TaskLocal static var current = StandardInput(source: .fileDescriptor(STDIN_FILENO))

    var source: Source

    /// Reads all of it: nil when there is none to read (a terminal, or a closed descriptor).
    ///
    /// - Throws: ``CLIFailure/badInput(_:)`` when it holds more than ``limit`` bytes or cannot be read.
    func read() throws -> [UInt8]? {
        switch source {
        case .none:
            return nil
        case .bytes(let bytes):
            guard bytes.count <= Self.limit else { throw Self.tooLarge }
            return bytes
        case .fileDescriptor(let descriptor):
            guard isatty(descriptor) == 0 else { return nil }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            var bytes: [UInt8] = []
            try Self.readChunks(of: descriptor) { chunk in
                guard bytes.count + chunk.count <= Self.limit else { throw Self.tooLarge }
                bytes.append(contentsOf: chunk)
            }
            return bytes
        }
    }

    /// Reads `descriptor` to its end, handing each chunk to `body` as it comes.
    ///
    /// - Throws: ``CLIFailure/badInput(_:)`` when it cannot be read, or what `body` throws.
    static func readChunks(of descriptor: Int32, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A non-blocking descriptor: wait for bytes (or the end) instead of spinning.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                throw CLIFailure.badInput("standard input cannot be read: \(String(cString: strerror(errno)))")
            }
            try body(chunk[..<count])
        }
    }

    private static var tooLarge: CLIFailure {
        .badInput("standard input holds more than \(limit >> 20) MiB, the most a body read from it may be; send a larger body with --upload FILE, which streams it from disk")
    }
}
