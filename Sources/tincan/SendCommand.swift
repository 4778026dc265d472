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

    @Option(name: .customLong("response-serializer"), help: "How the response is validated and decoded: http, json, xml, plist, image or compound.")
    var responseSerializer: String = "compound"

    @Option(name: .customLong("accept-status"), help: "Acceptable status codes, such as 200-299,304.")
    var acceptStatus: String?

    @Option(name: .customLong("accept-type"), help: "Acceptable content types, comma-separated (replaces the serializer's own).")
    var acceptType: String?

    func run() async throws {
        guard let outputFormat = OutputFormat(rawValue: format) else {
            throw CLIFailure.badInput("--format '\(format)' is not a format; expected text or json")
        }
        let draft = try makeDraft()
        let serializer = try makeResponseSerializer()
        let request = try draft.build(boundary: boundary)
        var output = StandardOutput()
        guard !offline else {
            switch outputFormat {
            case .text: output.write(try RequestPreview.text(request))
            case .json: try RequestJSON.write(request, to: &output)
            }
            output.flush()
            return
        }

        var configuration = SendingConfiguration()
        configuration.responseSerializer = serializer
        let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: base), configuration: configuration)
        let task = try manager.dataTask(with: request)
        let progress = isatty(STDERR_FILENO) == 1 ? ProgressLine() : nil
        let watcher = Task {
            for await event in task.events { progress?.show(event) }
        }
        task.resume()
        let result = await task.result()
        _ = await watcher.value
        progress?.clear()
        try? await manager.invalidate(cancelingTasks: true)

        switch outputFormat {
        case .text: output.write(ResponseReport.text(result))
        case .json: try ResponseReport.json(result, to: &output)
        }
        output.flush()
        let code = ResponseReport.exitCode(result)
        if code != .success { throw ExitCode(code.rawValue) }
    }

    /// The response serializer the options ask for.
    func makeResponseSerializer() throws -> any ResponseSerializer {
        guard let kind = ResponseSerializerKind(rawValue: responseSerializer) else {
            throw CLIFailure.badInput("--response-serializer '\(responseSerializer)' is not a serializer; expected http, json, xml, plist, image or compound")
        }
        var statuses: StatusCodeSet?
        if let acceptStatus {
            do {
                statuses = try StatusCodeSet(parsing: acceptStatus)
            } catch {
                throw CLIFailure.badInput("--accept-status \(error)")
            }
        }
        let types = acceptType.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }) }
        var serializer = kind.makeSerializer()
        if let statuses { serializer.acceptableStatusCodes = statuses }
        if let types { serializer.acceptableContentTypes = types }
        return serializer
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
        var headerItems: [RequestItem] = []
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                throw CLIFailure.badInput("-H '\(header)' is not a header; expected 'Name: value'")
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard HTTPHeaders.isValidName(name) else {
                throw CLIFailure.badInput("-H '\(header)': '\(name)' is not a valid header name")
            }
            headerItems.append(value.isEmpty ? .removeHeader(name: name) : .header(name: name, value: value))
        }
        draft.items = headerItems + draft.items
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
