import Foundation

/// The examples directory of the repository.
public let examplesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples").path

/// Every example session file.
public func exampleFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: examplesDirectory).filter { $0.hasSuffix(".tincan.yaml") }.sorted()
        .map { (examplesDirectory as NSString).appendingPathComponent($0) }
}

/// The real collections other tools wrote (Tests/Fixtures/collections, sources in its README).
public let collectionFixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/collections").path

/// The real collection files of one folder of the fixtures (`openapi`, `postman-v2.1`…), sorted.
public func collectionFixtures(_ folder: String) throws -> [String] {
    let directory = (collectionFixturesDirectory as NSString).appendingPathComponent(folder)
    return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") }.sorted()
        .map { (directory as NSString).appendingPathComponent($0) }
}
