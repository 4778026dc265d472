import Foundation
import TestSupport
import Testing
@testable import TincanCore

@Suite("Request items use HTTPie's syntax")
struct RequestItemTests {
    @Test(arguments: [
        ("a=1", RequestItem.parameter(key: "a", value: "1")),
        ("url=http://x/y", .parameter(key: "url", value: "http://x/y")),
        ("n:=5", .parameter(key: "n", value: 5)),
        ("tags:=[\"a\",true]", .parameter(key: "tags", value: ["a", true])),
        ("q==a b", .query(name: "q", value: "a b")),
        ("Accept:application/json", .header(name: "Accept", value: "application/json")),
        ("X-Time: 12:30", .header(name: "X-Time", value: "12:30")),
        ("User-Agent:", .removeHeader(name: "User-Agent")),
        ("X-Empty;", .header(name: "X-Empty", value: "")),
        ("photo@~/a.png", .file(field: "photo", path: "~/a.png", mimeType: nil)),
        ("photo@a.bin;type=image/png", .file(field: "photo", path: "a.bin", mimeType: "image/png")),
        ("bio=@bio.txt", .parameterFromFile(key: "bio", path: "bio.txt", isJSON: false)),
        ("meta:=@m.json", .parameterFromFile(key: "meta", path: "m.json", isJSON: true)),
        ("a\\=b=c", .parameter(key: "a=b", value: "c")),
        ("k=v\\:w", .parameter(key: "k", value: "v:w")),
        ("user[name]=Ann", .parameter(key: "user[name]", value: "Ann")),
    ])
    func parsesEachKindOfItem(text: String, expected: RequestItem) throws {
        #expect(try RequestItem.parse(text) == expected)
    }

    @Test(arguments: [("novalue", "expected name=value"), ("=x", "expected a name"), ("n:=[1,", "not valid JSON"), ("f@", "expected a file path"), ("Bad Name:x", "not a valid header name")])
    func explainsWhatWasExpected(text: String, fragment: String) throws {
        let error = try #require(throws: RequestItemError.self) { try RequestItem.parse(text) }
        #expect(error.description.contains(fragment))
        #expect(error.description.contains(text))
    }
}

@Suite("Drafts build requests the way every front end will")
struct RequestDraftTests {
    private func build(_ draft: RequestDraft) throws -> HTTPRequest {
        try draft.build(settings: RequestSettings(environment: [:]), boundary: "B")
    }

    @Test func nestedItemsBuildNestedParameters() throws {
        var draft = RequestDraft(method: "POST", url: "http://x/p")
        draft.serializer = .json
        draft.items = try ["user[name]=Ann", "user[tags][]=a", "user[tags][]=b", "n:=1", "list[0]=z", "list[2]=y"].map(RequestItem.parse)
        let request = try build(draft)
        #expect(String(decoding: try request.body.collect(), as: UTF8.self)
            == #"{"user":{"name":"Ann","tags":["a","b"]},"n":1,"list":["z",null,"y"]}"#)
    }

    @Test func aRepeatedKeyCollectsAnArray() throws {
        var draft = RequestDraft(method: "GET", url: "http://x/p")
        draft.items = try ["a=1", "a=2", "a=3"].map(RequestItem.parse)
        #expect(try build(draft).url.query == "a%5B%5D=1&a%5B%5D=2&a%5B%5D=3")
    }

    @Test func conflictingPathsAreErrors() throws {
        var draft = RequestDraft(method: "POST", url: "http://x/p")
        draft.items = try ["a=1", "a[b]=2"].map(RequestItem.parse)
        let error = try #require(throws: RequestItemError.self) { try build(draft) }
        #expect(error.reason.contains("already a string"))
    }

    @Test func itemsMergeIntoParamsJSON() throws {
        var draft = RequestDraft(method: "POST", url: "http://x/p")
        draft.serializer = .json
        draft.parameters = try JSONParser.parse(#"{"a":{"b":1}}"#)
        draft.items = [try RequestItem.parse("a[c]=2")]
        #expect(String(decoding: try build(draft).body.collect(), as: UTF8.self) == #"{"a":{"b":1,"c":"2"}}"#)
    }

    @Test func queryItemsStayInTheURLForAnyMethodAndComeFirst() throws {
        var draft = RequestDraft(method: "POST", url: "http://x/p?x=0")
        draft.items = try ["z==last one", "a==1", "body=2"].map(RequestItem.parse)
        let request = try build(draft)
        #expect(request.url.query == "x=0&z=last%20one&a=1")
        #expect(String(decoding: try request.body.collect(), as: UTF8.self) == "body=2")
        var get = RequestDraft(method: "GET", url: "http://x/p")
        get.items = try ["q==1", "b=2"].map(RequestItem.parse)
        #expect(try build(get).url.query == "q=1&b=2")
    }

    @Test func headerItemsReplaceRemoveOrEmptyDefaults() throws {
        var draft = RequestDraft(method: "GET", url: "http://x/")
        draft.items = try ["accept:text/html", "User-Agent:", "X-Blank;"].map(RequestItem.parse)
        let headers = try build(draft).headers
        #expect(headers["Accept"] == "text/html")
        #expect(headers["User-Agent"] == nil)
        #expect(headers["X-Blank"] == "")
    }

    @Test func credentialsBecomeBasicAuthorizationAndUserInfoLeavesTheURL() throws {
        var draft = RequestDraft(method: "GET", url: "http://ann:p%40ss@x/")
        let fromURL = try build(draft)
        #expect(fromURL.headers["Authorization"] == RequestSettings.basicAuthorization(username: "ann", password: "p@ss"))
        #expect(fromURL.url.string == "http://x/")
        draft.credentials = .init(user: "bob", password: "pw")
        #expect(try build(draft).headers["Authorization"] == RequestSettings.basicAuthorization(username: "bob", password: "pw"))
    }

    @Test func fileItemsMakeAMultipartBodyWithTheOtherFields() throws {
        let directory = try TemporaryDirectory()
        try directory.write("a.json", Array("{}".utf8))
        var draft = RequestDraft(method: "POST", url: "http://x/up")
        draft.workingDirectory = directory.path
        draft.items = try ["doc@a.json", "title=T"].map(RequestItem.parse)
        let request = try build(draft)
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=B")
        let body = String(decoding: try request.body.collect(), as: UTF8.self)
        #expect(body.contains("name=\"title\"\r\n\r\nT\r\n"))
        #expect(body.contains("filename=\"a.json\"\r\nContent-Type: application/json\r\n\r\n{}\r\n--B--"))
    }

    @Test(arguments: [
        ("multipart/form-data", "multipart/form-data; boundary=B"),
        ("Multipart/Form-Data;", "Multipart/Form-Data; boundary=B"),
        ("multipart/mixed; charset=utf-8", "multipart/mixed; charset=utf-8; boundary=B"),
        ("multipart/form-data; boundary=other", "multipart/form-data; boundary=B"),
        ("application/json", "multipart/form-data; boundary=B"),
    ])
    func aTypedContentTypeNeverHidesTheMultipartBoundary(typed: String, sent: String) throws {
        // Given a multipart request whose Content-Type was typed, as Insomnia exports every one
        var draft = RequestDraft(method: "POST", url: "http://x/up")
        draft.serializer = .multipart
        draft.parameters = ["title": "T"]
        draft.headers = ["Content-Type": typed]
        // Then the server is told the boundary the body is written with
        #expect(try build(draft).headers["Content-Type"] == sent)
        // And as an item typed on the command line
        draft.headers = [:]
        draft.items = [.header(name: "Content-Type", value: typed)]
        #expect(try build(draft).headers["Content-Type"] == sent)
    }

    @Test func fileItemsNeedAFormSerializer() throws {
        var draft = RequestDraft(method: "POST", url: "http://x/up")
        draft.serializer = .json
        draft.items = [try RequestItem.parse("doc@a.json")]
        let error = try #require(throws: RequestSerializationError.self) { try build(draft) }
        #expect(error.description.contains("form or multipart"))
    }

    @Test func parameterFilesAreReadAsTextOrJSON() throws {
        let directory = try TemporaryDirectory()
        try directory.write("bio.txt", Array("hello".utf8))
        try directory.write("m.json", Array("[1,2]".utf8))
        var draft = RequestDraft(method: "POST", url: "http://x/")
        draft.serializer = .json
        draft.workingDirectory = directory.path
        draft.items = try ["bio=@bio.txt", "m:=@m.json"].map(RequestItem.parse)
        #expect(String(decoding: try build(draft).body.collect(), as: UTF8.self) == #"{"bio":"hello","m":[1,2]}"#)
    }

    @Test(arguments: [(":8080/x", "http://localhost:8080/x"), ("example.com/a", "http://example.com/a"), ("https://s/", "https://s/")])
    func expandsHTTPieShorthandsWithoutABase(typed: String, expected: String) throws {
        #expect(try build(RequestDraft(method: "GET", url: typed)).url.string == expected)
    }

    @Test func timeoutIsAnObservedPropertyTheRequestReports() throws {
        var draft = RequestDraft(method: "GET", url: "http://x/")
        draft.observed.timeoutInterval = 2.5
        let request = try build(draft)
        #expect(request.properties.timeoutInterval == 2.5)
        #expect(request.appliedProperties == [.timeoutInterval])
    }
}

@Suite("An upload in a draft")
struct DraftUploadTests {
    @Test("the file is the body, and its extension names the type unless the draft names or removes one")
    func fileIsTheBodyAndNamesItsType() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("photo.png", [1, 2, 3, 4])
        var named = RequestDraft(method: "PUT", url: "http://example.test/up")
        named.upload(fromFile: path)
        let request = try named.build()
        guard case .file(let file, let length) = request.body else {
            Issue.record("the body is \(request.body)")
            return
        }
        #expect(file == path && length == 4)
        #expect(request.headers["Content-Type"] == "image/png")

        var given = RequestDraft(method: "PUT", url: "http://example.test/up")
        given.items = [.header(name: "content-type", value: "application/octet-stream")]
        given.upload(fromFile: path)
        #expect(try given.build().headers["Content-Type"] == "application/octet-stream")

        var removed = RequestDraft(method: "PUT", url: "http://example.test/up")
        removed.items = [.removeHeader(name: "Content-Type")]
        removed.upload(fromFile: path)
        #expect(try removed.build().headers["Content-Type"] == nil)
    }
}

@Suite("A draft reads standard input through the path -")
struct RequestDraftStandardInputTests {
    @Test("name=@-, name:=@-, field@- and a raw body file of - take the bytes the front end read")
    func everyFileReadsStandardInput() throws {
        var draft = RequestDraft(method: "POST", url: "http://h/")
        draft.serializer = .json
        draft.items = [.parameterFromFile(key: "note", path: "-", isJSON: false)]
        draft.standardInput = Array("piped".utf8)
        #expect(String(decoding: try draft.build().body.collect(), as: UTF8.self) == #"{"note":"piped"}"#)

        draft.items = [.parameterFromFile(key: "n", path: "-", isJSON: true)]
        draft.standardInput = Array("[1,2]".utf8)
        #expect(String(decoding: try draft.build().body.collect(), as: UTF8.self) == #"{"n":[1,2]}"#)

        var form = RequestDraft(method: "POST", url: "http://h/")
        form.items = [.file(field: "doc", path: "-", mimeType: "text/plain")]
        form.standardInput = Array("part".utf8)
        let multipart = String(decoding: try form.build(boundary: "B").body.collect(), as: UTF8.self)
        #expect(multipart.contains("Content-Disposition: form-data; name=\"doc\"; filename=\"stdin\"\r\nContent-Type: text/plain\r\n\r\npart\r\n"))

        var raw = RequestDraft(method: "PUT", url: "http://h/")
        raw.body = .file(path: "-")
        raw.standardInput = Array("raw".utf8)
        #expect(try raw.build().body.collect() == Array("raw".utf8))
    }

    @Test("a - with no standard input given fails naming the item, instead of reading a file named -")
    func noStandardInputIsAnError() throws {
        var draft = RequestDraft(method: "POST", url: "http://h/")
        draft.items = [.parameterFromFile(key: "note", path: "-", isJSON: false)]
        #expect(throws: RequestItemError(item: "note=@-", reason: "'-' reads standard input, and none was given here")) {
            try draft.build()
        }
    }

    @Test("standardInputReaders names each reader as written, hasBodyItems ignores headers and query fields")
    func readersAndBodyItems() {
        var draft = RequestDraft(method: "POST", url: "http://h/")
        draft.items = [.header(name: "A", value: "b"), .query(name: "q", value: "1"), .removeHeader(name: "C")]
        #expect(!draft.hasBodyItems)
        #expect(draft.standardInputReaders.isEmpty)
        draft.items += [.parameterFromFile(key: "a", path: "-", isJSON: true), .file(field: "f", path: "-", mimeType: nil), .file(field: "g", path: "./-", mimeType: nil)]
        draft.body = .file(path: "-")
        #expect(draft.hasBodyItems)
        #expect(draft.standardInputReaders == ["a:=@-", "f@-", RequestDraft.rawBodyReader])
        var parameters = RequestDraft(method: "POST", url: "http://h/")
        parameters.parameters = .dictionary([:])
        #expect(parameters.hasBodyItems, "--params-json gives a body")
    }
}
