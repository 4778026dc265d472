import Foundation

extension StandardInput {
    /// Standard input's lines as they come (`tincan ws`), without their line ends (`\n` or
    /// `\r\n`), a terminal's too: read on a thread of their own, as a blocking read on Swift's
    /// pool would hold up the connection. A last line without a line end is a line.
    ///
    /// - Parameter maximumLineBytes: The longest line; a longer one ends the stream with
    ///   ``CLIFailure/badInput(_:)`` naming its number, so a file without line ends is never held
    ///   whole.
    func lines(maximumLineBytes: Int) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let source = self.source
        let thread = Thread {
            var splitter = LineCutter(maximumLineBytes: maximumLineBytes)
            do {
                switch source {
                case .none: break
                case .bytes(let bytes):
                    for line in try splitter.add(bytes[...]) { continuation.yield(line) }
                case .fileDescriptor(let descriptor):
                    try StandardInput.readChunks(of: descriptor) { chunk in
                        for line in try splitter.add(chunk) { continuation.yield(line) }
                    }
                }
                if let last = splitter.finish() { continuation.yield(last) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.start()
        return stream
    }
}

/// Cuts bytes into lines wherever reads break them, within a bound.
struct LineCutter {
    let maximumLineBytes: Int
    private var pending: [UInt8] = []
    private var number = 0

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// The lines `bytes` completes.
    mutating func add(_ bytes: ArraySlice<UInt8>) throws -> [String] {
        var lines: [String] = []
        var rest = bytes
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            pending += rest[..<newline]
            rest = rest[rest.index(after: newline)...]
            try checkLength()
            if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
            number += 1
            lines.append(String(decoding: pending, as: UTF8.self))
            pending.removeAll(keepingCapacity: true)
        }
        pending += rest
        try checkLength()
        return lines
    }

    /// The last line, when the input did not end with a line end.
    mutating func finish() -> String? {
        guard !pending.isEmpty else { return nil }
        defer { pending = [] }
        return String(decoding: pending, as: UTF8.self)
    }

    private func checkLength() throws {
        guard pending.count > maximumLineBytes else { return }
        throw CLIFailure.badInput("line \(number + 1) of standard input is longer than \(maximumLineBytes) bytes, the largest message (--max-message-size)")
    }
}
