import Testing
import TincanSessions

@Suite("Request groups")
struct SessionGroupTests {
    @Test("A request's group: is read, written after its name, and read back the same")
    func groupRoundTrips() throws {
        let text = "requests:\n  - name: Add\n    group: pets/admin\n    method: POST\n    url: pets\n  - method: GET\n    url: pets\n"
        let session = try Session.parse(text, path: "s.tincan.yaml")
        #expect(session.requests.map(\.group) == ["pets/admin", nil])
        #expect(session.yamlText().hasSuffix(text))
        var changed = session
        changed.requests[1].group = "pets"
        #expect(changed != session)
        #expect(try Session.parse(changed.yamlText(), path: "s.tincan.yaml").requests[1].group == "pets")
    }

    @Test("A group with an empty folder name is refused at its line and column")
    func refusesEmptyFolderNames() {
        for path in ["pets//admin", "/pets", "pets/", ""] {
            let text = "requests:\n  - group: \"\(path)\"\n    url: pets\n"
            #expect(importError { try Session.parse(text, path: "s.tincan.yaml") }
                == "s.tincan.yaml:2:12: '\(path)' is not a folder path; expected names joined by /, such as pets/admin, none of them empty")
        }
    }
}
