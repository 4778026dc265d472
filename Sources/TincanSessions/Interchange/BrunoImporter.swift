import Foundation
import OrderedCollections
import TincanCore

/// Imports a Bruno collection: a folder with `bruno.json`, `.bru` request files in folders
/// (each may hold a `folder.bru`), `collection.bru` and `environments/*.bru`, walked as Bruno's
/// CLI walks it (folders first, by name and `seq`, then requests by `seq`; `node_modules`,
/// `.git` and `bruno.json`'s `ignore` left out). A collection in Bruno's YAML format (with
/// `opencollection.yml`, which Bruno reads first when a folder has both) has `.yml` files in
/// the same places, each read as the `.bru` file it stands for (``BrunoYAML``).
///
/// What Bruno applies from the collection and its folders applies here: the collection's
/// headers are the session's default headers, a folder's go before its requests' own (a name
/// given again replaces them, as Bruno's map of headers does), `auth: inherit` takes the
/// nearest folder's auth (else the collection's), collection variables are the session's, and
/// folder and request variables (`vars:pre-request`) the requests' own, over an environment's.
/// `vars:post-response` become captures and `assert` checks, where Tincan has the same.
struct BrunoImporter {
    /// The most `.bru` files a collection may hold, and the most bytes they may hold together:
    /// an import of any folder stays within memory.
    static let maximumFiles = 50_000
    static let maximumBytes = CollectionFormat.maximumFileBytes

    /// A folder of the collection as read: its `folder.bru` and what it holds.
    struct Folder {
        var name: String
        var seq: Int?
        var file: BrunoFile?
        var folders: [Folder] = []
        var requests: [(file: BrunoFile, name: String, seq: Int)] = []
    }

    /// The two ways Bruno keeps a collection.
    enum Format {
        case bru
        case yml

        var fileExtension: String { self == .bru ? "bru" : "yml" }
        var folderFile: String { self == .bru ? "folder.bru" : "folder.yml" }
        var collectionFile: String { self == .bru ? "collection.bru" : "opencollection.yml" }
    }

    let root: String
    var format = Format.bru
    var notCarried: [String] = []
    var session = Session()
    var requests: [SavedRequest] = []
    var folderVariables = FolderVariables()
    var filesRead = 0
    var bytesRead = 0
    var ignored: Set<String> = ["node_modules", ".git"]
    /// Told the bytes read, as the files are.
    var progress: ImportProgress?

    init(root: String) {
        self.root = root
    }

    // MARK: - Entry points

    /// Imports the collection in the folder `path` (or the folder of the `bruno.json` it names;
    /// a single `.bru` file imports that request alone).
    ///
    /// - Throws: ``ConfigFileError`` naming the file, line and column.
    static func load(path: String, progress: ImportProgress? = nil) throws -> ImportedCollection {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ConfigFileError(file: path, line: nil, column: nil, reason: .unreadable)
        }
        var folder = path
        if !isFolder.boolValue {
            if path.hasSuffix(".bru") {
                let bytes = try ConfigFile.readText(path: path, limit: maximumBytes)
                return try parse(files: [(path, String(decoding: bytes, as: UTF8.self))], root: Session.directory(of: path))
            }
            if path.lowercased().hasSuffix(".yml"), !["opencollection.yml", "folder.yml"].contains((path as NSString).lastPathComponent) {
                var importer = BrunoImporter(root: Session.directory(of: path))
                importer.format = .yml
                var top = Folder(name: "")
                if let file = try importer.read(path, as: .request) {
                    top.requests.append((file, ((path as NSString).lastPathComponent as NSString).deletingPathExtension, 1))
                }
                importer.session.name = "Imported from Bruno"
                importer.walk(top, folders: [], headers: [], auth: nil, scopes: [], captures: [:])
                var imported = importer.finished()
                imported.finish(folder: importer.root)
                return imported
            }
            guard ["bruno.json", "opencollection.yml"].contains((path as NSString).lastPathComponent) else {
                throw ConfigFileError(file: path, line: 1, column: 1, message: "expected \(CollectionFormat.bruno.expected) (give the folder, its bruno.json, or one .bru file)")
            }
            folder = Session.directory(of: path)
        }
        var importer = BrunoImporter(root: folder)
        importer.progress = progress
        var imported = try importer.run()
        imported.finish(folder: folder, progress: progress)
        return imported
    }

    /// Imports `.bru` request files given as text, as one collection's top level; their
    /// relative files are read from `root`.
    static func parse(files: [(path: String, text: String)], root: String) throws -> ImportedCollection {
        var importer = BrunoImporter(root: root)
        var top = Folder(name: "")
        for (path, text) in files {
            let file = try BrunoFile.parse(BoundedFile.droppingByteOrderMark(text), path: path)
            let seq = file.value("seq", in: "meta").flatMap { Int($0) } ?? 1
            top.requests.append((file, ((path as NSString).lastPathComponent as NSString).deletingPathExtension, seq))
        }
        importer.session.name = "Imported from Bruno"
        importer.walk(top, folders: [], headers: [], auth: nil, scopes: [], captures: [:])
        var imported = importer.finished()
        imported.finish(folder: root)
        return imported
    }

    mutating func run() throws -> ImportedCollection {
        // As Bruno tells them apart: opencollection.yml first, else bruno.json.
        let openCollection = (root as NSString).appendingPathComponent("opencollection.yml")
        let configPath = (root as NSString).appendingPathComponent("bruno.json")
        if FileManager.default.fileExists(atPath: openCollection) {
            format = .yml
            let config = try ImportDocument.load(path: openCollection, limit: 1 << 20, expected: "opencollection.yml: a mapping with the collection's info")
            session.name = config.root.member("info")?.member("name")?.nonNullText ?? (root as NSString).lastPathComponent
            ignored.formUnion(BrunoYAML.ignored(config))
            noteConfig(config)
        } else {
            guard FileManager.default.fileExists(atPath: configPath) else {
                throw ConfigFileError(file: root, line: nil, column: nil, message: "expected \(CollectionFormat.bruno.expected); there is no bruno.json (nor opencollection.yml)")
            }
            let config = try ImportDocument.load(path: configPath, limit: 1 << 20, expected: "bruno.json: a JSON object with the collection's name")
            session.name = config.root.member("name")?.nonNullText ?? (root as NSString).lastPathComponent
            for item in config.root.member("ignore")?.sequence ?? [] {
                if let name = item.nonNullText { ignored.insert(name) }
            }
            noteConfig(config)
        }
        let collectionFile = try read((root as NSString).appendingPathComponent(format.collectionFile), as: .collection)
        try readEnvironments()
        var top = try folder(at: root, name: "", isRoot: true)
        top.file = collectionFile
        var headers: [HeaderSetting] = []
        var auth: BrunoAuth?
        var captures: OrderedDictionary<String, CaptureSource> = [:]
        if let collectionFile {
            // The collection's headers are what every request gets: the session's defaults.
            let place = relative(collectionFile.path)
            session.defaults.headers = brunoHeaders(collectionFile.pairs("headers"), place: place)
            auth = BrunoAuth(collectionFile, inherited: nil)
            for pair in collectionFile.pairs("vars:pre-request") {
                guard pair.isEnabled else {
                    notCarried.append("\(place): the disabled variable \(pair.name) is not carried over")
                    continue
                }
                session.variables[Self.variableName(pair.name)] = typed(pair)
            }
            captures = responseVariables(collectionFile, place: place)
            notCarryScripts(collectionFile, place: place)
        }
        walk(top, folders: [], headers: headers, auth: auth, scopes: [], captures: captures)
        headers = []
        return finished()
    }

    /// The session with its requests and their variables placed.
    mutating func finished() -> ImportedCollection {
        session.requests = requests
        folderVariables.place(into: &session)
        return ImportedCollection(session: session, notCarried: notCarried)
    }

    /// What `bruno.json` (or `opencollection.yml`'s `config:`) sets that a session keeps
    /// elsewhere, or not at all.
    mutating func noteConfig(_ config: ImportDocument) {
        let place = relative(config.path)
        if format == .yml {
            let settings = config.root.member("config")
            if let proxy = settings?.member("proxy"), proxy.member("inherit")?.isTrue == false, !(proxy.member("disabled")?.isTrue ?? false) {
                notCarried.append("\(place): the proxy is not carried over; set proxy: under defaults: in the session")
            }
            if !(settings?.member("clientCertificates")?.sequence?.isEmpty ?? true) {
                notCarried.append("\(place): client certificates are not carried over; set tls: under defaults: in the session")
            }
        }
        if let proxy = config.root.member("proxy"), proxy.member("enabled")?.isTrue == true || proxy.member("mode")?.nonNullText == "on" {
            notCarried.append("\(place): the proxy is not carried over; set proxy: under defaults: in the session")
        }
        if let certificates = config.root.member("clientCertificates"), !(certificates.member("certs")?.sequence?.isEmpty ?? true) {
            notCarried.append("\(place): client certificates are not carried over; set tls: under defaults: in the session")
        }
        if FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent(".env")) {
            notCarried.append(".env: not read; {{process.env.NAME}} becomes {{$env.NAME}}, which reads NAME from Tincan's environment")
        }
    }

    // MARK: - Files

    /// A `.bru` file's parse (or the `.bru` file a `.yml` one stands for), or nil when there is
    /// none (or it is no request, named).
    mutating func read(_ path: String, as role: BrunoYAML.Role) throws -> BrunoFile? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            notCarried.append("\(relative(path)): not read: a collection's files are read only when they are files inside it (this is a link or a device)")
            return nil
        }
        filesRead += 1
        guard filesRead <= Self.maximumFiles else {
            throw ConfigFileError(file: root, line: nil, column: nil, message: "the collection holds more than \(Self.maximumFiles) .bru files, the most an import reads")
        }
        let bytes = try ConfigFile.readText(path: path, limit: Self.maximumBytes)
        bytesRead += bytes.count
        progress?(.reading(bytes: bytesRead))
        guard bytesRead <= Self.maximumBytes else {
            throw ConfigFileError(file: root, line: nil, column: nil, message: "the collection's .bru files hold more than \(RequestPreview.byteCount(Int64(Self.maximumBytes))) together, the most an import reads")
        }
        guard format == .yml else { return try BrunoFile.parse(String(decoding: bytes, as: UTF8.self), path: path) }
        let document = try ImportDocument.parse(bytes, path: path, expected: "a Bruno YAML file: a mapping with info:")
        let (file, skipped) = try BrunoYAML.file(document, as: role)
        if let skipped { notCarried.append("\(relative(path)): not carried over: \(skipped)") }
        return file
    }

    /// `path` relative to the collection's folder, for warnings.
    func relative(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// The folder at `path`: its `folder.bru`, its folders and its requests, in Bruno's order.
    mutating func folder(at path: String, name: String, isRoot: Bool) throws -> Folder {
        var folder = Folder(name: name)
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw ConfigFileError(file: path, line: nil, column: nil, reason: .unreadable)
        }
        for entry in entries {
            let full = (path as NSString).appendingPathComponent(entry)
            if ignored.contains(entry) || (isRoot && entry == "environments") { continue }
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                var child = try self.folder(at: full, name: entry, isRoot: false)
                if let file = try read((full as NSString).appendingPathComponent(format.folderFile), as: .folder) {
                    child.file = file
                    child.name = file.value("name", in: "meta").flatMap { $0.isEmpty ? nil : $0 } ?? entry
                    child.seq = file.value("seq", in: "meta").flatMap { Int($0) }
                }
                folder.folders.append(child)
            case S_IFLNK:
                if entry.hasSuffix(".\(format.fileExtension)") || FileManager.default.fileExists(atPath: full) {
                    notCarried.append("\(relative(full)): not read: it is a symbolic link, and an import reads no file outside the collection")
                }
            default:
                guard entry.lowercased().hasSuffix(".\(format.fileExtension)"), entry != format.folderFile, !(isRoot && entry == format.collectionFile),
                      let file = try read(full, as: .request) else { continue }
                let seq = file.value("seq", in: "meta").flatMap { Int($0) } ?? 1
                folder.requests.append((file, (entry as NSString).deletingPathExtension, seq))
            }
        }
        folder.folders = Self.ordered(folder.folders)
        folder.requests = folder.requests.enumerated().sorted { ($0.element.seq, $0.offset) < ($1.element.seq, $1.offset) }.map(\.element)
        return folder
    }

    /// Folders as Bruno's CLI orders them: by name, then each with a `seq` moved to that place.
    static func ordered(_ folders: [Folder]) -> [Folder] {
        let byName = folders.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        var result = byName.filter { ($0.seq ?? 0) <= 0 }
        for folder in byName.filter({ ($0.seq ?? 0) > 0 }).sorted(by: { $0.seq! < $1.seq! }) {
            result.insert(folder, at: min(folder.seq! - 1, result.count))
        }
        return result
    }

    /// `environments/*.bru`: each an environment of its file's name.
    mutating func readEnvironments() throws {
        let folder = (root as NSString).appendingPathComponent("environments")
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries.sorted() where entry.lowercased().hasSuffix(".\(format.fileExtension)") {
            let path = (folder as NSString).appendingPathComponent(entry)
            guard let file = try read(path, as: .environment) else { continue }
            // A YAML environment names itself; a .bru one is named by its file.
            var name = (entry as NSString).deletingPathExtension
            if let own = file.value("name", in: "meta"), !own.isEmpty { name = own }
            var variables: OrderedDictionary<String, ParameterValue> = [:]
            for pair in file.pairs("vars") {
                guard pair.isEnabled else {
                    notCarried.append("environment '\(name)': the disabled variable \(pair.name) is not carried over")
                    continue
                }
                variables[pair.name] = typed(pair)
            }
            for block in file.blocks where block.name == "vars:secret" {
                if case .list(let names) = block.content, !names.isEmpty {
                    notCarried.append("environment '\(name)': the secret variables \(names.joined(separator: ", ")) hold no value in the file; give them with --var or {{$env.NAME}}")
                }
            }
            session.environments[name] = variables
        }
    }

    /// A variable's value, typed as its annotation says (`@number`, `@boolean`, `@object`).
    func typed(_ pair: BrunoFile.Pair) -> ParameterValue {
        let text = Self.convert(pair.value)
        if pair.annotations["number"] != nil, let number = try? JSONParser.parse(text), case .integer = number { return number }
        if pair.annotations["number"] != nil, let number = Double(text.trimmingWhitespace()), number.isFinite { return .double(number) }
        if pair.annotations["boolean"] != nil, text == "true" || text == "false" { return .bool(text == "true") }
        if pair.annotations["object"] != nil, let object = try? JSONParser.parse(text), object.isCollection { return object }
        return .string(text)
    }

    /// A request variable's name without Bruno's `@` (a variable of the request alone).
    static func variableName(_ name: String) -> String {
        name.hasPrefix("@") ? String(name.dropFirst()) : name
    }

    /// Bruno's references as Tincan's: `{{process.env.NAME}}` is `{{$env.NAME}}`, and dynamic
    /// variables are Postman's (``PostmanImporter/convert(_:)``).
    static func convert(_ text: String) -> String {
        guard Template.mayHoldReferences(text) else { return text }
        return Template.replacingReferences(in: text) { name in
            if name.hasPrefix("process.env.") { return "{{$env.\(name.dropFirst("process.env.".count))}}" }
            if name == "$guid" || name == "$randomUUID" { return "{{$uuid}}" }
            return "{{\(name)}}"
        }
    }

    /// Scripts and tests, which Tincan does not run: each named.
    mutating func notCarryScripts(_ file: BrunoFile, place: String) {
        for (block, kind) in [("script:pre-request", "pre-request script"), ("script:post-response", "post-response script"), ("tests", "test script")] {
            guard let text = file.text(block), !text.trimmingWhitespaceAndNewlines().isEmpty else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            notCarried.append("\(place): the \(kind) (\(lines) line\(lines == 1 ? "" : "s")) is not carried over; use capture: and assert: instead")
        }
    }
}
