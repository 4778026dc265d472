import Testing
@testable import TincanCore

/// The explain view's text, rule by rule: each test would fail if the rule it names were
/// explained wrongly or not at all.
@Suite("Request and response explanations")
struct ExplanationTests {
    private func texts(_ draft: RequestDraft, _ topic: Explanation.Topic, sessionHeaders: Set<String> = []) throws -> [String] {
        let explanation = try draft.explain(settings: RequestSettings(environment: [:]), boundary: "b", sessionHeaders: sessionHeaders)
        return try #require(explanation.step(topic)).lines.map(\.text)
    }

    @Test func aBaseWithoutATrailingSlashGetsOneAndRelativePathsGoBelowIt() throws {
        var draft = RequestDraft(method: "GET", url: "users", baseURL: "http://127.0.0.1/v1")
        draft.items = [.query(name: "q", value: "a b")]
        let lines = try texts(draft, .url)
        #expect(lines[0] == "The base `http://127.0.0.1/v1` has no trailing slash; the session manager adds one: `http://127.0.0.1/v1/`, so relative paths go below `/v1`, not beside it.")
        #expect(lines.contains("`users` is relative: it goes after the base's last `/`, keeping `/v1/`."))
        #expect(lines.contains { $0.contains("`q=a%20b`") })
        #expect(lines.last == "Resolved: `http://127.0.0.1/v1/users?q=a%20b`")
    }

    @Test func aLeadingSlashReplacesTheBasePathAndSaysHowToKeepIt() throws {
        let lines = try texts(RequestDraft(method: "GET", url: "/users", baseURL: "http://127.0.0.1/v1/"), .url)
        #expect(lines.contains("`/users` starts with `/`: it replaces the whole path and keeps only `http://127.0.0.1`; the base's path `/v1/` is dropped."))
        #expect(lines.contains("To stay under `/v1/`, write it without the leading slash: `users`."))
        #expect(lines.last == "Resolved: `http://127.0.0.1/users`")
    }

    @Test func anAbsoluteURLIgnoresTheBaseAndDotSegmentsAreNamed() throws {
        #expect(try texts(RequestDraft(method: "GET", url: "http://other/x", baseURL: "http://127.0.0.1/v1/"), .url)
            .contains("`http://other/x` has a scheme, so it is absolute: the base is not used at all."))
        #expect(try texts(RequestDraft(method: "GET", url: "../up", baseURL: "http://127.0.0.1/v1/a/"), .url)
            .contains("Its `.` and `..` segments are removed (RFC 3986 section 5.2.4)."))
        #expect(try texts(RequestDraft(method: "GET", url: ":8080/x"), .url)[0] == "There is no base URL; `:8080/x` is shorthand for `http://localhost:8080/x`.")
    }

    @Test func getPutsParametersInTheQueryAndPostInTheSerializersBody() throws {
        var draft = RequestDraft(method: "GET", url: "http://127.0.0.1/")
        draft.parameters = ["a": "1", "b": ["c": "2"]]
        draft.serializer = .json
        let get = try texts(draft, .parameters)
        #expect(get[0] == "GET is in methodsEncodingParametersInURI (DELETE, GET, HEAD): the 2 parameters go into the query string, whatever the serializer.")
        #expect(try texts(draft, .contentType) == ["No body, so no serializer set a Content-Type."])
        draft.method = "POST"
        #expect(try texts(draft, .parameters)[0] == "POST is not in methodsEncodingParametersInURI (DELETE, GET, HEAD): the 2 parameters go into the body, encoded by the json serializer.")
        #expect(try texts(draft, .contentType) == ["`Content-Type: application/json`: the JSON serializer's type (AFJSONRequestSerializer), set because the request had none."])
        draft.items = [.header(name: "Content-Type", value: "application/vnd.api+json")]
        #expect(try texts(draft, .contentType) == ["You set `Content-Type: application/vnd.api+json`; a serializer sets it only when the request has none, so yours is kept."])
    }

    @Test("parameters are counted as the tree shows them; a form or query says how many fields its flattening makes")
    func parametersAreCountedAsTheTreeShowsThem() throws {
        // The tree shows {4}: a, tags (two items), user (two members), z; flattened, six fields.
        var draft = RequestDraft(method: "GET", url: "http://127.0.0.1/")
        draft.parameters = ["a": "1", "tags": ["x", "y"], "user": ["name": "Ann", "age": 3], "z": true]
        #expect(try texts(draft, .parameters)[0] == "GET is in methodsEncodingParametersInURI (DELETE, GET, HEAD): the 4 parameters (6 fields once nested names are flattened) go into the query string, whatever the serializer.")
        draft.method = "POST"
        #expect(try texts(draft, .parameters)[0] == "POST is not in methodsEncodingParametersInURI (DELETE, GET, HEAD): the 4 parameters (6 fields once nested names are flattened) go into the body, encoded by the form serializer.")
        draft.serializer = .json
        #expect(try texts(draft, .parameters)[0] == "POST is not in methodsEncodingParametersInURI (DELETE, GET, HEAD): the 4 parameters go into the body, encoded by the json serializer.")
        draft.parameters = ["only": "one"]
        #expect(try texts(draft, .parameters)[0] == "POST is not in methodsEncodingParametersInURI (DELETE, GET, HEAD): the 1 parameter goes into the body, encoded by the json serializer.")
    }

    @Test func multipartAlwaysSetsItsOwnContentTypeWithTheBoundary() throws {
        var draft = RequestDraft(method: "POST", url: "http://127.0.0.1/")
        draft.serializer = .multipart
        draft.parameters = ["name": "x"]
        #expect(try texts(draft, .contentType)[0].hasPrefix("Multipart always sets `Content-Type: multipart/form-data; boundary=b`"))
        #expect(try texts(draft, .parameters).contains("Multipart ignores methodsEncodingParametersInURI: the parameters always go into the body."))
    }

    @Test func aMultipartTypeTypedWithoutABoundaryIsSaidToGetTheFormsBoundary() throws {
        var draft = RequestDraft(method: "POST", url: "http://127.0.0.1/")
        draft.serializer = .multipart
        draft.parameters = ["name": "x"]
        draft.items = [.header(name: "Content-Type", value: "multipart/form-data")]
        #expect(try texts(draft, .contentType)[0] == "You set `Content-Type: multipart/form-data`; the form adds its boundary, which separates the parts: `Content-Type: multipart/form-data; boundary=b`.")
    }

    @Test func nestedKeysShowTheirBracketsAndTheCharactersEscaped() throws {
        var draft = RequestDraft(method: "GET", url: "http://127.0.0.1/")
        draft.parameters = ["user": ["name": "Zoë", "roles": ["admin"]], "flag": .null]
        let lines = try texts(draft, .encoding)
        #expect(lines.contains("`flag` (null) → `flag`"))
        #expect(lines.contains("`user[name]` = `Zoë` → `user%5Bname%5D=Zo%C3%AB`  ([name] object key)"))
        #expect(lines.contains("escaped: `[`→`%5B` `]`→`%5D` `ë`→`%C3%AB`"))
        #expect(lines.contains("`user[roles][]` = `admin` → `user%5Broles%5D%5B%5D=admin`  ([roles] object key, [] array element)"))
    }

    @Test func headersSayWhetherTheyAreDefaultsOverridesSessionDefaultsOrFromTheSerializer() throws {
        var draft = RequestDraft(method: "POST", url: "http://ada:pw@127.0.0.1/")
        draft.parameters = ["a": "1"]
        draft.items = [.header(name: "Accept", value: "application/json"), .header(name: "X-Team", value: "core"), .removeHeader(name: "Accept-Language")]
        let lines = try texts(draft, .headers, sessionHeaders: ["x-team"])
        #expect(lines.contains("`User-Agent`  default"))
        #expect(lines.contains("`Accept`  yours, overriding the default `*/*`"))
        #expect(lines.contains("`X-Team`  session default"))
        #expect(lines.contains("`Authorization`  from the Basic credentials"))
        #expect(lines.contains("`Content-Type`  added by the form serializer"))
        #expect(lines.contains { $0.hasPrefix("`Accept-Language` removed by you (the default was") })
        #expect(lines.last == "The transport adds `Host` and `Content-Length` on the wire.")
    }

    @Test func observedPropertiesSayWhichApplyAndWhichAreLeftToTheSession() throws {
        var draft = RequestDraft(method: "GET", url: "http://127.0.0.1/")
        draft.observed.timeoutInterval = 5
        let lines = try texts(draft, .properties)
        #expect(lines.contains("`timeoutInterval` = `5 s`: set, so copied onto this request"))
        #expect(lines.contains("`cachePolicy` not set: left to the session (`useProtocolCachePolicy`)"))
        #expect(lines.contains("`networkServiceType` not set: left to the session (`default`); recorded only, Linux has no such setting"))
    }

    @Test("a session's cookie file is said under httpShouldHandleCookies, and that a request with cookies off does not use it")
    func cookieFileIsExplained() throws {
        var draft = RequestDraft(method: "GET", url: "http://127.0.0.1/")
        let settings = RequestSettings(environment: [:])
        let without = try #require(try draft.explain(settings: settings).step(.properties)).lines.map(\.text)
        #expect(!without.contains { $0.contains("Cookies are read from") }, "no cookie file, no line")
        let with = try #require(try draft.explain(settings: settings, cookieFile: "jar.txt").step(.properties)).lines.map(\.text)
        let index = try #require(with.firstIndex { $0.hasPrefix("`httpShouldHandleCookies`") })
        #expect(with[index + 1] == "Cookies are read from `jar.txt` when the session opens and saved back to it (mode 0600) when it ends, because the session names it in `cookies: {file: …}`; curl's `-b` and `-c` share the file")
        #expect(!with.contains { $0.hasPrefix("This request neither sends") })
        draft.observed.httpShouldHandleCookies = false
        let off = try #require(try draft.explain(settings: settings, cookieFile: "jar.txt").step(.properties)).lines.map(\.text)
        #expect(off.contains("This request neither sends nor stores them: `httpShouldHandleCookies` is off"))
    }

    @Test func aDraftThatCannotBeBuiltHasNoExplanation() {
        #expect(throws: RequestSerializationError.self) { try RequestDraft(method: "GET", url: "nope://x").explain() }
    }

    // MARK: - Responses

    private func validation(status: Int, type: String?, body: String, serializer: any ResponseSerializer, method: String = "GET") -> Explanation {
        let url = URLReference(parsing: "http://127.0.0.1/x")
        let response = HTTPResponse(url: url, statusCode: status, headers: type.map { ["Content-Type": $0] } ?? [:])
        let request = HTTPRequest(method: method, url: url)
        let data = Array(body.utf8)
        return .validation(of: response, data: data, request: request, serializer: serializer, serialization: serializer.serialize(response, data: data, request: request))
    }

    @Test func aFailedStatusAndTypeAreNamedAndTheirErrorsChainStatusOverType() throws {
        let explanation = validation(status: 404, type: "text/html", body: "<h1>no</h1>", serializer: JSONResponseSerializer())
        let checks = try #require(explanation.step(.validation)).lines
        #expect(checks.contains(.init("Status 404 is not in the acceptable codes 200-299: error -1011 (bad server response).", .failed)))
        #expect(checks.contains(.init("Content type `text/html` is not acceptable (`application/json`, `text/javascript`, `text/json`): error -1016 (cannot decode content data).", .failed)))
        let chain = try #require(explanation.step(.errors)).lines.map(\.text)
        #expect(chain[0].hasPrefix("2 errors, each wrapping the next"))
        #expect(chain[1].contains("-1011"))
        #expect(chain[2].hasPrefix("↳ underlying: `io.tincan.error.serialization.response` -1016"))
    }

    @Test func aBadStatusWithAGoodTypeStillDecodesAndSaysSo() throws {
        let explanation = validation(status: 500, type: "application/json", body: #"{"error":"x"}"#, serializer: CompoundResponseSerializer())
        let checks = try #require(explanation.step(.validation)).lines
        #expect(checks[0].text.hasPrefix("The `compound` response serializer tries `json`, `xml`, `plist`, `image`, then `http`"))
        #expect(checks.contains { $0.tone == .passed && $0.text.hasPrefix("Content type `application/json` is acceptable (`application/json`, `application/x-plist`, `application/xml`, `image/bmp`") })
        #expect(checks.contains(.init("Decoded as JSON.", .detail)))
        #expect(try #require(explanation.step(.errors)).lines.contains { $0.text.hasPrefix("The body still decoded") })
    }

    @Test func aValidResponseAndABodilessHeadPassEveryCheck() throws {
        let valid = validation(status: 200, type: "application/json", body: "[]", serializer: JSONResponseSerializer())
        #expect(valid.step(.errors)?.lines == [.init("No error: the response is valid.", .passed)])
        let head = validation(status: 200, type: nil, body: "", serializer: JSONResponseSerializer(), method: "HEAD")
        #expect(head.step(.validation)?.lines.contains { $0.text.hasPrefix("No body to judge") && $0.tone == .passed } == true)
    }
}
