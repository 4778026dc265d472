import Foundation

extension SavedRequest {
    /// The request with its relative file paths (form files, upload, download, a file body)
    /// rewritten so that, read from `target` as a session reads them, they name the files they
    /// named when read from `source`. Absolute paths, `~` and paths with `{{variables}}` stay.
    ///
    /// An import uses it: curl's paths are relative to where curl runs, a `.http` file's to its
    /// folder, and a session's to the session file's folder.
    public func rebasingPaths(from source: String, to target: String) -> SavedRequest {
        // Most requests name no file: no folder is resolved for them (a stat per path component).
        let bodyFile = if case .file? = body { true } else { false }
        guard !files.isEmpty || upload != nil || download != nil || bodyFile else { return self }
        let from = Self.realDirectory(source)
        let to = Self.realDirectory(target)
        guard from != to else { return self }
        func rebase(_ path: String) -> String {
            guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.contains("{{") else { return path }
            return Self.relativePath(of: (from as NSString).appendingPathComponent(path), from: to)
        }
        var request = self
        request.files = files.map { SavedFile(field: $0.field, path: rebase($0.path), type: $0.type) }
        request.upload = upload.map { SavedUpload(file: rebase($0.file), rate: $0.rate) }
        request.download = download.map(rebase)
        if case .file(let path)? = body { request.body = .file(rebase(path)) }
        return request
    }

    /// A folder as an absolute path with its symbolic links resolved, so `..` steps are real.
    static func realDirectory(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return (((absolute as NSString).standardizingPath as NSString).resolvingSymlinksInPath as NSString).standardizingPath
    }

    /// `path` (absolute) relative to the folder `directory` (absolute, links resolved).
    static func relativePath(of path: String, from directory: String) -> String {
        let target = ((path as NSString).standardizingPath as NSString).pathComponents
        let base = (directory as NSString).pathComponents
        var common = 0
        while common < min(target.count, base.count), target[common] == base[common] { common += 1 }
        let steps = Array(repeating: "..", count: base.count - common) + target[common...]
        return steps.isEmpty ? "." : NSString.path(withComponents: steps)
    }
}
