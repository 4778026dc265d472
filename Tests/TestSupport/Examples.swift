import Foundation

/// The examples directory of the repository.
public let examplesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples").path

/// Every example session file.
public func exampleFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: examplesDirectory).filter { $0.hasSuffix(".tincan.yaml") }.sorted()
        .map { (examplesDirectory as NSString).appendingPathComponent($0) }
}
