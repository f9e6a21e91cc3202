import Foundation
import XCTest

/// Where the tests find the package and the real data: the package root is two levels above
/// this file (Tests/OarlogTestSupport/SharedData.swift), the data `../shared/data` beside the
/// checkout (the CI clone has `shared/` there too).
public enum TestPaths {
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // file → OarlogTestSupport → Tests → package root
        return url
    }()

    /// `../shared/data` beside the checkout, whether or not it exists.
    public static let sharedData: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
}

/// Thrown (after an `XCTFail` naming the path) when the real data is missing: the test fails, it
/// is never skipped.
public struct MissingTestData: Error, CustomStringConvertible {
    public var path: String
    public var description: String { "real data missing: \(path)" }
}

/// `../shared/data/<relative>` beside the checkout; fails the calling test clearly (not a skip)
/// if it is missing.
public func sharedDataPath(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let path = TestPaths.sharedData.appendingPathComponent(relative).path
    guard FileManager.default.fileExists(atPath: path) else {
        XCTFail("Real data missing: expected \(path) (the shared/ data directory beside the checkout)", file: file, line: line)
        throw MissingTestData(path: path)
    }
    return path
}

/// The `../shared/data` directory; fails the calling test clearly (not a skip) if it is missing.
public func sharedDataDirectory(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let url = TestPaths.sharedData
    guard FileManager.default.fileExists(atPath: url.path) else {
        XCTFail("Real data missing: expected \(url.path) (the shared/ data directory beside the checkout)", file: file, line: line)
        throw MissingTestData(path: url.path)
    }
    return url
}
