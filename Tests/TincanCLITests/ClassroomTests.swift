import Foundation
import Synchronization
import Testing
import TestSupport
import TincanCore
import TincanDemoServer
import TincanSessions
@testable import tincan

/// A teacher's view of the room (issue 37 §5): students' `tincan learn --classroom` reports to
/// `tincan serve --classroom`, on loopback.
@Suite("A classroom: students report their steps, the teacher sees who is on which")
struct ClassroomTests {
    /// A student's reporter for lesson `lesson` of `steps` steps, to `server`.
    private static func student(_ name: String, lesson: String = "07-cookies", title: String? = "Cookies on and off", on server: DemoServer) throws -> ClassroomReporter {
        let (url, name) = try ClassroomReporter.parse(url: server.baseURL, name: name)
        return ClassroomReporter(url: url, name: name, lessonKey: lesson, lessonName: lesson, title: title)
    }

    /// POSTs `body` as a report and returns the status and the body of the answer.
    private static func post(_ body: String, to server: DemoServer) async throws -> (status: Int?, body: String) {
        var request = HTTPRequest(method: "POST", url: URLReference(parsing: server.baseURL + Classroom.path + "/progress"))
        request.headers.set(name: "Content-Type", value: "application/json")
        request.body = .bytes(Array(body.utf8))
        let manager = URLSessionManager(http: try HTTPSessionManager())
        let result = try await manager.send(request)
        try await manager.invalidate(cancelingTasks: true)
        return (result.response?.statusCode, String(decoding: result.data, as: UTF8.self))
    }

    @Test("several students report at once, and the room shows each on their step, in the order they joined")
    func severalStudents() async throws {
        let changes = Mutex(0)
        let room = Classroom(onChange: { _, _ in changes.withLock { $0 += 1 } })
        let server = try await DemoServer.start(classroom: room)
        let names = ["Ada", "Grace", "Linus", "Margaret", "Ken"]
        // Each joins (nothing passed), then passes as many steps as their place in the list, capped at 3.
        try await withThrowingTaskGroup(of: String?.self) { group in
            for (index, name) in names.enumerated() {
                let reporter = try Self.student(name, on: server)
                group.addTask {
                    var problem = await reporter.report(LessonProgress.Entry(passedSteps: [], stepCount: 3), key: "07-cookies")
                    for step in 0..<min(index, 3) where problem == nil {
                        problem = await reporter.report(LessonProgress.Entry(passedSteps: Set(0...step), stepCount: 3), key: "07-cookies")
                    }
                    return problem
                }
            }
            for try await problem in group { #expect(problem == nil) }
        }
        let students = Dictionary(uniqueKeysWithValues: room.students.map { ($0.name, $0) })
        #expect(Set(students.keys) == Set(names))
        #expect(students["Ada"]?.step == 1)
        #expect(students["Grace"]?.step == 2)
        #expect(students["Linus"]?.step == 3)
        #expect(students["Margaret"]?.isDone == true)
        #expect(students["Ken"]?.isDone == true)
        #expect(students["Margaret"]?.passed == [1, 2, 3])
        // Five joins, then 0 + 1 + 2 + 3 + 3 steps passed.
        let reports = changes.withLock { $0 }
        #expect(reports == 14)

        // The same room as JSON and as a page.
        let json = try JSONParser.parse(bytes: try await send(RequestDraft(method: "GET", url: server.baseURL + "/__classroom/students")).data)
        guard case .dictionary(let top) = json, case .array(let listed)? = top["students"] else { Issue.record("\(json)"); return }
        #expect(listed.count == 5)
        let page = String(decoding: try await send(RequestDraft(method: "GET", url: server.baseURL + "/__classroom")).data, as: UTF8.self)
        #expect(page.contains("<td>Grace</td><td>Cookies on and off</td><td>step 2 of 3</td>"), "\(page)")
        await server.stop()
    }

    @Test("a report only counts the lesson it was opened for; another lesson's progress is not sent")
    func otherLessonsStayPrivate() async throws {
        let room = Classroom()
        let server = try await DemoServer.start(classroom: room)
        let reporter = try Self.student("Ada", on: server)
        #expect(await reporter.report(LessonProgress.Entry(passedSteps: [0], stepCount: 3), key: "/home/ada/private/other.tincan.yaml") == nil)
        #expect(room.students.isEmpty)
        await server.stop()
    }

    @Test("reports are outside input: sizes, counts, steps and control characters are bounded, and each refusal says why")
    func boundsReports() async throws {
        let room = Classroom()
        let server = try await DemoServer.start(classroom: room)
        let long = String(repeating: "n", count: Classroom.maximumNameLength + 1)
        for (body, status, reason) in [
            (#"{"name": "\#(long)", "lesson": "l", "steps": 2, "passed": []}"#, 400, "name: expected 1 to 40 characters"),
            (#"{"name": "Ada\u001b[2J", "lesson": "l", "steps": 2, "passed": []}"#, 400, "name: control characters are not allowed"),
            (#"{"name": "", "lesson": "l", "steps": 2, "passed": []}"#, 400, "name: expected 1 to 40 characters"),
            (#"{"name": "Ada", "lesson": "l", "steps": 0, "passed": []}"#, 400, "steps: expected a whole number from 1 to 200"),
            (#"{"name": "Ada", "lesson": "l", "steps": 2, "passed": [3]}"#, 400, "passed: each step number is from 1 to 2"),
            (#"{"name": "Ada", "lesson": "l", "steps": 2, "passed": [1, 2, 1]}"#, 400, "passed: expected a list of at most 2"),
            (#"["Ada"]"#, 400, "expected a JSON object"),
            ("not json", 400, "the report is not JSON"),
            (#"{"name": "Ada", "lesson": "l", "steps": 2, "passed": [], "pad": "\#(String(repeating: "x", count: Classroom.maximumReportBytes))"}"#, 413, "at most 4096 bytes"),
        ] {
            let answer = try await Self.post(body, to: server)
            #expect(answer.status == status, "\(body.prefix(80)): \(answer.body)")
            #expect(answer.body.contains(reason), "\(body.prefix(80)): \(answer.body)")
        }
        #expect(room.students.isEmpty, "nothing refused is kept")
        await server.stop()
    }

    @Test("a full room refuses new names with 429 and still takes reports from those in it")
    func fullRoom() throws {
        let room = Classroom()
        func report(_ name: String) throws(Classroom.Refusal) {
            try room.record(report: Array(#"{"name": "\#(name)", "lesson": "l", "steps": 2, "passed": [1]}"#.utf8))
        }
        for index in 0..<Classroom.maximumStudents { try report("student \(index)") }
        #expect(throws: Classroom.Refusal(reason: "the classroom is full: it follows at most \(Classroom.maximumStudents) students", isFull: true)) { try report("one more") }
        try report("student 0")
        #expect(room.students.count == Classroom.maximumStudents)
    }

    @Test("the teacher's table lines up names, lessons and steps, and shows what came from students through TerminalText")
    func table() {
        let now = Date(timeIntervalSince1970: 0)
        let students = [
            Classroom.Student(name: "Ada", lesson: "07-cookies", title: "Cookies on and off", steps: 3, passed: [1], updated: now),
            Classroom.Student(name: "Grace\u{1B}[2J", lesson: "12-certificate-pinning", title: nil, steps: 3, passed: [1, 2, 3], updated: now),
        ]
        let text = ClassroomTable.text(students, address: "http://192.168.1.20:8080")
        #expect(text == """
            Classroom: 2 students
            Students join with: tincan learn N --classroom http://192.168.1.20:8080 --name NAME

            Name       Lesson                  On           Passed
            Ada        Cookies on and off      step 2 of 3  1/3 passed
            Grace·[2J  12-certificate-pinning  ✓ done       3/3 passed

            """, "\(text)")
        #expect(ClassroomTable.line(students[1]) == "classroom: Grace·[2J · 12-certificate-pinning · done\n")
        #expect(ClassroomTable.text([], address: "http://x").contains("(no student has reported yet)"))
    }

    @Test("--classroom and --name are read with a clear error for each mistake")
    func studentOptions() async throws {
        #expect(throws: CLIFailure.self) { try ClassroomReporter.parse(url: "ftp://teacher", name: "Ada") }
        #expect(throws: CLIFailure.self) { try ClassroomReporter.parse(url: "192.168.1.20:8080", name: "Ada") }
        #expect(throws: CLIFailure.self) { try ClassroomReporter.parse(url: "http://teacher", name: "  ") }
        #expect(throws: CLIFailure.self) { try ClassroomReporter.parse(url: "http://teacher", name: "Ada\u{7}") }
        #expect(try ClassroomReporter.parse(url: "http://teacher:8080", name: " Ada ").name == "Ada")
        let noName = await ending(of: ["learn", "1", "--classroom", "http://127.0.0.1:8080"])
        #expect(noName.status == 2)
        #expect(noName.standardError?.contains("--classroom needs --name NAME") == true, "\(String(describing: noName.standardError))")
        let withCheck = await ending(of: ["learn", "--check", "a", "b", "--classroom", "http://127.0.0.1:8080", "--name", "Ada"])
        #expect(withCheck.standardError?.contains("--classroom reports the lesson you open") == true, "\(String(describing: withCheck.standardError))")
    }

    @Test("a student whose teacher's address does not answer is told before the lesson opens, exit 4")
    func unreachableTeacher() async throws {
        let state = try TemporaryDirectory()
        let port = try Tinyproxy.freePort()
        let result = try await learn(["1", "--classroom", "http://127.0.0.1:\(port)", "--name", "Ada"], state: state.path, in: state.path)
        #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("error: --classroom: http://127.0.0.1:\(port)"), "\(result.stderr)")
    }

    @Test("serve --show --color always writes its colours as escape sequences, not neutralised like the text from outside", .timeLimit(.minutes(1)))
    func showColoursFromTheBinary() async throws {
        let directory = try TemporaryDirectory()
        let output = directory.path + "/serve.out"
        let port = try Tinyproxy.freePort()
        let pid = try spawnDaemon(BuiltProducts.tincan, ["serve", "--port", String(port), "--show", "--color", "always"], output: output)
        defer { stopDaemon(pid) }
        #expect(await waitUntilAccepting(port: port))
        var draft = RequestDraft(method: "GET", url: "http://127.0.0.1:\(port)/get?token=t0ken")
        draft.items = [try RequestItem.parse("Authorization:Bearer s3cret")]
        _ = try await send(draft)
        let text = await TestSupport.output(of: output, until: " 200 ")
        #expect(text.contains("\u{1B}[36m── #1 from"), "\(text)")
        #expect(text.contains("\u{1B}[1mGET /get?token=\(Redaction.mask) HTTP/1.1\u{1B}[0m"), "\(text)")
        #expect(text.contains("GET /get?token=\(Redaction.mask) 200 "), "the log line hides the query's secret too: \(text)")
        #expect(!text.contains("t0ken"), "\(text)")
        #expect(!text.contains("·[36m"), "\(text)")
        #expect(!text.contains("s3cret"), "\(text)")
        #expect(text.contains("Bearer \(Redaction.mask)"), "\(text)")
    }

    @Test("serve --classroom prints a line per report into a pipe, after the address students join with", .timeLimit(.minutes(1)))
    func serveFromTheBinary() async throws {
        let directory = try TemporaryDirectory()
        let output = directory.path + "/serve.out"
        let port = try Tinyproxy.freePort()
        let pid = try spawnDaemon(BuiltProducts.tincan, ["serve", "--port", String(port), "--classroom"], output: output)
        defer { stopDaemon(pid) }
        #expect(await waitUntilAccepting(port: port))
        let (url, _) = try ClassroomReporter.parse(url: "http://127.0.0.1:\(port)", name: "Ada")
        for name in ["Ada", "Grace"] {
            let reporter = ClassroomReporter(url: url, name: name, lessonKey: "01-base-url", lessonName: "01-base-url", title: "The base URL")
            #expect(await reporter.report(LessonProgress.Entry(passedSteps: [0], stepCount: 2), key: "01-base-url") == nil)
        }
        let text = await TestSupport.output(of: output, until: "classroom: Grace")
        #expect(text.contains("classroom: students join with: tincan learn N --classroom http://127.0.0.1:\(port) --name NAME"), "\(text)")
        #expect(text.contains("classroom: Ada · The base URL · step 2 of 2\n"), "\(text)")
        #expect(text.contains("classroom: Grace · The base URL · step 2 of 2\n"), "\(text)")
    }
}
