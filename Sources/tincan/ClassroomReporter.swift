import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// Sends a learner's step completions to the teacher's `tincan serve --classroom`, when the
/// learner asked with `tincan learn N --classroom URL --name NAME` (nothing leaves the machine
/// otherwise). A report says only the name given, the lesson's name (a built-in lesson's, or the
/// file's name without its folder), its title, its step count and the steps passed.
struct ClassroomReporter: Sendable {
    /// The teacher's server, as given.
    var url: URLReference
    /// The learner's name, as given.
    var name: String
    /// The lesson reported on: its key in the progress file, and the name and title sent.
    var lessonKey: String
    var lessonName: String
    var title: String?
    /// The most seconds a report may take.
    static let timeout = 5.0

    /// Reads `--classroom` and `--name`.
    ///
    /// - Throws: ``CLIFailure/badInput(_:)`` naming the option: a URL that is not http(s) with a
    ///   host, a name that is empty, too long or holds control characters.
    static func parse(url text: String, name: String) throws(CLIFailure) -> (url: URLReference, name: String) {
        let url = URLReference(parsing: text)
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty else {
            throw .badInput("--classroom: \"\(TerminalText.line(text))\" is not an http:// or https:// address; expected the address the teacher gives, such as http://192.168.1.20:8080")
        }
        let trimmed = name.trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty, trimmed.count <= Classroom.maximumNameLength, !trimmed.unicodeScalars.contains(where: TerminalText.isControl) else {
            throw .badInput("--name: expected 1 to \(Classroom.maximumNameLength) characters, without control characters, as the teacher should see you")
        }
        return (url, trimmed)
    }

    /// The JSON body of a report of `entry`.
    func body(_ entry: LessonProgress.Entry) -> [UInt8] {
        var object: [(String, ParameterValue)] = [("name", .string(name)), ("lesson", .string(lessonName))]
        if let title { object.append(("title", .string(String(title.prefix(Classroom.maximumLessonLength))))) }
        object += [("steps", .integer(Int64(entry.stepCount))), ("passed", .array(entry.passedSteps.sorted().map { .integer(Int64($0 + 1)) }))]
        return JSONWriter.bytes(.dictionary(.init(uniqueKeysWithValues: object)))
    }

    /// Sends `entry`, progress in the lesson of `key`; other lessons' progress is not sent.
    ///
    /// - Returns: Why it was not accepted, or nil.
    func report(_ entry: LessonProgress.Entry, key: String) async -> String? {
        guard key == lessonKey else { return nil }
        var target = URLReference(parsing: Classroom.path + "/progress").resolved(against: url)
        target.query = nil
        var request = HTTPRequest(method: "POST", url: target)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(body(entry))
        request.properties.timeoutInterval = Self.timeout
        do {
            let manager = URLSessionManager(http: try HTTPSessionManager())
            let result = try await manager.send(request)
            try? await manager.invalidate(cancelingTasks: true)
            if let error = result.transportError { return "\(url.string): \(error)" }
            guard let response = result.response else { return "\(url.string): no answer" }
            guard (200..<300).contains(response.statusCode) else {
                return "\(url.string) answered \(response.statusCode): \(String(decoding: result.data.prefix(200), as: UTF8.self).trimmingWhitespaceAndNewlines())"
            }
            return nil
        } catch {
            return "\(url.string): \(error)"
        }
    }
}
