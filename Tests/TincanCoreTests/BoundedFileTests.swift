import Foundation
import Testing
import TestSupport
import TincanCore

@Suite("Files read into memory are bounded")
struct BoundedFileTests {
    @Test("a file within the limit is read whole, and one byte over it is refused")
    func limitIsExact() throws {
        let directory = try TemporaryDirectory()
        let bytes = (0..<100_000).map { UInt8($0 % 251) }
        let path = try directory.write("a.bin", bytes)
        #expect(try BoundedFile.read(path, limit: 100_000) == bytes)
        #expect(throws: BoundedFile.Failure.tooLarge(limit: 99_999)) { try BoundedFile.read(path, limit: 99_999) }
    }

    @Test("a device that never ends is read no further than the limit")
    func endlessDeviceIsRefused() {
        #expect(throws: BoundedFile.Failure.tooLarge(limit: 1 << 20)) { try BoundedFile.read("/dev/zero", limit: 1 << 20) }
    }

    @Test("a folder and a missing file are refused with what is wrong")
    func foldersAndMissingFiles() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: BoundedFile.Failure.folder) { try BoundedFile.read(directory.path, limit: 10) }
        #expect(throws: BoundedFile.Failure.unreadable(reason: "No such file or directory")) { try BoundedFile.read(directory.path + "/none", limit: 10) }
    }

    @Test("a file that may not exist yet reads as nothing when missing, and is refused as any other when it is a folder or endless")
    func filesThatMayBeMissing() throws {
        let directory = try TemporaryDirectory()
        #expect(try BoundedFile.readIfPresent(directory.path + "/none", limit: 10) == nil)
        #expect(try BoundedFile.readIfPresent(try directory.write("a", Array("abc".utf8)), limit: 10) == Array("abc".utf8))
        #expect(throws: BoundedFile.Failure.folder) { try BoundedFile.readIfPresent(directory.path, limit: 10) }
        #expect(throws: BoundedFile.Failure.tooLarge(limit: 10)) { try BoundedFile.readIfPresent("/dev/zero", limit: 10) }
    }

    @Test("certificate and key files are read within their bound: an endless file is refused with the reason")
    func certificateFilesAreBounded() throws {
        let error = try #require(throws: SecurityPolicyError.self) { try SecurityPolicy.certificates(inFile: "/dev/zero") }
        #expect("\(error)".contains("/dev/zero: holds more than 16,777,216 bytes (16.0 MiB)"), "\(error)")
        #expect(ClientIdentity.keyIsEncrypted(atPath: "/dev/zero") == false)
    }
}
