import Foundation
import TincanCore

/// A local file a session names: where, what it is, and whether a replay writes it.
public struct SessionFileReference: Sendable, Equatable {
    /// The request that names it (`request 'name'`), or nil for a setting of the whole session.
    public var request: String?
    /// What the path is: `the upload`, `the form file avatar`, `cookies: file`…
    public var what: String
    /// The path as written.
    public var path: String
    /// Whether a replay writes the file (a download, the cookie file) rather than only reading it.
    public var writes: Bool
}

extension Session {
    /// Visits every local file path the session names and sets each to what `visit` returns: a
    /// request's form files, upload, body file and download (kept as they are when it returns
    /// nil), then the session's cookie file, CA file, pins and client certificate and key (left
    /// out when it returns nil). The one list of the files a session touches, which imports
    /// confine and replays warn about.
    mutating func rewriteFileReferences(_ visit: (SessionFileReference) -> String?) {
        for index in requests.indices {
            let request = "request '\(requests[index].displayName)'"
            func visiting(_ path: String, _ what: String, writes: Bool = false) -> String {
                visit(SessionFileReference(request: request, what: what, path: path, writes: writes)) ?? path
            }
            for file in requests[index].files.indices {
                requests[index].files[file].path = visiting(requests[index].files[file].path, "the form file \(requests[index].files[file].field)")
            }
            if let upload = requests[index].upload {
                requests[index].upload?.file = visiting(upload.file, "the upload")
            }
            if case .file(let path)? = requests[index].body {
                requests[index].body = .file(visiting(path, "the body file"))
            }
            if let download = requests[index].download {
                requests[index].download = visiting(download, "the download", writes: true)
            }
        }
        func setting(_ path: String?, _ what: String, writes: Bool = false) -> String? {
            path.flatMap { visit(SessionFileReference(request: nil, what: what, path: $0, writes: writes)) }
        }
        cookieFile = setting(cookieFile, "cookies: file", writes: true)
        defaults.security.caFile = setting(defaults.security.caFile, "defaults: security: ca-file")
        defaults.security.pins = defaults.security.pins.compactMap { setting($0, "defaults: security: pins") }
        defaults.tls.certificate = setting(defaults.tls.certificate, "defaults: tls: cert")
        defaults.tls.key = setting(defaults.tls.key, "defaults: tls: key")
    }

    /// Every local file path the session names, in the order ``rewriteFileReferences(_:)`` visits them.
    public var fileReferences: [SessionFileReference] {
        var references: [SessionFileReference] = []
        var session = self
        session.rewriteFileReferences { reference in
            references.append(reference)
            return reference.path
        }
        return references
    }

    /// The files a session read from `path` reads or writes outside its own folder: a session
    /// someone else wrote says so before it touches them (as it says when it weakens TLS trust).
    /// Paths are judged as ``ImportedPaths/isInside(_:folder:)`` judges an import's, after
    /// `template` expands their variables; one that still needs a value captured from a response
    /// is listed too, as the server then chooses it. Standard input (`-`), a `{{file:NAME}}`
    /// placeholder and a path through any variable the user set (`--var`) are not files the
    /// session chose.
    public func filesOutsideFolder(of path: String, template: Template) -> [OutsideFile] {
        let folder = sessionDirectory(of: path)
        return fileReferences.compactMap { reference in
            if reference.path == RequestDraft.standardInputPath { return nil }
            if let name = Template.soleReference(reference.path), name.hasPrefix(ImportedPaths.placeholderPrefix) { return nil }
            // A path through a variable the user set (`--var`) is the user's choice.
            if Template.references(in: reference.path).contains(where: template.overridden.contains) { return nil }
            guard let expanded = try? template.expand(reference.path) else { return OutsideFile(reference: reference, resolved: nil) }
            return ImportedPaths.isInside(expanded, folder: folder) ? nil : OutsideFile(reference: reference, resolved: expanded)
        }
    }
}

/// A file a session reads or writes outside its folder (``Session/filesOutsideFolder(of:template:)``).
public struct OutsideFile: Sendable, Equatable, CustomStringConvertible {
    public var reference: SessionFileReference
    /// The path with its variables filled in, or nil when it needs a value captured during the run.
    public var resolved: String?

    /// The path to show: the one resolved, else the path as written.
    public var shownPath: String { resolved ?? reference.path }

    /// One sentence: where, what, and the file.
    public var description: String {
        let place = reference.request.map { "\($0): \(reference.what)" } ?? reference.what
        let verb = reference.writes ? "writes" : "reads"
        guard let resolved else {
            return "\(place) \(verb) a file named by values not known before the run (\(reference.path)): a captured response value may choose it"
        }
        return "\(place) \(verb) \(resolved), outside the session's folder"
    }
}
