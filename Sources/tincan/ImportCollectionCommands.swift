import ArgumentParser
import Foundation
import TincanSessions

/// `tincan import openapi|postman|insomnia|bruno FILE`: another client's collection as a session.
protocol CollectionImportCommand: ParsableCommand {
    /// The format the file is read as.
    static var format: CollectionFormat { get }
    /// The file to import.
    var file: String { get }
    /// Where the session goes.
    var output: ImportOutput { get }
}

extension CollectionImportCommand {
    static var configuration: CommandConfiguration {
        switch format {
        case .openapi:
            CommandConfiguration(commandName: "openapi", abstract: "Import an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (YAML or JSON): one request per operation, grouped by tag.",
                                 aliases: ["swagger"])
        case .postman:
            CommandConfiguration(commandName: "postman", abstract: "Import a Postman collection (v2.1 or v2.0): folders become groups.")
        case .insomnia:
            CommandConfiguration(commandName: "insomnia", abstract: "Import an Insomnia export, v4 (JSON or YAML) or v5 (YAML): folders become groups, sub-environments environments.")
        case .bruno:
            CommandConfiguration(commandName: "bruno", abstract: "Import a Bruno collection: its folder (with bruno.json), folders become groups, environments/ environments.")
        }
    }

    func run() throws {
        let progress = ImportProgressLine.start(importing: file)
        let imported: ImportedCollection
        do {
            defer { progress?.finish() }
            imported = try Self.format.load(path: file, progress: progress?.reporter)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
        // A Bruno collection's files are read from the collection's folder, the others' from the file's.
        var isFolder: ObjCBool = false
        let folder = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && isFolder.boolValue ? file : Session.directory(of: file)
        try output.write(imported.session, pathsFrom: folder, warnings: imported.notCarried)
    }
}

struct ImportOpenAPI: CollectionImportCommand {
    static let format = CollectionFormat.openapi
    @Argument(help: "The OpenAPI or Swagger document.") var file: String
    @OptionGroup var output: ImportOutput
}

struct ImportPostman: CollectionImportCommand {
    static let format = CollectionFormat.postman
    @Argument(help: "The collection (*.postman_collection.json).") var file: String
    @OptionGroup var output: ImportOutput
}

struct ImportInsomnia: CollectionImportCommand {
    static let format = CollectionFormat.insomnia
    @Argument(help: "The export (JSON or YAML).") var file: String
    @OptionGroup var output: ImportOutput
}

struct ImportBruno: CollectionImportCommand {
    static let format = CollectionFormat.bruno
    @Argument(help: "The collection's folder (or its bruno.json; one .bru file imports one request).") var file: String
    @OptionGroup var output: ImportOutput
}
