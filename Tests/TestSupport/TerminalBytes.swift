/// What in a terminal's output it would obey rather than show, for the tests that check that
/// nothing from outside reaches a terminal raw.
public enum TerminalBytes {
    /// Tincan's own escape sequence: the progress line's carriage return and erase-line.
    public static let progressLine: [UInt8] = [0x0D, 0x1B, 0x5B, 0x4B]

    /// The control sequences in `bytes` (UTF-8): C0 controls but tab and line feed (a carriage
    /// return before a line feed aside), DEL, C1 controls, bidi overrides and isolates, each as
    /// the hex of its bytes and a little context, after Tincan's own `progressLine` sequences
    /// are taken out.
    public static func controls(in bytes: [UInt8]) -> [String] {
        var cleaned: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: progressLine) {
                index += progressLine.count
                continue
            }
            cleaned.append(bytes[index])
            index += 1
        }
        var found: [String] = []
        index = 0
        func note(_ length: Int) {
            let context = String(decoding: cleaned[max(0, index - 20)..<min(cleaned.count, index + length + 20)], as: UTF8.self)
            found.append(cleaned[index..<index + length].map { String($0, radix: 16) }.joined(separator: " ") + " in \(context.debugDescription)")
        }
        while index < cleaned.count {
            let byte = cleaned[index]
            var length = 0
            switch byte {
            case 0x09, 0x0A: break
            case 0x0D: if index + 1 >= cleaned.count || cleaned[index + 1] != 0x0A { length = 1 }
            case 0x00..<0x20, 0x7F: length = 1
            case 0xC2: if index + 1 < cleaned.count, (0x80...0x9F).contains(cleaned[index + 1]) { length = 2 }
            case 0xE2:
                if index + 2 < cleaned.count {
                    let second = cleaned[index + 1], third = cleaned[index + 2]
                    if (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third)) { length = 3 }
                }
            default: break
            }
            if length > 0 {
                note(length)
                index += length
            } else {
                index += 1
            }
        }
        return found
    }
}
