import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TincanCore

/// The routes of `tincan serve --classroom` (``Classroom``): `POST /__classroom/progress` takes a
/// student's report, `GET /__classroom/students` gives the room as JSON, and `GET /__classroom`
/// as an HTML page that refreshes itself, for a browser or a projector.
enum ClassroomRoutes {
    /// The routes' common path.
    static let path = Classroom.path

    static func register(on router: Router<DemoRoutes.Context>, classroom: Classroom) {
        router.post("\(path)/progress") { request, _ in
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: Classroom.maximumReportBytes)
            } catch {
                throw HTTPError(.contentTooLarge, message: "a report holds at most \(Classroom.maximumReportBytes) bytes")
            }
            let outcome = Result { () throws(Classroom.Refusal) in try classroom.record(report: Array(body.readableBytesView)) }
            switch outcome {
            case .success(let student): return DemoRoutes.json(student.json)
            case .failure(let refusal): throw HTTPError(refusal.isFull ? .tooManyRequests : .badRequest, message: refusal.reason)
            }
        }
        router.getAndHead("\(path)/students") { _, _ in DemoRoutes.json(classroom.json) }
        router.getAndHead("\(path)") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: html(classroom.students))))
        }
    }

    /// The room as an HTML table, refreshed every five seconds.
    static func html(_ students: [Classroom.Student]) -> String {
        var rows = ""
        for student in students {
            let step = student.step.map { "step \($0) of \(student.steps)" } ?? "done"
            rows += "<tr><td>\(escaped(student.name))</td><td>\(escaped(student.title ?? student.lesson))</td><td>\(step)</td>"
                + "<td>\(student.passed.count)/\(student.steps)</td></tr>\n"
        }
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Classroom</title>
            <style>body{font-family:sans-serif}td,th{padding:.2em 1em;text-align:left}</style></head>
            <body><h1>Classroom: \(students.count) \(students.count == 1 ? "student" : "students")</h1>
            <table><tr><th>Name</th><th>Lesson</th><th>On</th><th>Passed</th></tr>
            \(rows)</table></body></html>

            """
    }

    /// Text with HTML's markup characters escaped, so a name reads as written.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
