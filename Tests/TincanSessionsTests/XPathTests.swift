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

    private func value(_ expression: String, _ body: String = feed, html: Bool? = nil, charset: String? = nil) throws -> ParameterValue {
        try document(body, html: html, charset: charset).value(of: expression).value
    }

    private func document(_ body: String, html: Bool? = nil, charset: String? = nil) throws -> MarkupDocument {
        try MarkupDocument.parse(Array(body.utf8), html: html, charset: charset).get()
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

    @Test("XML that is not well formed fails with libxml2's message, line and column")
    func xmlErrors() {
        let cases: [(String, String)] = [
            ("<a>\n  <b></a>", "the body is not XML: Opening and ending tag mismatch: b line 2 and a at line 2, column 10"),
            ("<a><b></b>", "the body is not XML: Premature end of data in tag a line 1 at line 1, column 11"),
            ("<a x=1/>", "the body is not XML: AttValue: \" or ' expected at line 1, column 6"),
            ("<a x/>", "the body is not XML: Specification mandates value for attribute x at line 1, column 5"),
            ("just text", "the body is not XML: Start tag expected, '<' not found at line 1, column 1"),
            ("<a><!-- open", "the body is not XML: Comment not terminated at line 1, column 13"),
            ("", "the body is not XML: it is empty"),
            ("<?xml version=\"1.0\"?><!-- only a comment -->", "the body is not XML: Start tag expected, '<' not found at line 1, column 45"),
        ]
        for (body, message) in cases {
            switch MarkupDocument.parse(Array(body.utf8), html: false) {
            case .success: Issue.record("\(body) parsed")
            case .failure(let error): #expect(error.description == message)
            }
        }
    }

    @Test("expressions that do not compile say what is wrong and at which column")
    func expressionErrors() {
        let cases: [(String, String)] = [
            ("//item[", "bad XPath '//item[': the expression ends too soon at column 8"),
            ("//item[1", "bad XPath '//item[1': expected ']' to close the predicate at column 9"),
            ("count(//a", "bad XPath 'count(//a': the expression ends too soon at column 10"),
            ("//a]", "bad XPath '//a]': unexpected ']' at column 4"),
            ("'open", "bad XPath ''open': a string is never closed (expected its closing quote) at column 6"),
            ("//", "bad XPath '//': the expression ends too soon at column 3"),
            ("//é[", "bad XPath '//é[': the expression ends too soon at column 5"),
            ("frob(//a)", "bad XPath 'frob(//a)': it calls a function XPath 1.0 does not have"),
            ("count()", "bad XPath 'count()': a function is given the wrong number of arguments"),
            ("count('a')", "bad XPath 'count('a')': a function or operator is given a value of the wrong type (count(), sum() and '|' take node sets)"),
            ("$x", "bad XPath '$x': it uses a variable, and checks define none"),
        ]
        for (expression, message) in cases {
            #expect(throws: XPathError.self, "\(expression)") { try XPath.validate(expression) }
            do {
                try XPath.validate(expression)
            } catch {
                #expect(error.description == message)
            }
        }
        let nested = String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
        #expect(throws: XPathError(expression: String(repeating: "(", count: 40) + "…", message: "it is longer than 2000 characters", column: nil)) { try XPath.validate(nested) }
        #expect(throws: XPathError(expression: String(repeating: "(", count: 65) + "1" + String(repeating: ")", count: 65), message: "it nests brackets more than 64 deep", column: 65)) {
            try XPath.validate(String(repeating: "(", count: 65) + "1" + String(repeating: ")", count: 65))
        }
        #expect(throws: XPathError.self, "a chain of operators that would exhaust the stack") { try XPath.validate(Array(repeating: "1", count: 100_000).joined(separator: " or ")) }
        #expect(throws: Never.self) { try XPath.validate("string(//a[@x = '((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((('])") }
        #expect(throws: Never.self) { try XPath.validate(Array(repeating: "//a", count: 200).joined(separator: " | ")) }
        #expect(throws: Never.self, "a prefix is declared by the body, so it is not known when the session is read") { try XPath.validate("//x:a") }
    }

    @Test("a value of the wrong type is an evaluation error too")
    func evaluationErrors() throws {
        let document = try document(Self.feed, html: false)
        #expect(throws: XPathError.self) { try document.value(of: "count('a')") }
        do {
            _ = try document.value(of: "count('a')")
        } catch {
            #expect(error.description == "bad XPath 'count('a')': a function or operator is given a value of the wrong type (count(), sum() and '|' take node sets)")
        }
        do {
            _ = try document.value(of: "//x:a")
            Issue.record("an undeclared prefix evaluated")
        } catch {
            #expect(error.description == "bad XPath '//x:a': it uses a namespace prefix the body does not declare")
        }
    }

    @Test("all of XPath 1.0: axes, arithmetic, sum, substring, translate and filtered expressions")
    func fullXPath() throws {
        #expect(try value("sum(//price)") == .integer(37))
        #expect(try value("(//item)[2]/@id") == .array(["b"]))
        #expect(try value("//item[@id='a']/following-sibling::item/@id") == .array(["b", "c"]))
        #expect(try value("string(//title[.='Second']/ancestor::item/@id)") == .string("b"))
        #expect(try value("//price[1] * 2 + 1") == .integer(11))
        #expect(try value("20 div 8") == .double(2.5))
        #expect(try value("7 mod 3") == .integer(1))
        #expect(try value("1 div 0") == .string("Infinity"))
        #expect(try value("substring(//item[1]/title, 2, 3)") == .string("irs"))
        #expect(try value("translate('abc', 'abc', 'ABC')") == .string("ABC"))
        #expect(try value("local-name(/*)") == .string("rss"))
        #expect(try value("count(//comment())") == .integer(1))
    }

    static let books = """
        <?xml version="1.0"?>
        <book xmlns="urn:loc.gov:books" xmlns:isbn="urn:ISBN:0-395-36341-6">
          <title>Cheaper by the Dozen</title>
          <isbn:number>1568491379</isbn:number>
          <notes><p xmlns="http://www.w3.org/1999/xhtml">This is a <i>funny</i> book!</p></notes>
        </book>
        """

    @Test("namespaces: the body's prefixes, and its first default namespace as _, as in Hurl")
    func namespaces() throws {
        #expect(try value("string(//_:book/_:title)", Self.books) == .string("Cheaper by the Dozen"))
        #expect(try value("string(//_:book/isbn:number)", Self.books) == .string("1568491379"))
        #expect(try value("count(//title)", Self.books) == .integer(0), "an unprefixed name is in no namespace (XPath 1.0)")
        #expect(try value("count(//_:notes/*[local-name()='p'])", Self.books) == .integer(1), "a later default namespace is reached by local-name()")
        #expect(try value("count(//_:p)", Self.books) == .integer(0))
        #expect(try value("name(//isbn:number)", Self.books) == .string("isbn:number"))
        let soap = """
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
              <soap:Body xmlns:ns1="urn:ota"><ns1:Reply id="TID$1"/></soap:Body>
            </soap:Envelope>
            """
        #expect(try value("string(//soap:Envelope/soap:Body/ns1:Reply/@id)", soap) == .string("TID$1"), "a prefix declared below the root")
    }

    @Test("an HTML body without an element is not a document")
    func emptyHTML() {
        for body in ["", "<!-- nothing -->"] {
            #expect(throws: MarkupError.self) { try MarkupDocument.parse(Array(body.utf8), html: true).get() }
        }
    }

    @Test("HTML as browsers read it: implied elements, unclosed tags, named entities, tables, comments")
    func realWorldHTML() throws {
        let page = """
            <!doctype html>
            <title>Caf&eacute; &amp; Co &copy; 2024</title>
            <!-- navigation -->
            <nav><a href=/ class=home>Home<a href="/menu">Menu</nav>
            <table><tr><td>1<td>tea<tr><td>2<td>coffee</table>
            <form><select name=size><option>S<option selected>M</select></form>
            <p>Unclosed <b>bold <i>both</b> text
            <div id="x" data-v='1' hidden>last &#x263A; &#9731;</div>
            """
        #expect(try value("string(//title)", page) == .string("Café & Co © 2024"))
        #expect(try value("count(/html/head/title)", page) == .integer(1), "html and head are implied")
        #expect(try value("//a/@href", page) == .array(["/", "/menu"]), "an <a> ends the open <a>")
        #expect(try value("count(//table//tr)", page) == .integer(2))
        #expect(try value("//tr[2]/td[2]", page) == .array(["coffee"]))
        #expect(try value("string(//option[@selected])", page) == .string("M"))
        #expect(try value("count(//comment())", page) == .integer(1))
        #expect(try value("boolean(//div[@id='x']/@hidden)", page) == .bool(true))
        #expect(try value("string(//div[@data-v='1'])", page) == .string("last \u{263A} \u{2603}"))
        #expect(try value("count(//p//b)", page) == .integer(1))
    }

    @Test("a body is read in its Content-Type's charset")
    func charsets() throws {
        let latin1: [UInt8] = Array("<html><body><p>caf".utf8) + [0xE9] + Array("</p></body></html>".utf8)
        let document = try MarkupDocument.parse(latin1, html: true, charset: "iso-8859-1").get()
        #expect(try document.value(of: "string(//p)").value == .string("café"))
        let invalid = try MarkupDocument.parse(latin1, html: true).get()
        #expect(try invalid.value(of: "string(//p)").value == .string("caf\u{FFFD}"), "an invalid UTF-8 byte becomes U+FFFD")
    }

    @Test("a hostile body: entities are not expanded without bound, nor local files or URLs read")
    func hostileBodies() throws {
        var declarations = #"<!ENTITY l0 "lol">"#
        for level in 1...12 {
            declarations += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        let laughs = "<?xml version=\"1.0\"?><!DOCTYPE r [\(declarations)]><r>&l12;</r>"
        #expect(throws: MarkupError.self, "the expansion is refused") { try MarkupDocument.parse(Array(laughs.utf8), html: false).get() }
        do {
            _ = try MarkupDocument.parse(Array(laughs.utf8), html: false).get()
        } catch {
            #expect(error.message.lowercased().contains("entity"), "\(error)")
        }
        let passwd = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#
        #expect(try value("string(/r)", passwd, html: false) == .string(""), "the file is not read")
        let external = #"<?xml version="1.0"?><!DOCTYPE r SYSTEM "http://127.0.0.1:9/r.dtd"><r>&y;</r>"#
        #expect(try value("count(/r)", external, html: false) == .integer(1), "the DTD is not loaded, and the document is still read")
        let htmlPasswd = #"<!DOCTYPE html SYSTEM "file:///etc/passwd"><html><body><iframe src="file:///etc/passwd"></iframe>&x;</body></html>"#
        let page = try document(htmlPasswd, html: true)
        guard case .string(let text) = try page.value(of: "string(/)").value else { throw XPathError(expression: "", message: "not text", column: nil) }
        #expect(!text.contains("root:"))
    }

    @Test("an expression that does too much work on a body stops at the operation limit")
    func operationLimit() throws {
        let body = "<r>" + String(repeating: "<a><b/><b/></a>", count: 2_000) + "</r>"
        let document = try document(body, html: false)
        do {
            _ = try document.value(of: "count(//*[count(//*[count(//*) > 0]) > 0])")
            Issue.record("evaluated")
        } catch {
            #expect(error.message.hasPrefix("it does too much work on this body"))
        }
    }

    @Test("deep nesting neither exhausts the stack nor fails the HTML reader")
    func deepNesting() throws {
        let depth = 100_000
        let page = "<html><body>" + String(repeating: "<div>", count: depth) + "x" + String(repeating: "</div>", count: depth)
        let document = try document(page, html: true)
        #expect(try document.value(of: "count(//div) > 0").value == .bool(true))
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(throws: MarkupError.self) { try MarkupDocument.parse(Array(xml.utf8), html: false).get() }
    }
}
