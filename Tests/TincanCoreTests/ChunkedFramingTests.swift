import Testing
import TincanCore

/// Chunked transfer coding read back from bytes (RFC 9112 §7.1).
@Suite("Chunked framing")
struct ChunkedFramingTests {
    @Test("a chunk-size line is hex digits before any extension; anything else, or too large a size, is refused")
    func sizeLines() {
        #expect(ChunkedFraming.size(ofLine: Array("1a".utf8)) == 26)
        #expect(ChunkedFraming.size(ofLine: Array("FF;name=value".utf8)) == 255)
        #expect(ChunkedFraming.size(ofLine: Array("0".utf8)) == 0)
        #expect(ChunkedFraming.size(ofLine: Array("4 ".utf8)) == 4)
        for bad in ["", ";x", "g", "-1", "0x10", String(repeating: "f", count: 16), "1" + String(repeating: "0", count: 16)] {
            #expect(ChunkedFraming.size(ofLine: Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test("a whole body decodes to its data and chunk count; a cut or malformed one does not")
    func wholeBodies() {
        let body = Array("3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: 1\r\n\r\n".utf8)
        let decoded = ChunkedFraming.decode(body)
        #expect(decoded?.data == Array("abcde".utf8))
        #expect(decoded?.chunks == 2)
        #expect(ChunkedFraming.decode(Array("0\r\n\r\n".utf8))?.chunks == 0)
        #expect(ChunkedFraming.decode(Array("5\r\nabc".utf8)) == nil, "cut inside a chunk")
        #expect(ChunkedFraming.decode(Array("3\r\nabc\r\n".utf8)) == nil, "no last chunk")
        #expect(ChunkedFraming.decode(Array("z\r\n".utf8)) == nil)
    }
}
