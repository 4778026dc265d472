import Testing
@testable import TincanCore

/// A two-step explanation with every tone, literals and Markdown punctuation in plain text.
private let sample = Explanation(steps: [
    .init(topic: .url, title: "URL", lines: [
        .init("`users` resolved against `http://example.com/v1/`"),
        .init("The base URL ends in `/`, so the path is appended", .detail),
    ]),
    .init(topic: .validation, title: "Validation", lines: [
        .init("status 200 is in `200-299`", .passed),
        .init("Content-Type *text/html* is not one of [json]", .failed),
    ]),
])

@Suite("An explanation as text and as Markdown")
struct ExplanationRenderingTests {
    @Test("text puts each step's title over its lines, led as the Explain view leads them, literals without backticks")
    func textReadsAsTheExplainView() {
        #expect(sample.text() == """
            URL
            • users resolved against http://example.com/v1/
              The base URL ends in /, so the path is appended

            Validation
            ✓ status 200 is in 200-299
            ✗ Content-Type *text/html* is not one of [json]

            """)
    }

    @Test("Markdown has a heading per step, details nested under their statement, literals as code spans and markup escaped")
    func markdownHasHeadingsListsAndCodeSpans() {
        #expect(sample.markdown() == """
            ## URL

            - `users` resolved against `http://example.com/v1/`
              - The base URL ends in `/`, so the path is appended

            ## Validation

            - ✓ status 200 is in `200-299`
            - ✗ Content-Type \\*text/html\\* is not one of \\[json\\]

            """)
    }

    @Test("the wire preview goes in a fenced http block whose fence is longer than any backtick run inside")
    func wirePreviewIsFenced() {
        let plain = sample.markdown(headingLevel: 3, wirePreview: "GET /v1/users HTTP/1.1\nHost: example.com\n")
        #expect(plain.hasPrefix("### URL\n"))
        #expect(plain.hasSuffix("### On the wire\n\n```http\nGET /v1/users HTTP/1.1\nHost: example.com\n```\n"))
        let ticks = sample.markdown(wirePreview: "POST /x HTTP/1.1\n\nbody with ``` inside")
        #expect(ticks.hasSuffix("````http\nPOST /x HTTP/1.1\n\nbody with ``` inside\n````\n"))
    }

    @Test("a heading level outside 1...6 is kept inside it", arguments: [(0, "# URL"), (9, "###### URL")])
    func headingLevelIsClamped(level: Int, heading: String) {
        #expect(sample.markdown(headingLevel: level).hasPrefix(heading + "\n"))
    }

    @Test("a detail with no statement before it is a list item of its own, not nested")
    func leadingDetailIsNotNested() {
        let explanation = Explanation(steps: [.init(topic: .headers, title: "Headers", lines: [.init("only a detail", .detail)])])
        #expect(explanation.markdown() == "## Headers\n\n- only a detail\n")
    }
}
