import Foundation
import XCTest

/// Peak memory and time of reading a hostile input, measured in a child process: the test binary
/// re-executes itself for the one test (`rerunInChild`, as the IIO tests do),
/// since the peak resident set (VmHWM) is process-wide. The parent writes the input; the child
/// resets its peak (`/proc/self/clear_refs`), reads the input through the library, and asserts
/// the growth of its peak and the time; the parent asserts the child ran that test and passed,
/// and prints the child's `resource:` line.
public enum ResourceProbe {
    public static let inputVariable = "OARLOG_RESOURCE_INPUT"
    /// The input, inside the child; nil in the parent.
    public static var childInput: String? { ProcessInfo.processInfo.environment[inputVariable] }

    /// Writes `head`, then `fill` repeated to `bytes` in all, then `tail`.
    public static func writeInput(_ path: String, head: String, fill: String, bytes: Int, tail: String = "") throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(head.utf8))
        let unit = Array(fill.utf8)
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 20)
        while chunk.count + unit.count <= 1 << 20 { chunk += unit }
        var written = head.utf8.count
        let body = bytes - head.utf8.count - tail.utf8.count
        while written - head.utf8.count + chunk.count <= body {
            try handle.write(contentsOf: Data(chunk))
            written += chunk.count
        }
        try handle.write(contentsOf: Data(tail.utf8))
    }
}

extension XCTestCase {
    /// In the parent: writes the input with `make`, runs this test again in a child process with
    /// the input's path, asserts it passed. In the child: measures `read` on the input. The time
    /// limit is a guard against a hang or a quadratic blow-up on hostile input, not a speed test:
    /// generous enough for a loaded CI machine running a debug build.
    public func measureInChild(limitBytes: Int = 64 << 20, limitSeconds: Double = 60, function: String = #function,
                               file: StaticString = #filePath, line: UInt = #line,
                               make: (String) throws -> Void, read: (String) throws -> Void) throws {
        let method = function.hasSuffix("()") ? String(function.dropLast(2)) : function
        if let input = ResourceProbe.childInput {
            ProcessMemory.resetPeak()
            let before = ProcessMemory.status("VmRSS")
            let start = Date()
            var outcome = "read to the end"
            do { try read(input) } catch { outcome = "\(error)" }
            let seconds = Date().timeIntervalSince(start)
            let peak = ProcessMemory.status("VmHWM")
            let size = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? 0
            print("resource: \(method): \(size / 1_000_000) MB input, peak RSS \(peak / 1024) MB (+\((peak - before) / 1024) MB over "
                  + "\(before / 1024) MB before), \(String(format: "%.2f", seconds)) s: \(outcome.suffix(160))")
            XCTAssertGreaterThan(before, 0, "VmRSS readable", file: file, line: line)
            XCTAssertLessThan((peak - before) * 1024, limitBytes, "peak RSS growth", file: file, line: line)
            XCTAssertLessThan(seconds, limitSeconds, "time (a hang guard)", file: file, line: line)
            return
        }
        let fm = FileManager.default
        let input = fm.temporaryDirectory.appendingPathComponent("oarlog-resource-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: input) }
        try make(input)
        let output = try rerunInChild(environment: [ResourceProbe.inputVariable: input], timeout: 120, function: function, file: file, line: line)
        for l in output.split(separator: "\n") where l.hasPrefix("resource:") { print(l) }
    }
}
