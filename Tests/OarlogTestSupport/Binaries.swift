import Foundation
import XCTest

/// The programs this package builds, as the tests find them: the test binary that is running
/// (re-run for one test in a child process) and the products built beside it, `oarlog` first.
public enum Binaries {
    /// The running test binary (`…/debug/OarlogPackageTests.xctest`): a test re-runs it with
    /// `Module.Class/test` to do its work in a process of its own (a mount namespace, a peak
    /// resident set, a kill -9).
    public static var testRunner: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The product `name` built beside the test binary (`swift test` builds a product a test target
    /// depends on). Fails the calling test, naming the path, when it is not there.
    public static func builtBinary(named name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = URL(fileURLWithPath: testRunner).deletingLastPathComponent().appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("the \(name) binary is missing at \(path): build it with `swift build` first", file: file, line: line)
            throw MissingTestData(path: path)
        }
        return path
    }

    /// The `oarlog` command line built beside the test binary.
    public static func oarlog(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try builtBinary(named: "oarlog", file: file, line: line)
    }
}

/// Runs the built `oarlog` as a person runs it: in `directory` (the package root, so `samples/…`
/// resolves) with `OARLOG_DATA_DIR` set to `dataDirectory`.
public func runOarlog(_ arguments: [String], dataDirectory: String, in directory: String = TestPaths.packageRoot.path,
                      file: StaticString = #filePath, line: UInt = #line) throws -> CommandRun {
    try ChildProcess.run(try Binaries.oarlog(file: file, line: line), arguments, in: directory,
                         environment: ["OARLOG_DATA_DIR": dataDirectory])
}
