import Foundation
import TincanCore
import TincanDemoServer

/// What `tincan serve --classroom` shows of the room in its terminal: a table of who is on which
/// step, drawn again on every report, or a line per report into a pipe or beside `--show`.
/// Names, lessons and titles came from students' machines: each reaches the terminal through
/// ``TerminalText``.
enum ClassroomTable {
    /// The most characters of a lesson's title shown in a table's cell.
    static let titleWidth = 32

    /// The room as a table: a header, then one line per student (name, lesson, step, steps passed).
    static func text(_ students: [Classroom.Student], address: String) -> String {
        var text = "Classroom: \(students.count) \(students.count == 1 ? "student" : "students")\nStudents join with: tincan learn N --classroom \(address) --name NAME\n\n"
        guard !students.isEmpty else { return text + "(no student has reported yet)\n" }
        let rows = students.map { student in
            [TerminalText.line(student.name), TerminalText.line(cut(student.title ?? student.lesson)),
             student.step.map { "step \($0) of \(student.steps)" } ?? "✓ done", "\(student.passed.count)/\(student.steps) passed"]
        }
        let header = ["Name", "Lesson", "On", "Passed"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            text += zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ").trimmingWhitespaceAndNewlines() + "\n"
        }
        return text
    }

    /// The whole screen: cleared, then the table, and where the room is in a browser.
    static func screen(_ students: [Classroom.Student], address: String) -> String {
        "\u{1B}[H\u{1B}[2J" + text(students, address: address) + "\nIn a browser: \(address)\(Classroom.path) · quit with ctrl+c\n"
    }

    /// One report as a line: `Ada · Cookies · step 3 of 4`.
    static func line(_ student: Classroom.Student) -> String {
        TerminalText.line("classroom: \(student.name) · \(cut(student.title ?? student.lesson)) · " + (student.step.map { "step \($0) of \(student.steps)" } ?? "done")) + "\n"
    }

    private static func cut(_ text: String) -> String {
        text.count <= titleWidth ? text : String(text.prefix(titleWidth - 1)) + "…"
    }
}
