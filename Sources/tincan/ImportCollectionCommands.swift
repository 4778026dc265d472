import ArgumentParser
import TincanSessions

/// `tincan import openapi|postman|insomnia FILE`: another client's collection as a session.
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
        let abstract = switch format {
        case .openapi: "Import an OpenAPI 3.0 or 3.1 document (YAML or JSON): one request per operation, grouped by tag."
        case .postman: "Import a Postman v2.1 collection: folders become groups."
        case .insomnia: "Import an Insomnia v4 export (JSON or YAML): folders become groups, sub-environments environments."
        }
        return CommandConfiguration(commandName: format.rawValue, abstract: abstract)
    }

    func run() throws {
        let imported: ImportedCollection
        do {
            imported = try Self.format.load(path: file)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
        try output.write(imported.session, pathsFrom: Session.directory(of: file), warnings: imported.notCarried)
    }
}

struct ImportOpenAPI: CollectionImportCommand {
    static let format = CollectionFormat.openapi
    @Argument(help: "The OpenAPI document.") var file: String
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
