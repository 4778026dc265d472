import Foundation
import Testing
@testable import TincanCore

private let example = URLReference(parsing: "http://example.com/path")

private func settings() -> RequestSettings { RequestSettings(environment: ["LANG": "en_US.UTF-8"]) }

private func bodyText(_ request: HTTPRequest) throws -> String? {
    if case .none = request.body { return nil }
    return String(decoding: try request.body.collect(), as: UTF8.self)
}

@Suite("Parameters go where AFNetworking puts them")
struct ParameterPlacementTests {
    @Test(arguments: ["GET", "HEAD", "DELETE", "get", "Delete"])
    func methodsInTheURISetPutParametersInTheQuery(method: String) throws {
        let request = try FormRequestSerializer(settings: settings()).request(method: method, url: example, parameters: ["a": "1"])
        #expect(request.url.string == "http://example.com/path?a=1")
        #expect(try bodyText(request) == nil)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func appendsWithAnAmpersandWhenTheURLHasAQuery() throws {
        let url = URLReference(parsing: "http://example.com/path?x=1")
        let request = try FormRequestSerializer().request(method: "GET", url: url, parameters: ["a": "2"])
        #expect(request.url.string == "http://example.com/path?x=1&a=2")
    }

    @Test func emptyParametersLeaveTheURLUnchanged() throws {
        let request = try FormRequestSerializer().request(method: "GET", url: example, parameters: [:])
        #expect(request.url.string == "http://example.com/path")
        let withNil = try FormRequestSerializer().request(method: "GET", url: example, parameters: nil)
        #expect(withNil.url.string == "http://example.com/path")
    }

    @Test(arguments: ["POST", "PUT", "PATCH", "OPTIONS"])
    func otherMethodsPutParametersInAFormBody(method: String) throws {
        let request = try FormRequestSerializer().request(method: method, url: example, parameters: ["a": "1", "b": "x y"])
        #expect(request.url.string == "http://example.com/path")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(try bodyText(request) == "a=1&b=x%20y")
    }

    @Test func aPostWithNoParametersHasAnEmptyFormBody() throws {
        let request = try FormRequestSerializer().request(method: "POST", url: example, parameters: nil)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(try bodyText(request) == "")
        #expect(request.body.length == 0)
        #expect(request.wireHead.headers["Content-Length"] == "0")
    }

    @Test func neverOverwritesAnExistingContentType() throws {
        let shared = settings()
        shared.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
        let form = try FormRequestSerializer(settings: shared).request(method: "POST", url: example, parameters: ["a": "1"])
        #expect(form.headers["Content-Type"] == "text/plain; charset=utf-8")
        let json = try JSONRequestSerializer(settings: shared).request(method: "POST", url: example, parameters: ["a": "1"])
        #expect(json.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func theURIMethodSetCanBeChanged() throws {
        let shared = settings()
        shared.methodsEncodingParametersInURI = ["get", "post"]
        let post = try FormRequestSerializer(settings: shared).request(method: "POST", url: example, parameters: ["a": "1"])
        #expect(post.url.query == "a=1")
        let delete = try FormRequestSerializer(settings: shared).request(method: "DELETE", url: example, parameters: ["a": "1"])
        #expect(try bodyText(delete) == "a=1")
    }

    @Test func formParametersMustBeAnObject() throws {
        #expect(throws: RequestSerializationError.self) {
            try FormRequestSerializer().request(method: "POST", url: example, parameters: ["a", "b"])
        }
    }
}

@Suite("A custom query-string serializer replaces the default rules")
struct CustomQueryStringTests {
    struct Refusal: Error, Equatable { let why: String }

    @Test func itsStringIsUsedForTheQueryAndTheFormBody() throws {
        let shared = settings()
        shared.queryStringSerialization = { request, _ in "custom=\(request.method)" }
        let get = try FormRequestSerializer(settings: shared).request(method: "GET", url: example, parameters: ["a": "1"])
        #expect(get.url.query == "custom=GET")
        let post = try FormRequestSerializer(settings: shared).request(method: "POST", url: example, parameters: ["a": "1"])
        #expect(try bodyText(post) == "custom=POST")
    }

    @Test func itsErrorFailsRequestBuildingUnchanged() {
        let shared = settings()
        shared.queryStringSerialization = { _, _ in throw Refusal(why: "no") }
        #expect(throws: Refusal(why: "no")) {
            try FormRequestSerializer(settings: shared).request(method: "GET", url: example, parameters: ["a": "1"])
        }
    }
}

@Suite("The JSON serializer")
struct JSONRequestSerializerTests {
    @Test func writesCompactJSONInInsertionOrder() throws {
        let request = try JSONRequestSerializer().request(method: "POST", url: example, parameters: ["z": 1, "a": [true, .null, 1.5, "é\"\n"]])
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(try bodyText(request) == #"{"z":1,"a":[true,null,1.5,"é\"\n"]}"#)
    }

    @Test func noParametersMeansNoBody() throws {
        let request = try JSONRequestSerializer().request(method: "POST", url: example, parameters: nil)
        #expect(try bodyText(request) == nil)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test(arguments: [ParameterValue.string("fragment"), .integer(1), .dictionary(["s": .set(["a"])]), .array([.double(.nan)])])
    func invalidJSONFailsWithCode1016(parameters: ParameterValue) throws {
        let error = try #require(throws: RequestSerializationError.self) {
            try JSONRequestSerializer().request(method: "POST", url: example, parameters: parameters)
        }
        #expect(error.code == -1016)
        #expect(RequestSerializationError.domain == "io.tincan.error.serialization.request")
        #expect(error.description.contains("not valid JSON"))
    }

    @Test(arguments: ["GET", "HEAD", "DELETE"])
    func uriMethodsStillUseTheQueryString(method: String) throws {
        let request = try JSONRequestSerializer().request(method: method, url: example, parameters: ["a": ["b": 1]])
        #expect(request.url.query == "a%5Bb%5D=1")
        #expect(try bodyText(request) == nil)
    }
}

@Suite("The property-list serializer")
struct PropertyListRequestSerializerTests {
    @Test func writesAnXMLPropertyListWithSortedKeys() throws {
        let request = try PropertyListRequestSerializer().request(
            method: "PUT", url: example, parameters: ["b": [1, 2.5], "a": true, "c": "x<&>", "d": [:]])
        #expect(request.headers["Content-Type"] == "application/x-plist")
        #expect(try bodyText(request) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<true/>
            \t<key>b</key>
            \t<array>
            \t\t<integer>1</integer>
            \t\t<real>2.5</real>
            \t</array>
            \t<key>c</key>
            \t<string>x&lt;&amp;&gt;</string>
            \t<key>d</key>
            \t<dict/>
            </dict>
            </plist>

            """)
    }

    @Test func readsBackThroughFoundation() throws {
        let request = try PropertyListRequestSerializer().request(method: "POST", url: example, parameters: ["n": 3, "s": "ü"])
        let plist = try PropertyListSerialization.propertyList(from: Data(try request.body.collect()), format: nil) as? [String: Any]
        #expect(plist?["s"] as? String == "ü")
        #expect((plist?["n"] as? NSNumber)?.intValue == 3)
    }

    @Test func nullIsAnErrorNamingItsKeyPath() throws {
        let error = try #require(throws: RequestSerializationError.self) {
            try PropertyListRequestSerializer().request(method: "POST", url: example, parameters: ["a": ["b": .null]])
        }
        #expect(error.description.contains("a.b is null"))
    }
}
