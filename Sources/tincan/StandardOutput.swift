import Foundation

/// A buffered writer to standard output that writes through in large blocks.
struct StandardOutput {
    private var buffer: [UInt8] = []
    private let blockSize = 256 * 1024

    mutating func write(_ text: String) {
        write(Array(text.utf8))
    }

    mutating func write(_ bytes: [UInt8]) {
        buffer += bytes
        if buffer.count >= blockSize { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
