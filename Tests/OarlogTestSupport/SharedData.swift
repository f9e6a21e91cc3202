import Foundation
import XCTest

/// Where the tests find the package and its bundled data: the package root is two levels above
/// this file (Tests/OarlogTestSupport/SharedData.swift). Every file a test reads lives inside the
/// project (`samples/`, `Tests/*/Fixtures`): a fresh clone with nothing beside it passes.
public enum TestPaths {
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // file → OarlogTestSupport → Tests → package root
        return url
    }()

    /// The project's `samples/` folder (real recordings with their licences and provenance).
    public static let samples: URL = packageRoot.appendingPathComponent("samples")
}

/// Thrown (after an `XCTFail` naming the path) when a bundled file is missing: the test fails,
/// it is never skipped.
public struct MissingTestData: Error, CustomStringConvertible {
    public var path: String
    public var description: String { "test data missing: \(path)" }
}

/// `samples/<relative>` in the project; fails the calling test clearly (not a skip) if missing.
public func samplePath(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let path = TestPaths.samples.appendingPathComponent(relative).path
    guard FileManager.default.fileExists(atPath: path) else {
        XCTFail("Test data missing: expected \(path) (bundled in the project's samples/)", file: file, line: line)
        throw MissingTestData(path: path)
    }
    return path
}
