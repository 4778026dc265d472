import Testing
import TincanCore
@testable import TincanSessions

@Suite("XPath on XML and HTML bodies")
struct XPathTests {
    static let feed = """
        <?xml version="1.0"?>
        <!-- a feed -->
        <rss version="2.0"><channel>
          <title>News &amp; more</title>
          <item id="a" kind="x"><title>First</title><price>5</price></item>
          <item id="b"><title>Second</title><price>12</price></item>
          <item id="c" kind="x"><title>  Third   one </title><price>20</price><![CDATA[<raw>]]></item>
        </channel></rss>
        """

    static let page = """
        <!DOCTYPE html>
        <html><head><meta charset=utf-8><title>Hello</title>
        <link rel=stylesheet href=/s.css></head>
        <body>
        <p class=lead>one<br>still one
        <p>two
        <ul><li>a<li class="x y">b<li>c</ul>
        <div id=main><input type=text name=q value="tea"><img src=x.png></div>
        <script>if (a < b && c) { document.write("</p>") }</script>
        </body></html>
        """

    private func value(_ expression: String, _ body: String = feed, html: Bool? = nil) throws -> ParameterValue {
        let document = try MarkupDocument.parse(Array(body.utf8), html: html).get()
        return try XPath(parsing: expression).evaluate(on: document).value
    }

    @Test("paths select elements, attributes and text, in document order")
    func paths() throws {
        #expect(try value("//item/title") == .array([.string("First"), .string("Second"), .string("  Third   one ")]))
        #expect(try value("/rss/channel/title") == .array([.string("News & more")]))
        #expect(try value("//item/@id") == .array(["a", "b", "c"]))
        #expect(try value("/rss/@*") == .array(["2.0"]))
        #expect(try value("//channel/*") == (try value("//channel/title | //item")))
        #expect(try value("//price/text()") == .array(["5", "12", "20"]))
        #expect(try value("//price/..//title") == .array(["First", "Second", "  Third   one "]))
        #expect(try value("//item[3]/text()") == .array(["<raw>"]), "CDATA is text")
    }

    @Test("predicates: positions, attributes, child values and functions")
    func predicates() throws {
        #expect(try value("string(//item[2]/title)") == .string("Second"))
        #expect(try value("string(//item[last()]/@id)") == .string("c"))
        #expect(try value("//item[@kind='x']/@id") == .array(["a", "c"]))
        #expect(try value("//item[@kind!='x']/@id") == .array([]), "an item without kind has no attribute to compare")
        #expect(try value("//item[price='12']/@id") == .array(["b"]))
        #expect(try value("//item[price > 10 and @kind]/@id") == .array(["c"]))
        #expect(try value("//item[price < 10 or @id='b']/@id") == .array(["a", "b"]))
        #expect(try value("//item[contains(title, 'ir')]/@id") == .array(["a", "c"]))
        #expect(try value("//item[starts-with(@id, 'b')]/@id") == .array(["b"]))
        #expect(try value("//item[not(@kind)]/@id") == .array(["b"]))
        #expect(try value("//item[position() = 2]/@id") == .array(["b"]))
    }

    @Test("functions give text, numbers and booleans")
    func functions() throws {
        #expect(try value("count(//item)") == .integer(3))
        #expect(try value("count(//nothing)") == .integer(0))
        #expect(try value("string(//title)") == .string("News & more"))
        #expect(try value("normalize-space(//item[3]/title)") == .string("Third one"))
        #expect(try value("contains(//channel/title, '&')") == .bool(true))
        #expect(try value("name(//channel/*[2])") == .string("item"))
        #expect(try value("number(//item[2]/price)") == .integer(12))
        #expect(try value("number(//item[1]/title)") == .string("NaN"))
        #expect(try value("boolean(//item)") == .bool(true))
        #expect(try value("//price > 15") == .bool(true), "any node of a set compares")
        #expect(try value("-count(//item)") == .integer(-3))
        #expect(try value("count(//item) = 3 and true()") == .bool(true))
    }

    @Test("HTML: void elements, unclosed p and li, unquoted attributes, raw script text")
    func html() throws {
        #expect(try value("string(//title)", Self.page) == .string("Hello"))
        #expect(try value("count(//p)", Self.page) == .integer(2))
        #expect(try value("normalize-space(//p[1])", Self.page) == .string("onestill one"), "<br> is an element, not a space")
        #expect(try value("normalize-space(//p[2])", Self.page) == .string("two"), "the list ends the second paragraph")
        #expect(try value("//li", Self.page) == .array(["a", "b", "c"]))
        #expect(try value("//li[@class='x y']", Self.page) == .array(["b"]))
        #expect(try value("string(//input[@name='q']/@value)", Self.page) == .string("tea"))
        #expect(try value("count(//div[@id='main']/*)", Self.page) == .integer(2), "input and img hold nothing")
        #expect(try value("string(//meta/@charset)", Self.page) == .string("utf-8"))
        #expect(try value("string(//link/@href)", Self.page) == .string("/s.css"))
        #expect(try value("count(//script/*)", Self.page) == .integer(0))
        #expect(try value("contains(//script, '</p>')", Self.page) == .bool(true))
        #expect(try value("count(//BODY)", "<HTML><BODY><P>x</BODY></HTML>") == .integer(0), "names are lowercased")
        #expect(try value("count(//body/p)", "<HTML><BODY><P>x</BODY></HTML>") == .integer(1), "detected as HTML from <html")
        #expect(try value("string(//b)", "<b>a&nbsp;b</b>", html: true) == .string("a\u{00A0}b"))
    }

    @Test("XML that is not well formed fails with its line and column")
    func xmlErrors() {
        let cases: [(String, String)] = [
            ("<a>\n  <b></a>", "the body is not XML: </a> where </b> was expected at line 2, column 6"),
            ("<a><b></b>", "the body is not XML: <a> is never closed at line 1, column 1"),
            ("<a x=1/>", "the body is not XML: a quoted value for the attribute x at line 1, column 6"),
            ("<a x/>", "the body is not XML: '=' and a quoted value after the attribute x at line 1, column 5"),
            ("just text", "the body is not XML: no root element at line 1, column 1"),
            ("<a><!-- open", "the body is not XML: a comment is never closed (-->) at line 1, column 4"),
        ]
        for (body, message) in cases {
            switch MarkupDocument.parse(Array(body.utf8), html: false) {
            case .success: Issue.record("\(body) parsed")
            case .failure(let error): #expect(error.description == message)
            }
        }
    }

    @Test("expressions that do not parse say what was expected and where")
    func expressionErrors() {
        let cases: [(String, String)] = [
            ("//item[", "bad XPath '//item[': expected a path, a string, a number or a function at column 8"),
            ("//item[1", "bad XPath '//item[1': expected ']' to close the predicate at column 9"),
            ("count(//a", "bad XPath 'count(//a': expected ',' or ')' in count() at column 10"),
            ("sum(//a)", "bad XPath 'sum(//a)': expected a function: boolean, contains, count, false, last, name, normalize-space, not, number, position, starts-with, string, true; 'sum' is not one at column 1"),
            ("count()", "bad XPath 'count()': expected count() to take 1 argument at column 1"),
            ("//a]", "bad XPath '//a]': expected an operator or the end of the expression at column 4"),
            ("'open", "bad XPath ''open': expected ' to close the string at column 6"),
            ("//", "bad XPath '//': expected a name, *, @name, . or .. as a step at column 3"),
        ]
        for (expression, message) in cases {
            #expect(throws: XPathError.self, "\(expression)") { try XPath(parsing: expression) }
            do {
                _ = try XPath(parsing: expression)
            } catch {
                #expect(error.description == message)
            }
        }
        #expect(throws: XPathError.self) { try XPath(parsing: String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100)) }
        #expect(throws: XPathError.self) { try XPath(parsing: Array(repeating: "1", count: 300).joined(separator: " or ")) }
        #expect(throws: Never.self) { try XPath(parsing: Array(repeating: "//a", count: 200).joined(separator: " | ")) }
    }

    @Test("count() of something that is not a node set is an evaluation error")
    func evaluationErrors() throws {
        let document = try MarkupDocument.parse(Array(Self.feed.utf8), html: false).get()
        #expect(throws: XPathError.self) { try XPath(parsing: "count('a')").evaluate(on: document) }
        do {
            _ = try XPath(parsing: "count('a')").evaluate(on: document)
        } catch {
            #expect(error.description == "bad XPath 'count('a')': count() takes a node set")
        }
    }
}
