import Foundation
import TerminalUI

/// Golden-file snapshots of a rendered screen: the text of every row, then the style runs.
///
/// A missing golden file is recorded and the check fails, so that a person reviews it before it
/// is committed. Set `TINCAN_RECORD_SNAPSHOTS=1` to re-record every snapshot after an intended
/// change of the screen (then review the diff in git).
public enum Snapshot {
    /// The text form of a buffer: rows between bars (so trailing spaces show), then style runs.
    public static func text(_ buffer: ScreenBuffer) -> String {
        var out = "\(buffer.width)x\(buffer.height)\n"
        for line in buffer.lines { out += "|" + line + "\n" }
        out += "--- styles (row: columns style) ---\n"
        for row in 0..<buffer.height {
            let runs = buffer.styleRuns(inRow: row).map { "\($0.start)-\($0.start + $0.length - 1) \(describe($0.style))" }
            out += "\(row): " + runs.joined(separator: "; ") + "\n"
        }
        if let cursor = buffer.cursor { out += "cursor: \(cursor.x),\(cursor.y)\n" }
        return out
    }

    /// A compact style description: `fg=#61afef bg=default +bold+underline`.
    public static func describe(_ style: Style) -> String {
        func color(_ color: Color) -> String {
            switch color {
            case .default: "default"
            case let .indexed(index): "\(index)"
            case let .rgb(r, g, b): String(format: "#%02x%02x%02x", r, g, b)
            }
        }
        var text = "fg=\(color(style.foreground)) bg=\(color(style.background))"
        for (name, attribute) in TextAttributes.names.sorted(by: { $0.key < $1.key }) where style.attributes.contains(attribute) {
            text += " +\(name)"
        }
        return text
    }

    /// Compares a buffer with `Snapshots/NAME.txt` beside the calling test file.
    ///
    /// - Returns: nil when it matches; otherwise what differs (or that it was recorded).
    public static func verify(_ buffer: ScreenBuffer, named name: String, testFile: String = #filePath) -> String? {
        let directory = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Snapshots")
        let url = directory.appendingPathComponent(name + ".txt")
        let actual = text(buffer)
        let record = ProcessInfo.processInfo.environment["TINCAN_RECORD_SNAPSHOTS"] == "1"
        guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return "recorded a new snapshot at \(url.path); review it and run the test again"
        }
        guard expected != actual else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var report = "snapshot \(name) differs from \(url.path):\n"
        var shown = 0
        for index in 0..<max(expectedLines.count, actualLines.count) where shown < 8 {
            let old = index < expectedLines.count ? String(expectedLines[index]) : "<none>"
            let new = index < actualLines.count ? String(actualLines[index]) : "<none>"
            if old != new {
                report += "line \(index + 1):\n  expected: \(old)\n  actual:   \(new)\n"
                shown += 1
            }
        }
        return report
    }
}
