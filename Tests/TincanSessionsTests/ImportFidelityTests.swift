import Foundation
import TestSupport
import Testing
import TincanCore
@testable import TincanSessions

/// What real files from the tools' own repositories showed: each read as its tool sends it.
@Suite("Imports send what the source tool sends")
struct ImportFidelityTests {
    @Test("GraphQL variables written as text are sent parsed; text that is JSON only once its variables are filled in is sent as it is")
    func graphQLVariablesAsText() throws {
        // Insomnia keeps the variables as a string and parses them when it sends.
        let insomnia = #"""
            {"_type": "export", "__export_format": 4, "resources": [
              {"_id": "r1", "_type": "request", "parentId": "w", "name": "parsed", "method": "POST", "url": "http://h/graphql",
               "body": {"mimeType": "application/graphql", "text": "{\"query\": \"{ a }\", \"variables\": \"{\\\"n\\\": 1}\"}"}},
              {"_id": "r2", "_type": "request", "parentId": "w", "name": "templated", "method": "POST", "url": "http://h/graphql",
               "body": {"mimeType": "application/graphql", "text": "{\"query\": \"{ a }\", \"variables\": \"{ \\\"n\\\": {{ _.count }} }\"}"}}]}
            """#
        let session = try imported(.insomnia, insomnia, path: "i.json").session
        #expect(try importedRequest(session, "parsed").body == .graphql(GraphQLQuery(query: "{ a }", variables: ["n": 1])))
        let templated = try importedRequest(session, "templated")
        #expect(templated.params == nil)
        #expect(templated.body == .text(#"{"query":"{ a }","variables":{ "n": {{count}} }}"#))
        #expect(templated.headers.contains(HeaderSetting(name: "Content-Type", value: "application/json")))

        // Postman sends query, operationName and the variables' text as they are.
        let postman = #"""
            {"info": {"name": "g", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [
              {"name": "op", "request": {"method": "POST", "url": "http://h/graphql", "body": {"mode": "graphql",
                "graphql": {"query": "query Q { a }", "operationName": "Q", "variables": "{\"n\": 2}"}}}},
              {"name": "templated", "request": {"method": "POST", "url": "http://h/graphql", "body": {"mode": "graphql",
                "graphql": {"query": "{ a }", "variables": "{\"n\": {{count}}}"}}}}]}
            """#
        let fromPostman = try imported(.postman, postman, path: "p.json").session
        #expect(try importedRequest(fromPostman, "op").body == .graphql(GraphQLQuery(query: "query Q { a }", variables: ["n": 2], operationName: "Q")))
        #expect(try importedRequest(fromPostman, "templated").body == .text(#"{"query":"{ a }","variables":{"n": {{count}}}}"#))

        // Bruno takes the variables' comments out before it parses them.
        let bruno = try CollectionFormat.bruno.parse("""
            post {
              url: http://h/graphql
              body: graphql
            }

            body:graphql {
              { a }
            }

            body:graphql:vars {
              {
                // how many
                "n": 3 /* at most */
              }
            }
            """, path: "g.bru").session
        #expect(bruno.requests[0].body == .graphql(GraphQLQuery(query: "{ a }", variables: ["n": 3])))
    }

    @Test("a form with no field sent is no body, so a GET with an empty form sends as Postman and Insomnia send it")
    func emptyFormsAreNoBody() throws {
        let postman = #"""
            {"info": {"name": "e", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"}, "item": [
              {"name": "get", "request": {"method": "GET", "url": "http://h/get", "body": {"mode": "formdata", "formdata": []}}},
              {"name": "off", "request": {"method": "POST", "url": "http://h/post", "body": {"mode": "formdata", "formdata": [{"key": "a", "value": "1", "disabled": true}]}}}]}
            """#
        let result = try imported(.postman, postman, path: "p.json")
        #expect(result.session.requests.map(\.serializer) == [nil, nil])
        #expect(!result.notCarried.contains { $0.contains("cannot be sent as written") }, "\(result.notCarried)")
        let insomnia = #"""
            {"_type": "export", "__export_format": 4, "resources": [
              {"_id": "r", "_type": "request", "parentId": "w", "name": "get", "method": "GET", "url": "http://h/get", "body": {"mimeType": "multipart/form-data", "params": []}}]}
            """#
        #expect(try imported(.insomnia, insomnia, path: "i.json").session.requests[0].serializer == nil)
    }

    @Test("a collection naming an earlier v2 schema, or none beside info and item, is read as v2; v1 is named")
    func earlierVersion2Schemas() throws {
        for schema in [#""schema": "http://schema.getpostman.com/collection/v2/collection.json""#, #""_postman_schema": "https://schema.getpostman.com/#2.0.0""#] {
            let text = #"{"info": {"name": "old", "# + schema + #"}, "item": [{"name": "a", "request": {"method": "GET", "url": "http://h/a"}}]}"#
            #expect(try imported(.postman, text, path: "p.json").session.requests.map(\.url) == ["http://h/a"], "\(schema)")
        }
        let version1 = #"{"info": {"name": "v1", "schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}, "item": []}"#
        #expect(importError { try imported(.postman, version1, path: "p.json") }.contains("this is a Postman v1 collection"))
    }

    @Test("what a session cannot hold is left out, named, so that the file always reads back")
    func readableSessions() throws {
        var session = Session(name: "s")
        session.variables = ["ok": "1", "$bad": "2", "": "3"]
        session.environments = ["": ["host": "h"]]
        var request = SavedRequest(name: "r", url: "http://h/")
        request.group = "a//b/ "
        request.method = "GET X"
        request.flow.followRedirects = false
        request.flow.maxRedirects = 5
        request.maxTime = 0.0001
        request.body = .text("x")
        request.upload = SavedUpload(file: "f.bin")
        request.captures = ["": .status, "id": .status]
        session.requests = [request]
        let warnings = ImportChecks.readable(&session)
        #expect(session.variables == ["ok": "1"])
        #expect(session.environments == ["environment 1": ["host": "h"]])
        let fixed = session.requests[0]
        #expect(fixed.group == "a/b")
        #expect(fixed.method == "GET")
        #expect(fixed.flow.maxRedirects == nil && fixed.maxTime == nil && fixed.body == nil && fixed.upload != nil)
        #expect(Array(fixed.captures.keys) == ["id"])
        #expect(warnings.contains("variables: the variable '$bad' is not carried over: a variable's name cannot be empty, start with $ or hold braces"))
        #expect(warnings.contains("request 'r': the method 'GET X' is not an HTTP method (a token such as GET or PROPFIND), so the request is a GET"))
        #expect(warnings.contains("request 'r': the body is not carried over: the request sends a file (upload:), and a request sends one body"))
        _ = try Session.parse(session.yamlText(), path: "out.yaml")
    }

    @Test("Bruno: maxRedirects beside followRedirects false, as Bruno writes them in every request, imports")
    func brunoRedirectSettings() throws {
        let result = try CollectionFormat.bruno.parse("""
            get {
              url: http://h/a b
            }

            settings {
              encodeUrl: false
              followRedirects: false
              maxRedirects: 5
              timeout: 0
            }
            """, path: "r.bru")
        #expect(result.session.requests[0].flow.followRedirects == false)
        #expect(result.session.requests[0].flow.maxRedirects == nil)
        #expect(result.notCarried.contains("request 'r': its URL is sent encoded; Bruno's setting to send it as typed is not carried over"))
        _ = try Session.parse(result.session.yamlText(), path: "out.yaml")
        // A URL a URL can hold is sent as typed either way: nothing to say.
        let plain = try CollectionFormat.bruno.parse("get {\n  url: http://h/a?b=1\n}\n\nsettings {\n  encodeUrl: false\n}\n", path: "r.bru")
        #expect(plain.notCarried.isEmpty, "\(plain.notCarried)")
    }

    @Test("a URL made of variables is not judged before they are set")
    func urlsOfVariables() throws {
        let insomnia = #"""
            {"_type": "export", "__export_format": 4, "resources": [
              {"_id": "r", "_type": "request", "parentId": "w", "name": "get", "method": "GET", "url": "{{ _.scheme }}://{{ _.host }}/pets"}]}
            """#
        let result = try imported(.insomnia, insomnia, path: "i.json")
        #expect(result.notCarried.isEmpty, "\(result.notCarried)")
    }
}
