import ArgumentParser
import Foundation
import TincanCore

/// `tincan send [options] METHOD URL [ITEM...]`.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Build one request and send it, or print it with --offline.",
        discussion: """
            Items follow HTTPie's conventions:
              name=value        a string parameter        name:=json   a raw JSON parameter
              name==value       a query-string field      Name:value   a header (Name: removes it)
              field@path        a multipart file          name=@file   a parameter read from a file
            Nested names build nested parameters: user[name]=x tags[]=a tags[]=b.
            """
    )

    @Argument(help: "The method: GET, HEAD, POST, PUT, PATCH, DELETE or any other token.")
    var method: String

    @Argument(help: "The URL: absolute, or relative to --base. Without --base, ':8080/x' means http://localhost:8080/x.")
    var url: String

    @Argument(help: "Request items (see above).")
    var items: [String] = []

    @Option(help: "The session manager's base URL, which URL resolves against.")
    var base: String?

    @Option(help: "How parameters become a body: form, json, plist or multipart.")
    var serializer: String = "form"

    @Option(name: .customLong("params-json"), help: "The parameters as one JSON value, with its exact nested structure.")
    var paramsJSON: String?

    @Option(name: .customShort("H"), help: "A per-request header 'Name: value'; it replaces a default of the same name. Repeatable.")
    var headers: [String] = []

    @Option(help: "The request timeout in seconds.")
    var timeout: Double?

    @Option(help: "Basic authentication as name:password (name alone asks for the password on a terminal).")
    var user: String?

    @Option(help: "Output format: text (the wire form) or json.")
    var format: String = "text"

    @Flag(help: "Print the request that would be sent, without sending it.")
    var offline = false

    @Option(help: "A fixed multipart boundary, for reproducible output.")
    var boundary: String?

    func run() async throws {
        guard let outputFormat = OutputFormat(rawValue: format) else {
            throw CLIFailure.badInput("--format '\(format)' is not a format; expected text or json")
        }
        let draft = try makeDraft()
        let request = try draft.build(boundary: boundary)
        guard offline else {
            throw CLIFailure.badInput("sending is not available in this build yet; add --offline to print the request")
        }
        var output = StandardOutput()
        switch outputFormat {
        case .text: output.write(try RequestPreview.text(request))
        case .json: try RequestJSON.write(request, to: &output)
        }
        output.flush()
    }

    /// Turns the arguments into a draft, naming the argument at fault on bad input.
    func makeDraft() throws -> RequestDraft {
        guard HTTPMethod.isValid(method) else {
            throw CLIFailure.badInput("METHOD '\(method)' is not a method; expected GET, HEAD, POST, PUT, PATCH, DELETE or another token")
        }
        guard let kind = SerializerKind(rawValue: serializer) else {
            throw CLIFailure.badInput("--serializer '\(serializer)' is not a serializer; expected form, json, plist or multipart")
        }
        var draft = RequestDraft(method: method, url: url, baseURL: base)
        draft.serializer = kind
        if let paramsJSON {
            do {
                draft.parameters = try JSONParser.parse(paramsJSON)
            } catch {
                throw CLIFailure.badInput("--params-json is not valid JSON: \(error)")
            }
        }
        draft.items = try items.map { text in
            do {
                return try RequestItem.parse(text)
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                throw CLIFailure.badInput("-H '\(header)' is not a header; expected 'Name: value'")
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard HTTPHeaders.isValidName(name) else {
                throw CLIFailure.badInput("-H '\(header)': '\(name)' is not a valid header name")
            }
            draft.items.insert(value.isEmpty ? .removeHeader(name: name) : .header(name: name, value: value), at: draft.items.startIndex)
        }
        if let timeout {
            guard timeout > 0, timeout.isFinite else {
                throw CLIFailure.badInput("--timeout \(timeout) is not a duration; expected a positive number of seconds")
            }
            draft.observed.timeoutInterval = timeout
        }
        if let user {
            draft.credentials = try credentials(from: user)
        }
        return draft
    }

    private func credentials(from text: String) throws -> RequestDraft.Credentials {
        if let colon = text.firstIndex(of: ":") {
            return .init(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        }
        guard isatty(STDIN_FILENO) == 1, let password = getpass("Password for \(text): ") else {
            throw CLIFailure.badInput("--user '\(text)' has no password and there is no terminal to ask; expected name:password")
        }
        return .init(user: text, password: String(cString: password))
    }
}

/// The output formats of `send`.
enum OutputFormat: String {
    case text
    case json
}
