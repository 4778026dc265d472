import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

/// A shared collection never makes Tincan read local files without the user's consent
/// (issue 36 §1): every path an import would read is named, and one outside the imported
/// file's folder is a placeholder that replay, export and the TUI refuse until it is set.
@Suite("Local files a collection names stay in its folder, or wait for the user's say")
struct ImportedPathsTests {
    static let outside = ["/home/u/.ssh/id_rsa", "~/.ssh/id_rsa", "../../etc/passwd", "data/../../../etc/passwd", "{{dir}}/id_rsa"]

    @Test("a path is inside the folder when it is relative and stays there, or absolute and names a place there", arguments: [
        ("photo.png", true), ("./a/b.png", true), ("a/../b.png", true), ("a/./../../b.png", false),
        ("/etc/passwd", false), ("~/x", false), ("../x", false), ("{{dir}}/x", false), ("", false),
        (#"C:\Users\ana\cat.png"#, false), ("d:/photos/cat.png", false), (#"\\server\share\cat.png"#, false), (#"photos\cat.png"#, true),
    ])
    func insideOrNot(_ path: String, _ inside: Bool) {
        #expect(ImportedPaths.isInside(path, folder: "/srv/collection") == inside, "\(path)")
    }

    @Test("an absolute path into the folder is inside; a symbolic link in the folder that leads out is not")
    func linksAreFollowed() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("kept.txt", Array("x".utf8))
        #expect(ImportedPaths.isInside(directory.path + "/kept.txt", folder: directory.path))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/ssh", withDestinationPath: "/etc")
        #expect(!ImportedPaths.isInside("ssh/passwd", folder: directory.path))
    }

    @Test("Postman: a form file and a file body outside the folder are placeholders, each named with the path it stood for", arguments: outside)
    func postman(_ path: String) throws {
        let text = """
            {"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [
              {"name": "form", "request": {"method": "POST", "url": "http://h/", "body": {"mode": "formdata", "formdata": [{"key": "key", "type": "file", "src": \(JSONWriter.string(.string(path)))}]}}},
              {"name": "file", "request": {"method": "PUT", "url": "http://h/", "body": {"mode": "file", "file": {"src": \(JSONWriter.string(.string(path)))}}}}
            ]}
            """
        let imported = try imported(.postman, text, path: "/srv/collection/c.json")
        let form = try importedRequest(imported.session, "form")
        let written = form.files[0].path
        #expect(written.hasPrefix("{{file:") && written.hasSuffix("}}"), "\(written)")
        let placeholder = String(written.dropFirst(2).dropLast(2))
        #expect(try importedRequest(imported.session, "file").upload?.file == "{{\(placeholder)}}", "one path, one placeholder")
        #expect(imported.notCarried.contains { $0.hasPrefix("request 'form': the form file key names \(path), outside the imported file's folder") && $0.contains("{{\(placeholder)}}") })
    }

    @Test("Insomnia, Bruno, a .http file, HAR and curl: the same rule, one class of input")
    func everyImporter() throws {
        let insomnia = #"{"_type": "export", "__export_format": 4, "resources": [{"_id": "r", "_type": "request", "name": "r", "method": "PUT", "url": "http://h/", "body": {"fileName": "/etc/shadow"}}]}"#
        #expect(try imported(.insomnia, insomnia, path: "/srv/i.json").session.requests[0].upload == SavedUpload(file: "{{file:shadow}}"))
        let bruno = "post {\n  url: http://h/\n  body: multipartForm\n}\n\nbody:multipart-form {\n  key: @file(../../.ssh/id_rsa)\n}\n"
        #expect(try CollectionFormat.bruno.parse(bruno, path: "/srv/c/r.bru").session.requests[0].files == [SavedFile(field: "key", path: "{{file:id_rsa}}")])
        let http = try HTTPFile.parse("POST http://h/\nContent-Type: text/plain\n\n< /etc/passwd\n", path: "/srv/a.http")
        #expect(http.session.requests[0].body == .file("{{file:passwd}}"))
        #expect(http.warnings.contains { $0.contains("names /etc/passwd, outside the imported file's folder") })
        let har = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "POST", "url": "http://h/", "headers": [], "postData": {"mimeType": "multipart/form-data", "params": [{"name": "f", "fileName": "/etc/passwd"}]}}, "response": {"status": 0}}]}}"#
        #expect(try HAR.parse(Array(har.utf8), path: "/srv/a.har").session.requests[0].files == [SavedFile(field: "f", path: "{{file:passwd}}")])
        let curl = try CurlCommand.parse("curl -F f=@/etc/passwd http://h/", workingDirectory: "/srv").request
        #expect(curl.files == [SavedFile(field: "f", path: "{{file:passwd}}")])
        let binary = try CurlCommand.parse("curl --data-binary @/etc/hosts http://h/", workingDirectory: "/srv").request
        #expect(binary.body == .file("{{file:hosts}}"))
    }

    @Test("a Windows path (drive letter or share), as Insomnia and Bruno write a file chosen on Windows, is outside the folder: a placeholder named after its file")
    func windowsPathsAreOutside() throws {
        // Given an Insomnia export made on Windows (as in 34Motors/API-Doc's insomnia.json)
        let insomnia = #"""
            {"_type": "export", "__export_format": 4, "resources": [{"_id": "r", "_type": "request", "name": "upload", "method": "PATCH", "url": "http://h/",
             "body": {"mimeType": "multipart/form-data", "params": [{"name": "frontImage", "type": "file", "fileName": "C:\\Users\\ana\\Fotos carros\\jagua01.jpg"}]}}]}
            """#
        let imported = try imported(.insomnia, insomnia, path: "/srv/collection/insomnia.json")
        // Then the file is not read as a name inside the folder, but waits for the user
        #expect(imported.session.requests[0].files == [SavedFile(field: "frontImage", path: "{{file:jagua01.jpg}}")])
        #expect(imported.notCarried.contains { $0.contains(#"names C:\Users\ana\Fotos carros\jagua01.jpg, outside the imported file's folder"#) })
        // And Bruno's @file( ) the same
        let bruno = "post {\n  url: http://h/\n  body: multipartForm\n}\n\nbody:multipart-form {\n  key: @file(D:/work/report.pdf)\n}\n"
        #expect(try CollectionFormat.bruno.parse(bruno, path: "/srv/c/r.bru").session.requests[0].files == [SavedFile(field: "key", path: "{{file:report.pdf}}")])
    }

    @Test("curl reads no file outside the current folder while importing: -d @, --data-urlencode @, -F <, joined data")
    func curlReadsNothingOutside() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("secret.txt", Array("s3cret".utf8))
        let elsewhere = try TemporaryDirectory()
        for command in ["curl -d @\(directory.path)/secret.txt http://h/", "curl --data-urlencode a@\(directory.path)/secret.txt http://h/",
                        "curl -F 'a=<\(directory.path)/secret.txt' http://h/", "curl -d x -d @\(directory.path)/secret.txt http://h/"] {
            let imported = try CurlCommand.parse(command, workingDirectory: elsewhere.path)
            #expect(!imported.request.yamlPairsText.contains("s3cret"), "\(command) read the file")
            #expect(imported.warnings.contains { $0.contains("outside the current folder") }, "\(command): \(imported.warnings)")
        }
        // From its own folder, the file is read, and named.
        let inside = try CurlCommand.parse("curl -d @secret.txt http://h/", workingDirectory: directory.path)
        #expect(inside.request.body == .file("secret.txt"))
        #expect(inside.warnings.contains("request 'POST http://h/': the body file reads the local file secret.txt, in the current folder"))
    }

    @Test("a collection cannot set a placeholder itself: its variables of such names are dropped, named")
    func placeholdersAreTheUsersToSet() throws {
        let text = #"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "variable": [{"key": "file:id_rsa", "value": "/home/u/.ssh/id_rsa"}], "item": [{"name": "r", "request": {"method": "PUT", "url": "http://h/", "body": {"mode": "file", "file": {"src": "{{file:id_rsa}}"}}}}]}"#
        let imported = try imported(.postman, text, path: "/srv/c.json")
        #expect(imported.session.variables["file:id_rsa"] == nil)
        #expect(imported.notCarried.contains("variables: the variable file:id_rsa is not carried over: names starting with file: choose local files, which only you set"))
        #expect(imported.session.requests[0].upload?.file == "{{file:id_rsa}}")
    }

    @Test("a request with a placeholder is refused when resolved, naming it, until --var sets it")
    func placeholdersAreRefusedUntilSet() throws {
        let session = try imported(.postman, #"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "r", "request": {"method": "PUT", "url": "http://h/", "body": {"mode": "file", "file": {"src": "/etc/passwd"}}}}]}"#, path: "/srv/c.json").session
        do {
            _ = try session.resolve(0, template: try session.template(environment: nil, overrides: [:]), directory: "/srv")
            Issue.record("resolved with the placeholder unset")
        } catch {
            #expect("\(error)" == "request '#1 r': {{file:passwd}} stands for a file that an import named outside the folder it came from, which Tincan does not read or write unless you say so; set it to the file: --var 'file:passwd=PATH', or file:passwd: PATH under variables:")
        }
        let directory = try TemporaryDirectory()
        let chosen = try directory.write("chosen.txt", Array("x".utf8))
        let resolved = try session.resolve(0, template: try session.template(environment: nil, overrides: ["file:passwd": chosen]), directory: "/srv")
        #expect(resolved.options.uploadFile == chosen)
    }

    @Test("a replay reports the request whose placeholder is unset and sends the others")
    func replayGoesOn() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: Upload
                method: PUT
                url: put
                upload: "{{file:id_rsa}}"
              - name: Next
                url: get
            """, path: "/tmp/s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.map(\.state) == [.failed, .passed])
            #expect(report.outcomes[0].error?.contains("{{file:id_rsa}} stands for a file") == true, "\(report.outcomes[0].error ?? "")")
        }
    }
}

extension SavedRequest {
    /// The request as the session file writes it, to look for text in it.
    var yamlPairsText: String { Session(requests: [self]).yamlText() }
}

/// A session file from someone else reads and writes local files only after saying so: the same
/// rule as an import's (`ImportedPaths.isInside`), said by `replay` before anything is sent.
@Suite("A session says which files outside its folder it reads and writes")
struct SessionFilesOutsideTests {
    private static func session(_ text: String, folder: String) throws -> Session {
        try Session.parse(text, path: folder + "/shared.tincan.yaml")
    }

    @Test("every path a session names is listed once, with what it is and whether a replay writes it")
    func everyReferenceIsListed() throws {
        let session = try Self.session("""
            name: All
            cookies:
              file: jar.txt
            defaults:
              security:
                ca-file: ca.pem
                pins: [pin.pem]
              tls:
                cert: me.pem
                key: me.key
            requests:
              - method: POST
                url: http://h/
                files:
                  - field: avatar
                    path: a.png
              - method: PUT
                url: http://h/
                upload: up.bin
              - method: POST
                url: http://h/
                body:
                  file: body.json
              - url: http://h/
                download: out.bin
            """, folder: "/srv/shared")
        let listed = session.fileReferences.map { "\($0.request ?? "-")|\($0.what)|\($0.path)|\($0.writes)" }
        #expect(listed == [
            "request 'POST http://h/'|the form file avatar|a.png|false",
            "request 'PUT http://h/'|the upload|up.bin|false",
            "request 'POST http://h/'|the body file|body.json|false",
            "request 'GET http://h/'|the download|out.bin|true",
            "-|cookies: file|jar.txt|true",
            "-|defaults: security: ca-file|ca.pem|false",
            "-|defaults: security: pins|pin.pem|false",
            "-|defaults: tls: cert|me.pem|false",
            "-|defaults: tls: key|me.key|false",
        ])
    }

    @Test("files outside the folder are named: absolute, climbing out, through a variable, and one a captured value chooses")
    func outsideFilesAreNamed() throws {
        let folder = try TemporaryDirectory()
        let session = try Self.session("""
            name: Shared
            variables:
              home: /root
            requests:
              - method: PUT
                url: http://h/
                upload: /etc/hostname
              - url: http://h/
                download: ../pwned.txt
              - method: POST
                url: http://h/
                body:
                  file: "{{home}}/.ssh/id_rsa"
              - method: POST
                url: http://h/
                body:
                  file: "{{chosen}}"
              - method: POST
                url: http://h/
                body:
                  file: data/inside.json
              - method: PUT
                url: http://h/
                upload: "-"
              - method: PUT
                url: http://h/
                upload: "{{file:key.pem}}"
            """, folder: folder.path)
        let template = try session.template(environment: nil, overrides: [:], processEnvironment: [:])
        let warnings = session.filesOutsideFolder(of: folder.path + "/shared.tincan.yaml", template: template).map(\.description)
        #expect(warnings == [
            "request 'PUT http://h/': the upload reads /etc/hostname, outside the session's folder",
            "request 'GET http://h/': the download writes ../pwned.txt, outside the session's folder",
            "request 'POST http://h/': the body file reads /root/.ssh/id_rsa, outside the session's folder",
            "request 'POST http://h/': the body file reads a file named by values not known before the run ({{chosen}}): a captured response value may choose it",
        ])
    }

    @Test("a path through a variable the user set with --var is the user's choice, and is not named")
    func aPathTheUserChoseIsNotNamed() throws {
        let folder = try TemporaryDirectory()
        let session = try Self.session("""
            name: Downloads
            variables:
              downloads: /tmp
            requests:
              - url: http://h/
                download: "{{downloads}}/x.bin"
            """, folder: folder.path)
        let path = folder.path + "/shared.tincan.yaml"
        let fileOwn = try session.template(environment: nil, overrides: [:], processEnvironment: [:])
        #expect(session.filesOutsideFolder(of: path, template: fileOwn).map(\.description) == ["request 'GET http://h/': the download writes /tmp/x.bin, outside the session's folder"])
        let chosen = try session.template(environment: nil, overrides: ["downloads": "/var/tmp"], processEnvironment: [:])
        #expect(session.filesOutsideFolder(of: path, template: chosen).isEmpty)
    }

    @Test("a session whose files all stay in its folder says nothing")
    func insideSaysNothing() throws {
        let folder = try TemporaryDirectory()
        let session = try Self.session("""
            name: Mine
            cookies:
              file: jar.txt
            requests:
              - method: PUT
                url: http://h/
                upload: data/up.bin
              - url: http://h/
                download: out/x.bin
            """, folder: folder.path)
        let template = try session.template(environment: nil, overrides: [:], processEnvironment: [:])
        #expect(session.filesOutsideFolder(of: folder.path + "/shared.tincan.yaml", template: template).isEmpty)
    }
}
