import Foundation
import Crypto
import TincanCore

extension TaskResult {
    /// The value `fact` names in this exchange, or why there is none.
    func value(of fact: ResponseValue) -> Result<ParameterValue, CaptureFailure> {
        switch fact {
        case .url:
            return .success(.string(request.url.string))
        case .redirects:
            return .success(.integer(Int64(redirects.count)))
        case .duration:
            return .success(.integer(Int64((metrics.total.inSeconds * 1000).rounded())))
        case .location:
            if let location = response?.headers["Location"] { return .success(.string(location)) }
            if let last = redirects.last { return .success(.string(last.to.string)) }
            return .failure(response == nil ? .noResponse : .noHeader("Location"))
        case .cookie(let text):
            guard case .success(let (name, attribute)) = CookieAttribute.split(text) else { return .failure(.noCookie(text)) }
            let fields = redirects.flatMap(\.setCookies) + (response?.headers.values(named: "Set-Cookie") ?? [])
            guard let field = fields.last(where: { CookieJar.nameAndValue(ofSetCookie: $0)?.name == name }) else { return .failure(.noCookie(name)) }
            return attribute.value(in: field).map { .success($0) } ?? .failure(.noCookieAttribute(name, attribute.rawValue))
        case .bodySize, .bodySHA256, .bodyMD5:
            if let download { return .failure(.bodyDownloaded(download.path)) }
            // A streamed body is kept whole only by a receiver that asks for it, within max-body.
            if let stream, Int64(data.count) != stream.bytes { return .failure(.bodyStreamed) }
            return .success(Self.bodyFact(fact, of: data))
        case .streamEvents, .streamFirst, .streamLast:
            if let download { return .failure(.bodyDownloaded(download.path)) }
            return streamFact(fact)
        case .decodedBy:
            guard let serialization else { return .failure(.noResponse) }
            return Self.decoder(of: serialization.body).map { .success(.string($0.rawValue)) } ?? .failure(.unusable("no serializer decoded the body"))
        case .trustedBy:
            if let trustedBy { return .success(.string(trustedBy.rawValue)) }
            return .failure(response == nil ? .noResponse : .unusable(cameFromCache ? "the response came from the cache, with no handshake" : "the response did not come over TLS"))
        case .cache:
            return switch cache {
            case .hit?: .success("hit")
            case .notModified?: .success("not-modified")
            case .stored?: .success("stored")
            case .revalidating?, nil: .failure(.unusable("the cache took no part"))
            }
        }
    }

    /// The kind of serializer that makes `body`: the compound serializer's is the one it chose.
    static func decoder(of body: DecodedBody) -> ResponseSerializerKind? {
        switch body {
        case .none: nil
        case .data: .http
        case .json: .json
        case .xml: .xml
        case .propertyList: .plist
        case .image: .image
        }
    }

    /// A stream's event count, or its first or last event's data: from what was kept of a body
    /// streamed as it arrived, else from the body in memory, cut as its Content-Type says (a
    /// `text/event-stream` into events, anything else into lines).
    private func streamFact(_ fact: ResponseValue) -> Result<ParameterValue, CaptureFailure> {
        let summary: StreamSummary
        if let stream {
            summary = stream
        } else {
            guard let response else { return .failure(.noResponse) }
            do {
                summary = try StreamSummary.of(data, format: StreamFormat(mimeType: response.mimeType) == .eventStream ? .eventStream : .lines)
            } catch {
                return .failure(.unusable("\(error)"))
            }
        }
        let event = fact == .streamFirst ? summary.first : summary.last
        switch fact {
        case .streamEvents: return .success(.integer(Int64(summary.count)))
        default: return event.map { .success(.string($0.data)) } ?? .failure(.unusable("the stream has no events"))
        }
    }

    /// The body's size or digest (lowercase hexadecimal).
    static func bodyFact(_ fact: ResponseValue, of data: [UInt8]) -> ParameterValue {
        switch fact {
        case .bodySHA256: .string(HexText.bytes(SHA256.hash(data: data)))
        case .bodyMD5: .string(HexText.bytes(Insecure.MD5.hash(data: data)))
        default: .integer(Int64(data.count))
        }
    }
}
