import Foundation
import TestSupport
import Testing
import TincanCore

@Suite("Atomic saves through symbolic links")
struct AtomicFileTests {
    static func text(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    @Test("a save through an absolute link writes the target and keeps the link")
    func absoluteLink() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write("target.yaml", Array("old".utf8))
        let link = directory.path + "/link.yaml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try AtomicFile.write(Array("new".utf8), to: link)
        #expect(Self.isLink(link))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(Self.text(target) == "new")
    }

    @Test("a chain of relative links is followed from each link's own folder")
    func relativeChain() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/a/b", withIntermediateDirectories: true)
        let target = try directory.write("a/b/real.yaml", Array("old".utf8))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/a/middle.yaml", withDestinationPath: "b/real.yaml")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/top.yaml", withDestinationPath: "a/middle.yaml")
        try AtomicFile.write(Array("new".utf8), to: directory.path + "/top.yaml")
        #expect(Self.isLink(directory.path + "/top.yaml") && Self.isLink(directory.path + "/a/middle.yaml"))
        #expect(Self.text(target) == "new")
        // The temporary file went in the target's folder and is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/a/b") == ["real.yaml"])
    }

    @Test("a finished file moved over a link lands in the link's target")
    func moveOverALink() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write("target.bin", Array("old".utf8))
        let link = directory.path + "/link.bin"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.bin")
        let part = try directory.write("link.bin.part", Array("new".utf8))
        try AtomicFile.moveIntoPlace(part, over: link)
        #expect(Self.isLink(link))
        #expect(Self.text(target) == "new")
        #expect(!FileManager.default.fileExists(atPath: part))
    }

    @Test("a dangling link is an error naming the link and where it points")
    func danglingLink() throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/link.yaml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "nowhere/file.yaml")
        #expect(throws: FileWriteError(path: link, reason: .danglingLink(target: directory.path + "/nowhere/file.yaml"))) {
            try AtomicFile.write(Array("x".utf8), to: link)
        }
        #expect(Self.isLink(link))
    }

    @Test("a saved file keeps its permissions exactly")
    func keepsPermissions() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("private.yaml", Array("old".utf8))
        chmod(path, 0o660)
        try AtomicFile.write(Array("new".utf8), to: path)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o660)
    }

    @Test("a device is written in place and its error reported, never replaced")
    func deviceInPlace() throws {
        let directory = try TemporaryDirectory()
        let full = directory.fullDevice()
        #expect(throws: FileWriteError(path: full, reason: .system(ENOSPC))) {
            try AtomicFile.write(Array("x".utf8), to: full)
        }
        var info = stat()
        #expect(stat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        try AtomicFile.write(Array("x".utf8), to: "/dev/null")
    }
}

@Suite("A download's folder is checked before sending")
struct DownloadDestinationTests {
    @Test("a missing folder is named, with the command that makes it")
    func missingFolder() {
        #expect(throws: DownloadDestinationError(path: "nodir/x.bin", folder: "nodir", reason: .missing)) {
            try DownloadDestination.check("nodir/x.bin")
        }
        var message = ""
        do {
            try DownloadDestination.check("nodir/x.bin")
        } catch {
            message = error.description
        }
        #expect(message == "cannot download to nodir/x.bin: the folder nodir does not exist; create it first (mkdir -p nodir)")
    }

    @Test("a file where the folder should be, and a plain name, are told apart")
    func notAFolderAndPlainNames() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("file", [])
        #expect(throws: DownloadDestinationError(path: file + "/x.bin", folder: file, reason: .notAFolder)) {
            try DownloadDestination.check(file + "/x.bin")
        }
        try DownloadDestination.check("x.bin")
        try DownloadDestination.check(directory.path + "/x.bin")
    }
}
