import Foundation
import Testing
@testable import TincanCore

/// `XMLTree.parse`, on libxml2's reader opened at first use.
@Suite("XML trees from libxml2's reader")
struct XMLTreeTests {
    private func parse(_ text: String) throws(XMLTreeError) -> XMLTree {
        try XMLTree.parse(Array(text.utf8))
    }

    @Test("elements, sorted attributes, text and CDATA build the tree, whitespace-only text dropped")
    func tree() throws {
        let root = try parse("<r z=\"2\" a=\"1\" xmlns:n=\"urn:n\">\n  <n:b n:c=\"x\">t<![CDATA[ <raw> ]]>u</n:b>\n  <e/>\n  tail &#233; &lt;x&gt;\n</r>")
        #expect(root == XMLTree(name: "r", attributes: [.init(name: "a", value: "1"), .init(name: "xmlns:n", value: "urn:n"), .init(name: "z", value: "2")], children: [
            .element(XMLTree(name: "n:b", attributes: [.init(name: "n:c", value: "x")], children: [.text("t <raw> u")])),
            .element(XMLTree(name: "e")),
            .text("tail é <x>"),
        ]))
    }

    @Test("an internal entity is replaced by its text, in content and in attributes")
    func internalEntities() throws {
        let root = try parse(#"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY co "Acme &amp; Co"><!ENTITY two "&co; &co;">]><r a="&co;">Hello &two;</r>"#)
        #expect(root.attributes == [.init(name: "a", value: "Acme & Co")])
        #expect(root.text == "Hello Acme & Co Acme & Co")
    }

    @Test("an external entity or DTD is never loaded, from a file or the network")
    func externalEntitiesAreNotLoaded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tincan-xxe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("secret.txt")
        try Data("the secret".utf8).write(to: secret)
        let entities = directory.appendingPathComponent("entities.dtd")
        try Data(#"<!ENTITY leak "the secret">"#.utf8).write(to: entities)
        for system in [secret.absoluteString, secret.path, "http://127.0.0.1:9/entity"] {
            let dtd = system == secret.path ? entities.path : system == secret.absoluteString ? entities.absoluteString : system
            let documents = [
                // A general entity, in content and in an attribute.
                #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "\#(system)">]><r>&x;</r>"#,
                #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "\#(system)">]><r a="&x;"/>"#,
                // A parameter entity, which NOENT would also load.
                #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM "\#(dtd)"> %p;]><r>&leak;</r>"#,
                // An external subset.
                #"<?xml version="1.0"?><!DOCTYPE r SYSTEM "\#(dtd)"><r>&leak;</r>"#,
            ]
            for document in documents {
                // A tree without the file's text, or an error that does not quote it.
                do {
                    let root = try parse(document)
                    #expect(!root.indented().contains("secret"), "\(document)")
                } catch {
                    #expect(!error.description.contains("the secret"), "\(document)")
                }
            }
        }
    }

    @Test("an exponential entity expansion is refused with libxml2's error, in bounded time")
    func billionLaughs() {
        var declarations = #"<!ENTITY l0 "lol">"#
        for level in 1...12 {
            declarations += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        let document = "<?xml version=\"1.0\"?><!DOCTYPE r [\(declarations)]><r>&l12;</r>"
        #expect(throws: XMLTreeError.self) { try parse(document) }
        do {
            _ = try parse(document)
        } catch {
            #expect(error.detail.contains("entity"), "\(error)")
        }
    }

    @Test("malformed XML names libxml2's error with its line and column", arguments: [
        ("<a><b></a>", "line 1, column 11: Opening and ending tag mismatch: b line 1 and a"),
        ("<a>\n<b>\n</a>", "line 3, column 5: Opening and ending tag mismatch: b line 2 and a"),
        ("<a></a><b/>", "line 1, column 8: Extra content at the end of the document"),
        ("just text", "line 1, column 1: Document is empty"),
    ])
    func errors(text: String, expected: String) {
        #expect(throws: XMLTreeError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("a document with no element has no root")
    func noRoot() {
        do {
            _ = try parse("<?xml version=\"1.0\"?><!-- only a comment -->")
            Issue.record("parsed")
        } catch {
            #expect(error.detail.isEmpty == false)
        }
    }

    @Test("deep nesting stops at libxml2's depth limit instead of exhausting the stack")
    func deepNesting() {
        let depth = 100_000
        let document = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(throws: XMLTreeError.self) { try parse(document) }
    }

    @Test("documents parse concurrently")
    func concurrent() async throws {
        try await withThrowingTaskGroup(of: XMLTree.self) { group in
            for index in 0..<16 {
                group.addTask { try XMLTree.parse(Array("<r n=\"\(index)\"><c>\(index)</c></r>".utf8)) }
            }
            var seen = Set<String>()
            for try await tree in group { seen.insert(tree.elements.first?.text ?? "") }
            #expect(seen.count == 16)
        }
    }
}
