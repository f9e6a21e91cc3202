import Foundation
import OarlogFences
import XCTest

/// Peak memory and time of loading a hostile GeoJSON file, measured in a child process (the test
/// binary re-executes itself for the one test; VmHWM is process-wide). The parent writes the
/// file; the child resets its peak (`/proc/self/clear_refs`), loads the file and asserts the
/// growth of its peak (under 64 MB) and the time (under 5 s).
final class FenceResourceTests: XCTestCase {
    private static let inputVariable = "OARLOG_RESOURCE_INPUT"

    private static func status(_ key: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? -1
        }
        return -1
    }

    private static func writeInput(_ path: String, head: String, fill: String, bytes: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(head.utf8))
        var chunk = ""
        while chunk.utf8.count + fill.utf8.count <= 1 << 20 { chunk += fill }
        let data = Data(chunk.utf8)
        var written = head.utf8.count
        while written + data.count <= bytes {
            try handle.write(contentsOf: data)
            written += data.count
        }
    }

    private func measure(bytes: Int, expect fragment: String, function: String = #function) throws {
        let method = String(function.dropLast(2))
        let head = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},"
            + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[["
        if let input = ProcessInfo.processInfo.environment[Self.inputVariable] {
            let fd = open("/proc/self/clear_refs", O_WRONLY)
            if fd >= 0 { _ = write(fd, "5", 1); close(fd) }
            let before = Self.status("VmRSS")
            let start = Date()
            var outcome = "loaded"
            do { _ = try FenceFile.load(path: input) } catch { outcome = "\(error)" }
            let seconds = Date().timeIntervalSince(start)
            let peak = Self.status("VmHWM")
            print("resource: \(method): \(bytes / 1_000_000) MB GeoJSON, peak RSS \(peak / 1024) MB (+\((peak - before) / 1024) MB over "
                  + "\(before / 1024) MB before), \(String(format: "%.2f", seconds)) s: \(outcome.suffix(160))")
            XCTAssertGreaterThan(before, 0, "VmRSS readable")
            XCTAssertTrue(outcome.contains(fragment), "expected \(fragment) in \(outcome)")
            XCTAssertLessThan((peak - before) * 1024, 64 << 20, "peak RSS growth")
            XCTAssertLessThan(seconds, 5, "time")
            return
        }
        let fm = FileManager.default
        let input = fm.temporaryDirectory.appendingPathComponent("oarlog-fence-resource-\(UUID().uuidString).geojson").path
        defer { try? fm.removeItem(atPath: input) }
        try Self.writeInput(input, head: head, fill: "[4.8312,52.3511],", bytes: bytes)
        let filter = "OarlogFencesTests.FenceResourceTests/\(method)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try fm.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [filter]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.inputVariable] = input
        process.environment = environment
        let output = fm.temporaryDirectory.appendingPathComponent("oarlog-fence-resource-\(UUID().uuidString).log")
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
            XCTFail("\(filter) did not finish within 120 s")
        }
        try handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n")
        if process.terminationStatus != 0 || !text.contains("Executed 1 test, with 0 failures") {
            XCTFail("\(filter) failed in its child process (exit \(process.terminationStatus)):\n"
                    + lines.filter { !$0.hasPrefix("Test Suite") }.suffix(30).joined(separator: "\n"))
        }
        for l in lines where l.hasPrefix("resource:") { print(l) }
    }

    /// A 200 MB single-line polygon: refused before it is read.
    func testGeoJSON200MBLine() throws {
        try measure(bytes: 200_000_000, expect: "larger than 16 MiB")
    }

    /// A 15 MB single-line polygon (just under the file bound, about 880,000 positions): read,
    /// and refused by the JSON value bound before its tree grows large.
    func testGeoJSONJustUnderTheFileBound() throws {
        try measure(bytes: 15_000_000, expect: "more than 500000 JSON values")
    }
}
