import Foundation
import TincanCore
import TincanSessions

/// A body the request sends as it is, rather than the parameters its serializer encodes: what a
/// session file's `body:` or `upload:` holds. The Body tab shows and edits each kind.
public enum BodySource: Sendable, Equatable {
    /// UTF-8 text (`body: "..."`), with the Content-Type its header row gives.
    case text(String)
    /// Bytes (`body: {base64: ...}`), edited as base64.
    case base64([UInt8])
    /// A file read when the request is sent (`body: {file: path}`).
    case file(String)
    /// A file streamed as the body, with an optional rate limit (`upload:`).
    case upload(SavedUpload)
    /// A GraphQL operation (`body: {graphql: …}`), edited as ``GraphQLEditorText``.
    case graphql(GraphQLQuery)

    /// The kinds the Body tab offers: the parameters, then each raw kind.
    enum Kind: String, CaseIterable {
        case parameters, text, base64, file, upload, graphql

        /// What the picker says about it.
        var choice: String {
            switch self {
            case .parameters: "parameters: the tree, encoded by the serializer"
            case .text: "text: XML, plain text, anything, as typed"
            case .base64: "bytes: written as base64"
            case .file: "file: read when the request is sent"
            case .upload: "upload: a file streamed, at a rate if given"
            case .graphql: "graphql: a query with its variables, sent as JSON"
            }
        }
    }

    /// The body a saved request sends as it is, or nil when its parameters are the body.
    init?(_ saved: SavedRequest) {
        if let upload = saved.upload {
            self = .upload(upload)
            return
        }
        switch saved.body {
        case .text(let text)?: self = .text(text)
        case .base64(let bytes)?: self = .base64(bytes)
        case .file(let path)?: self = .file(path)
        case .graphql(let operation)?: self = .graphql(operation)
        case nil: return nil
        }
    }

    var kind: Kind {
        switch self {
        case .text: .text
        case .base64: .base64
        case .file: .file
        case .upload: .upload
        case .graphql: .graphql
        }
    }
}

extension Optional where Wrapped == BodySource {
    /// Writes the body into a saved request's `body:` and `upload:` (nil clears both).
    func write(into request: inout SavedRequest) {
        request.body = nil
        request.upload = nil
        switch self {
        case .text(let text)?: request.body = .text(text)
        case .base64(let bytes)?: request.body = .base64(bytes)
        case .file(let path)?: request.body = .file(path)
        case .upload(let upload)?: request.upload = upload
        case .graphql(let operation)?: request.body = .graphql(operation)
        case nil: break
        }
    }

    /// The kind the Body tab shows.
    var kind: BodySource.Kind { self?.kind ?? .parameters }
}
