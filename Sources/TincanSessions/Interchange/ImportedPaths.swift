import Foundation
import OrderedCollections
import TincanCore

/// The local files an import makes a session read or write (issue 36 §1): a collection from
/// someone else must not turn into reading the importer's own files.
///
/// Every path is named in a warning. A relative path that stays inside the imported file's
/// folder (the current folder for a curl command) is kept. One that does not (absolute, with
/// `~`, with a `..` that climbs out, through a symbolic link that leads out, or made of
/// variables, whose value nobody has checked) is replaced by a placeholder, `{{file:NAME}}`:
/// replay, export and the TUI refuse the request, naming it, until the user sets it
/// (`--var file:NAME=PATH`, or under `variables:`), which is their consent. A collection
/// cannot set it itself: imported variables of such names are dropped.
public enum ImportedPaths {
    /// What every placeholder's variable name starts with.
    public static let placeholderPrefix = "file:"

    /// Where an import came from, for the warnings' words.
    public enum Origin: Sendable {
        /// A collection file: paths are read from its folder.
        case file
        /// A command typed here (curl): paths are read from the current folder.
        case commandLine

        var folderWords: String {
            switch self {
            case .file: "the imported file's folder"
            case .commandLine: "the current folder"
            }
        }
    }

    /// Whether `path`, read from `folder`, stays inside it: no variable, no `..` that climbs
    /// out, and no symbolic link on the way that leads out. An absolute path (or one from `~`)
    /// is inside only when it names a place in the folder.
    public static func isInside(_ path: String, folder: String) -> Bool {
        guard !path.isEmpty, !Template.mayHoldReferences(path), !isWindowsAbsolute(path) else { return false }
        let base = SavedRequest.realDirectory(folder)
        let prefix = base.hasSuffix("/") ? base : base + "/"
        let full: String
        if path.hasPrefix("/") || path.hasPrefix("~") {
            full = ((path as NSString).expandingTildeInPath as NSString).standardizingPath
            guard full.hasPrefix(prefix) else { return false }
        } else {
            var depth = 0
            for component in path.split(separator: "/", omittingEmptySubsequences: true) {
                switch component {
                case ".": continue
                case "..":
                    depth -= 1
                    if depth < 0 { return false }
                default: depth += 1
                }
            }
            full = (base as NSString).appendingPathComponent(path)
        }
        // A link inside the folder can point anywhere: what exists is judged by where it leads.
        guard FileManager.default.fileExists(atPath: full) else { return true }
        let real = ((full as NSString).resolvingSymlinksInPath as NSString).standardizingPath
        return real.hasPrefix(prefix)
    }

    /// Whether `path` is an absolute Windows path (`C:\…`, `C:/…`, `\\server\share\…`), as
    /// collections exported on Windows name their files (Insomnia's `fileName`, Bruno's
    /// `@file(…)`): a place on the machine that wrote the collection, never in this folder,
    /// though on this system it reads as one relative name.
    static func isWindowsAbsolute(_ path: String) -> Bool {
        if path.hasPrefix(#"\\"#) { return true }
        let start = Array(path.utf8.prefix(3))
        guard start.count == 3, start[1] == UInt8(ascii: ":"), start[2] == UInt8(ascii: "\\") || start[2] == UInt8(ascii: "/") else { return false }
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(start[0] | 0x20)
    }

    /// A placeholder's name (without the prefix) for `path`: its last component (after a `/`,
    /// or a Windows path's `\`), without the characters a reference cannot hold.
    static func placeholderName(for path: String) -> String {
        let windows = isWindowsAbsolute(path)
        let last = path.split(whereSeparator: { $0 == "/" || (windows && $0 == "\\") }).last.map(String.init) ?? ""
        let cleaned = last.filter { $0 != "{" && $0 != "}" && !$0.isWhitespace && $0 != "=" }
        return cleaned.isEmpty || cleaned == "/" ? "file" : cleaned
    }

    /// Keeps `session`'s paths inside `folder`, replacing the others by placeholders; returns
    /// the warnings, one per path.
    static func confine(_ session: inout Session, folder: String, origin: Origin) -> [String] {
        var confiner = Confiner(folder: folder, origin: origin)
        session.rewriteFileReferences { reference in
            guard let request = reference.request else { return confiner.keep(reference.path, what: reference.what) }
            return confiner.check(reference.path, place: request, what: reference.what, writes: reference.writes)
        }
        return confiner.warnings
    }

    /// Variables named like placeholders, which only the user may set: dropped from what an
    /// import brings, each named.
    static func dropPlaceholderVariables(_ session: inout Session) -> [String] {
        var warnings: [String] = []
        func drop(_ variables: inout OrderedDictionary<String, ParameterValue>, place: String) {
            for name in Array(variables.keys) where name.hasPrefix(placeholderPrefix) {
                variables[name] = nil
                warnings.append("\(place): the variable \(name) is not carried over: names starting with \(placeholderPrefix) choose local files, which only you set")
            }
        }
        drop(&session.variables, place: "variables")
        for name in session.environments.keys {
            drop(&session.environments[name]!, place: "environment '\(name)'")
        }
        for index in session.requests.indices {
            drop(&session.requests[index].variables, place: "request '\(session.requests[index].displayName)'")
        }
        return warnings
    }

    /// Walks a session's paths, keeping a placeholder per distinct path left outside.
    private struct Confiner {
        let folder: String
        let origin: Origin
        var warnings: [String] = []
        /// The placeholder given to each path, and the paths each name was given for.
        var placeholders: [String: String] = [:]
        var taken: Set<String> = []

        init(folder: String, origin: Origin) {
            self.folder = folder
            self.origin = origin
        }

        /// A setting of the whole session, kept (named) when its path is inside, else left out
        /// (named): it is not read through variables.
        mutating func keep(_ path: String, what: String) -> String? {
            if isInside(path, folder: folder) {
                warnings.append("\(what): the session reads the local file \(path), in \(origin.folderWords)")
                return path
            }
            warnings.append("\(what): \(path) is outside \(origin.folderWords), so it is not carried over; Tincan reads no file there that you did not name yourself")
            return nil
        }

        /// The path kept (named), or its placeholder (named, with how to set it).
        mutating func check(_ path: String, place: String, what: String, writes: Bool) -> String {
            // Standard input is not a file.
            if path == "-" { return path }
            let verb = writes ? "writes" : "reads"
            if isInside(path, folder: folder) {
                warnings.append("\(place): \(what) \(verb) the local file \(path), in \(origin.folderWords)")
                return path
            }
            if let name = Template.soleReference(path), name.hasPrefix(placeholderPrefix) {
                warnings.append("\(place): \(what) is {{\(name)}}, which you set to the file (--var '\(name)=PATH') before it \(verb) anything")
                return path
            }
            let placeholder = placeholder(for: path)
            warnings.append("\(place): \(what) names \(path), outside \(origin.folderWords); Tincan \(verb) no such file without your consent, so the request keeps {{\(placeholder)}}: set it to the file (--var '\(placeholder)=PATH', or \(placeholder): PATH under variables:)")
            return "{{\(placeholder)}}"
        }

        mutating func placeholder(for path: String) -> String {
            if let known = placeholders[path] { return known }
            let base = ImportedPaths.placeholderPrefix + ImportedPaths.placeholderName(for: path)
            var name = base
            var number = 2
            while taken.contains(name) {
                name = "\(base)-\(number)"
                number += 1
            }
            taken.insert(name)
            placeholders[path] = name
            return name
        }
    }
}
