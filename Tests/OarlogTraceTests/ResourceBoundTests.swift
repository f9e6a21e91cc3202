import Foundation
import OarlogCore
import OarlogTrace
import XCTest

/// Peak memory and time of reading a hostile input, measured in a child process: the test binary
/// re-executes itself for the one test (`/proc/self/exe Module.Class/test`, as the IIO tests do),
/// since the peak resident set (VmHWM) is process-wide. The parent writes the input; the child
/// resets its peak (`/proc/self/clear_refs`), reads the input through the library, and asserts
/// the growth of its peak and the time; the parent asserts the child ran that test and passed,
/// and prints the child's `resource:` line.
enum ResourceProbe {
    static let inputVariable = "OARLOG_RESOURCE_INPUT"
    /// The input, inside the child; nil in the parent.
    static var childInput: String? { ProcessInfo.processInfo.environment[inputVariable] }

    static func status(_ key: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? -1
        }
        return -1
    }

    /// Resets the peak resident set to the current one (Linux: `5` to clear_refs).
    static func resetPeak() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 { _ = write(fd, "5", 1); close(fd) }
    }

    /// Writes `head`, then `fill` repeated to `bytes` in all, then `tail`.
    static func writeInput(_ path: String, head: String, fill: String, bytes: Int, tail: String = "") throws {
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
    /// the input's path, asserts it passed. In the child: measures `read` on the input.
    func measureInChild(module: String, limitBytes: Int = 64 << 20, limitSeconds: Double = 5, function: String = #function,
                        file: StaticString = #filePath, line: UInt = #line,
                        make: (String) throws -> Void, read: (String) throws -> Void) throws {
        let method = function.hasSuffix("()") ? String(function.dropLast(2)) : function
        if let input = ResourceProbe.childInput {
            ResourceProbe.resetPeak()
            let before = ResourceProbe.status("VmRSS")
            let start = Date()
            var outcome = "read to the end"
            do { try read(input) } catch { outcome = "\(error)" }
            let seconds = Date().timeIntervalSince(start)
            let peak = ResourceProbe.status("VmHWM")
            let size = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? 0
            print("resource: \(method): \(size / 1_000_000) MB input, peak RSS \(peak / 1024) MB (+\((peak - before) / 1024) MB over "
                  + "\(before / 1024) MB before), \(String(format: "%.2f", seconds)) s: \(outcome.suffix(160))")
            XCTAssertGreaterThan(before, 0, "VmRSS readable", file: file, line: line)
            XCTAssertLessThan((peak - before) * 1024, limitBytes, "peak RSS growth", file: file, line: line)
            XCTAssertLessThan(seconds, limitSeconds, "time", file: file, line: line)
            return
        }
        let fm = FileManager.default
        let input = fm.temporaryDirectory.appendingPathComponent("oarlog-resource-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: input) }
        try make(input)
        let filter = "\(module).\(String(describing: type(of: self)))/\(method)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try fm.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [filter]
        var environment = ProcessInfo.processInfo.environment
        environment[ResourceProbe.inputVariable] = input
        process.environment = environment
        let output = fm.temporaryDirectory.appendingPathComponent("oarlog-resource-\(UUID().uuidString).log")
        _ = fm.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? fm.removeItem(at: output) }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTFail("\(filter) did not finish within 120 s", file: file, line: line)
        }
        try handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n")
        if process.terminationStatus != 0 || !text.contains("Executed 1 test, with 0 failures") {
            XCTFail("\(filter) failed in its child process (exit \(process.terminationStatus)):\n"
                    + lines.filter { !$0.hasPrefix("Test Suite") }.suffix(30).joined(separator: "\n"), file: file, line: line)
        }
        for l in lines where l.hasPrefix("resource:") { print(l) }
    }
}

/// 200 MB single-line inputs of every trace format (and, where a reader holds a whole file, one
/// just under its file bound so that the line bound itself is what stops it): each is refused
/// with peak RSS growth under 64 MB and in under 5 s.
final class TraceResourceBoundTests: XCTestCase {
    private static let big = 200_000_000

    private func run(_ format: TraceFormat, head: String, fill: String, bytes: Int = big, expect fragment: String,
                     function: String = #function) throws {
        try measureInChild(module: "OarlogTraceTests", function: function,
                           make: { try ResourceProbe.writeInput($0, head: head, fill: fill, bytes: bytes) },
                           read: { path in
                               do {
                                   var source = try TraceOpener.open(path: path, format: format)
                                   while try source.next() != nil {}
                                   XCTFail("expected an error for a \(bytes)-byte line")
                               } catch {
                                   XCTAssertTrue("\(error)".contains(fragment), "expected \(fragment) in \(error)")
                                   throw error
                               }
                           })
    }

    func testNative200MBLine() throws {
        try run(.native, head: "# oarlog-trace: 1\nt,kind,values\n0,note,", fill: "x", expect: "line is longer than 65536 bytes")
    }

    func testNative200MBNumber() throws {
        try run(.native, head: "0,accel,", fill: "9", expect: "line is longer than 65536 bytes")
    }

    func testSpeedCoach200MBLine() throws {
        try run(.speedcoach, head: "Session Information:,", fill: "x,", expect: "line is longer than 65536 bytes")
    }

    func testNKLogbook200MBLine() throws {
        try run(.nkLogbook, head: "type,elapsedTime,latitude,longitude,sessionStrokeIndex,", fill: "x", expect: "larger than 64 MiB")
    }

    func testNKLogbookLineJustUnderTheFileBound() throws {
        try run(.nkLogbook, head: "type,elapsedTime,latitude,longitude,sessionStrokeIndex,", fill: "x",
                bytes: 60_000_000, expect: "line is longer than 65536 bytes")
    }

    func testTalos200MBLine() throws {
        try run(.talos, head: "1700000000010 ACCEL 5000000000000 ", fill: "1,", expect: "larger than 128 MiB")
    }

    func testTalosLineJustUnderTheFileBound() throws {
        try run(.talos, head: "1700000000010 ACCEL 5000000000000 ", fill: "1,", bytes: 120_000_000,
                expect: "line is longer than 65536 bytes")
    }

    private static let quiskeHead = "Quiske,x\ntimestamp(s),distance(m),SPM (strokes per minute),speed (m/s),boat accelerator curve\n"
        + "1495347480.2,2,20,3,\""

    func testQuiske200MBCurve() throws {
        try run(.quiske, head: Self.quiskeHead, fill: "0.1,", expect: "larger than 64 MiB")
    }

    func testQuiskeCurveJustUnderTheFileBound() throws {
        try run(.quiske, head: Self.quiskeHead, fill: "0.1,", bytes: 60_000_000, expect: "line is longer than 1048576 bytes")
    }
}
