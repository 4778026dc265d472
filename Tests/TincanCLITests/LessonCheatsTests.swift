import Foundation
import TestSupport
import Testing

/// One edit of a shipped solution (issue 37 §1): a cheat, which must fail `tincan learn --check`,
/// or a right answer written another way, which must pass.
struct SolutionEdit: Sendable, CustomStringConvertible {
    /// The lesson's file name without `.tincan.yaml`.
    var lesson: String
    /// What the edit does, in words.
    var says: String
    /// Text of the solution and what replaces it; each must occur exactly `count` times.
    var replacements: [(old: String, new: String, count: Int)]

    init(_ lesson: String, _ says: String, _ replacements: (String, String)..., count: Int = 1) {
        self.lesson = lesson
        self.says = says
        self.replacements = replacements.map { ($0.0, $0.1, count) }
    }

    var description: String { "\(lesson): \(says)" }

    /// The solution with the edit made; nil when a replaced text is not there as often as expected
    /// (the solution changed, so the edit must be looked at again).
    func applied(to solution: String) -> String? {
        var text = solution
        for replacement in replacements {
            guard text.components(separatedBy: replacement.old).count - 1 == replacement.count else { return nil }
            text = text.replacingOccurrences(of: replacement.old, with: replacement.new)
        }
        return text
    }
}

@Suite("Lesson goals judge the idea: cheats fail, right answers written another way pass")
struct LessonCheatsTests {
    /// Each is a shipped solution with one edit that keeps the look of the answer and loses its idea.
    static let cheats: [SolutionEdit] = [
        SolutionEdit("01-base-url", "going up with a leading slash, which starts again at the host", ("    url: ../users\n", "    url: /users\n")),
        SolutionEdit("02-where-parameters-go", "dry-run sent in the body with the other parameters", ("    query:\n      dry-run: \"1\"\n    params:\n      name: Ada\n", "    params:\n      name: Ada\n      dry-run: \"1\"\n")),
        SolutionEdit("03-nested-parameters", "the query written by hand, unsorted", ("    url: get\n    params:\n      q: fish & chips\n      page: 2\n", "    url: get?q=fish%20%26%20chips&page=2\n")),
        SolutionEdit("04-request-serializers", "a JSON body labelled as a property list", ("    serializer: plist\n", "    serializer: json\n    headers:\n      Content-Type: application/x-plist\n")),
        SolutionEdit("05-timeouts", "the echo route /anything/delay/3, which answers at once", ("    url: delay/3\n", "    url: anything/delay/3\n")),
        SolutionEdit("06-cache-revalidation", "a cache policy that answers from the cache without asking the server", ("cache-policy: reloadRevalidatingCacheData\n", "cache-policy: useProtocolCachePolicy\n")),
        SolutionEdit("07-cookies", "step 2 sent to a route that shows no cookies", ("  - name: without\n    method: GET\n    url: cookies\n", "  - name: without\n    method: GET\n    url: anything\n")),
        SolutionEdit("08-response-serializers", "the http serializer everywhere",
                     ("defaults:\n  response:\n    serializer: json\n", "defaults:\n  response:\n    serializer: http\n"),
                     ("      serializer: xml\n", "      serializer: http\n"),
                     ("      accept-type: [application/json, application/x-ndjson]\n", "      serializer: http\n"),
                     ("      serializer: compound\n", "      serializer: http\n")),
        SolutionEdit("09-validation-errors", "the http serializer, which decodes nothing, for the body decoded after a bad status", ("      accept-status: \"200\"\n", "      accept-status: \"200\"\n      serializer: http\n")),
        SolutionEdit("10-task-progress", "an upload throttled so little that it is not slow", ("      rate: 4k\n", "      rate: 1G\n")),
        SolutionEdit("11-resuming-downloads", "a range asked for without If-Range", ("      Range: bytes=10-\n      If-Range: \"{{etag}}\"\n", "      Range: bytes=10-\n")),
        SolutionEdit("12-certificate-pinning", "verification turned off instead of a pin", ("    pins: [\"{{server-cert}}\"]\n", "    insecure: true\n")),
        SolutionEdit("12-certificate-pinning", "the certificate trusted as a CA file instead of pinned", ("    pins: [\"{{server-cert}}\"]\n", "    ca-file: \"{{server-cert}}\"\n")),
        SolutionEdit("13-redirects", "a 302 instead of the 303, which also turns the POST into a GET", ("      status_code: \"303\"\n", "      status_code: \"302\"\n")),
        SolutionEdit("14-authentication", "Basic credentials where the server asks for Digest", ("      type: digest\n", "")),
        SolutionEdit("15-oauth2", "a Bearer header written by hand instead of the grant", ("    auth:\n      type: oauth2\n      grant: client-credentials\n      token-url: \"{{server}}/oauth/token\"\n      client-id: tincan-demo\n      client-secret: \"{{client-secret}}\"\n",
                                                                                            "    headers:\n      Authorization: Bearer at-made-up\n")),
        SolutionEdit("15-oauth2", "step 3 as shipped: the challenge sent where the verifier belongs", ("      code_verifier: \"{{verifier}}\"\n", "      code_verifier: \"{{challenge}}\"\n")),
        SolutionEdit("15-oauth2", "step 4 as shipped: the token without its scheme", ("      Authorization: \"Bearer {{token}}\"\n", "      Authorization: \"{{token}}\"\n")),
        SolutionEdit("15-oauth2", "the plain method, the verifier itself as the challenge", ("      code_challenge: \"{{challenge}}\"\n      code_challenge_method: S256\n", "      code_challenge: \"{{verifier}}\"\n      code_challenge_method: plain\n")),
    ]

    /// Each is a shipped solution written another way that means the same.
    static let variants: [SolutionEdit] = [
        SolutionEdit("01-base-url", "./users, the same relative path", ("    url: users\n", "    url: ./users\n")),
        SolutionEdit("02-where-parameters-go", "the page as text", ("      page: 2\n", "      page: \"2\"\n")),
        SolutionEdit("03-nested-parameters", "the parameters in another order, which the serializer sorts", ("      q: fish & chips\n      page: 2\n", "      page: 2\n      q: fish & chips\n")),
        SolutionEdit("04-request-serializers", "the property list's keys in another order", ("        name: Ada Lovelace\n      admin: true\n  - name: multipart", "        name: Ada Lovelace\n  - name: multipart"), ("    serializer: plist\n    params:\n", "    serializer: plist\n    params:\n      admin: true\n")),
        SolutionEdit("05-timeouts", "the drip's delay left out, the server's default being 0", ("      delay: \"0\"\n", ""), count: 2),
        SolutionEdit("05-timeouts", "the drip's delay written 0.0", ("      delay: \"0\"\n", "      delay: \"0.0\"\n"), count: 2),
        SolutionEdit("06-cache-revalidation", "If-None-Match written in lower case", ("      X-Step: \"2\"\n      If-None-Match:", "      X-Step: \"2\"\n      if-none-match:")),
        SolutionEdit("07-cookies", "step 3 to /cookies, an absolute path", ("  - name: again\n    method: GET\n    url: cookies\n", "  - name: again\n    method: GET\n    url: /cookies\n")),
        SolutionEdit("08-response-serializers", "the acceptable types in another order, and the image serializer for the PNG",
                     ("[application/json, application/x-ndjson]", "[application/x-ndjson, application/json]"), ("      serializer: compound\n", "      serializer: image\n")),
        SolutionEdit("09-validation-errors", "the acceptable statuses in another order", ("      accept-status: 200-299,404\n", "      accept-status: \"404,200-299\"\n")),
        SolutionEdit("10-task-progress", "a longer drip", ("      duration: \"2\"\n", "      duration: \"2.5\"\n")),
        SolutionEdit("11-resuming-downloads", "the rest as bytes=10-25, the same 16 bytes of 26", ("      Range: bytes=10-\n      If-Range: \"{{etag}}\"\n", "      Range: bytes=10-25\n      If-Range: \"{{etag}}\"\n")),
        SolutionEdit("11-resuming-downloads", "the rest as bytes=-16, the last 16 bytes", ("      Range: bytes=10-\n      If-Range: \"{{etag}}\"\n", "      Range: bytes=-16\n      If-Range: \"{{etag}}\"\n")),
        SolutionEdit("12-certificate-pinning", "the certificate's public key pinned", ("    pins: [\"{{server-cert}}\"]\n", "    pins: [\"{{server-cert}}\"]\n    pin-mode: public-key\n")),
        SolutionEdit("13-redirects", "max-redirects left at its default", ("    max-redirects: 3\n", "")),
        SolutionEdit("14-authentication", "Basic named as the type", ("    auth:\n      user: \"{{user}}\"", "    auth:\n      type: basic\n      user: \"{{user}}\"")),
        SolutionEdit("15-oauth2", "client authentication in the form, and the scheme written in lower case",
                     ("      client-secret: \"{{client-secret}}\"\n", "      client-secret: \"{{client-secret}}\"\n      client-auth: body\n"),
                     ("      Authorization: \"Bearer {{token}}\"\n", "      Authorization: \"bearer {{token}}\"\n")),
    ]

    /// Writes each edit of its lesson's solution to `folder`/edits (with the lessons' files
    /// beside), and returns the paths by edit.
    private static func write(_ edits: [SolutionEdit], kind: String, in folder: TemporaryDirectory) throws -> [(edit: SolutionEdit, path: String)] {
        let lessons = (examplesDirectory as NSString).appendingPathComponent("lessons")
        let files = folder.path + "/files"
        if !FileManager.default.fileExists(atPath: files) {
            try FileManager.default.copyItem(atPath: lessons + "/files", toPath: files)
            try FileManager.default.createDirectory(atPath: folder.path + "/edits", withIntermediateDirectories: true)
        }
        return try edits.enumerated().map { index, edit in
            let solution = try String(contentsOfFile: "\(lessons)/solutions/\(edit.lesson).tincan.yaml", encoding: .utf8)
            let text = try #require(edit.applied(to: solution), "\(edit): the text to replace is not in the solution as expected")
            return (edit, try folder.write("edits/\(edit.lesson).\(kind)-\(index).tincan.yaml", Array(text.utf8)))
        }
    }

    @Test("every lesson has at least one cheat and one right answer written another way")
    func everyLessonIsCovered() throws {
        let lessons = try FileManager.default.contentsOfDirectory(atPath: (examplesDirectory as NSString).appendingPathComponent("lessons"))
            .filter { $0.hasSuffix(".tincan.yaml") }.map { String($0.dropLast(".tincan.yaml".count)) }
        #expect(!lessons.isEmpty)
        for lesson in lessons {
            #expect(Self.cheats.contains { $0.lesson == lesson }, "no cheat for \(lesson)")
            #expect(Self.variants.contains { $0.lesson == lesson }, "no variant for \(lesson)")
        }
    }

    /// Checks every edit in one `tincan learn --check` run, and expects each file's line to say
    /// `ok` (variants) or `FAIL` (cheats).
    private static func check(_ edits: [SolutionEdit], pass: Bool) async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        let written = try write(edits, kind: pass ? "variant" : "cheat", in: folder)
        let result = try await learn(["--check"] + written.map(\.path), state: state.path)
        #expect(result.status == (pass ? 0 : 3), "\(result.stdout)\(result.stderr)")
        for (edit, path) in written {
            #expect(result.stdout.contains("\(pass ? "ok   " : "FAIL ") \(path):"), "\(edit) \(pass ? "failed" : "passed"):\n\(result.stdout)\(result.stderr)")
        }
    }

    @Test("each cheat fails tincan learn --check")
    func cheatsFail() async throws {
        try await Self.check(Self.cheats, pass: false)
    }

    @Test("each right answer written another way passes tincan learn --check")
    func variantsPass() async throws {
        try await Self.check(Self.variants, pass: true)
    }

    @Test("a saved copy of a built-in lesson whose goals were edited fails --check, naming the step")
    func editedGoalsFail() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        let lessons = (examplesDirectory as NSString).appendingPathComponent("lessons")
        let solution = try String(contentsOfFile: lessons + "/solutions/13-redirects.tincan.yaml", encoding: .utf8)
        // The learner's easier goal: any redirect will do.
        let edited = try #require(SolutionEdit("13-redirects", "the 303 goal asks for a 302", ("                equals: 303\n", "                equals: 302\n"), ("      status_code: \"303\"\n", "      status_code: \"302\"\n")).applied(to: solution))
        let path = try folder.write("13-redirects.tincan.yaml", Array(edited.utf8))
        let result = try await learn(["--check", path], state: state.path)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL  \(path): its goals are not built-in lesson 13-redirects's"), "\(result.stdout)")
        #expect(result.stderr.contains("its goals differ from built-in lesson 13-redirects's (step 3's goals)"), "\(result.stderr)")
        // The same file under another name is still known by its title.
        let renamed = try folder.write("my-redirects.tincan.yaml", Array(edited.utf8))
        let byTitle = try await learn(["--check", renamed], state: state.path)
        #expect(byTitle.stderr.contains("its goals differ from built-in lesson 13-redirects's"), "\(byTitle.stderr)")
    }
}
