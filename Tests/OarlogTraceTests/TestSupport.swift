import Foundation
import OarlogCore
@testable import OarlogTrace
import OarlogTestSupport
import XCTest

/// The trace tests' own files and the project's real recordings.
extension TestPaths {
    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/OarlogTraceTests/Fixtures").appendingPathComponent(name).path
    }

    /// A file of the real recorded data bundled in the project's `samples/`; fails clearly if missing.
    static func sample(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try samplePath(relative, file: file, line: line)
    }
}

/// A temporary directory removed when the test object goes away.
final class TemporaryDirectory {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("oarlog-trace-tests-\(getpid())-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { remove() }

    /// Removes the directory (XCTest keeps test-case objects alive until the run ends, so a
    /// directory held by a test case is removed in its `tearDown`).
    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to `name` and returns the path.
    func file(_ name: String, bytes: [UInt8]) -> String {
        let path = url.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func file(_ name: String, _ text: String) -> String { file(name, bytes: Array(text.utf8)) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// `checkingPlausibility: false` for the tests of the number parser over the whole Float and
/// Double range (values no sensor gives, which the reader otherwise skips or drops).
func readNative(_ path: String, chunkBytes: Int = NativeTraceReader.defaultChunkBytes,
                maxLineBytes: Int = NativeTraceReader.defaultMaxLineBytes,
                checkingPlausibility: Bool = true) throws -> ([TraceRecord], TraceReadStatistics) {
    var reader = try NativeTraceReader(path: path, chunkBytes: chunkBytes, maxLineBytes: maxLineBytes,
                                       checkingPlausibility: checkingPlausibility)
    let records = try readAll(&reader)
    return (records, reader.statistics)
}

/// Asserts that `body` throws a `TraceError` of `kind` whose description starts with
/// `file:line:column:` and contains `fragment`.
func assertTraceError(kind: TraceError.Kind, location: String?, contains fragment: String,
                      file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("expected a TraceError (\(kind)), got none", file: file, line: line)
    } catch let error as TraceError {
        XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
        if let location {
            XCTAssertTrue(error.description.hasPrefix(location + ": ") || error.description.contains("/" + location + ": "),
                          "expected location \(location) in \(error)", file: file, line: line)
        }
        XCTAssertTrue(error.description.contains(fragment), "expected \(fragment.debugDescription) in \(error)",
                      file: file, line: line)
    } catch {
        XCTFail("expected a TraceError, got \(error)", file: file, line: line)
    }
}

/// A small deterministic generator (xorshift64*) for reproducible random tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
