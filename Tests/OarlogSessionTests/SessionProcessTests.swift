import Foundation
import OarlogCore
import OarlogSimulator
@testable import OarlogSession
import OarlogTestSupport
import XCTest

/// Real processes: a recorder killed with SIGKILL mid-write, a disk that fills up (a 64 KiB tmpfs
/// in a private mount namespace) and a read-only data directory (a read-only bind mount). The
/// child is this test binary re-run with `OARLOG_SESSION_CHILD` set (see `SessionChildProcess`).
final class SessionProcessTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-process") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    static let childTest = "OarlogSessionTests.SessionChildProcess/testChildEntryPoint"

    /// Runs the child in `mode` to its end, behind `wrapper` (a command line that runs what follows it).
    func runChild(_ mode: String, _ environment: [String: String], wrappedIn wrapper: [String]) throws -> CommandRun {
        try ChildProcess.run(wrapper[0], Array(wrapper.dropFirst()) + [Binaries.testRunner, Self.childTest],
                             environment: ["OARLOG_SESSION_CHILD": mode].merging(environment) { $1 })
    }

    func testKillNineMidRecordingLosesAtMostOneSecond() throws {
        let path = directory + "/killed.oarlog"
        // Its progress is read line by line as it writes, from a pipe.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Binaries.testRunner)
        p.arguments = [Self.childTest]
        p.environment = ProcessInfo.processInfo.environment.merging(["OARLOG_SESSION_CHILD": "record-slowly", "OARLOG_SESSION_PATH": path]) { $1 }
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        // Read progress lines ("T <data time handed to the writer>") until 4.37 s of data.
        var lastReported = 0.0
        var buffer = Data()
        let handle = pipe.fileHandleForReading
        while lastReported < 4.37 {
            let data = handle.availableData
            if data.isEmpty { break }
            buffer += data
            while let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...nl)
                if line.hasPrefix("T "), let t = Double(line.dropFirst(2)) { lastReported = t }
            }
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        XCTAssertEqual(p.terminationStatus, SIGKILL)
        XCTAssertGreaterThanOrEqual(lastReported, 4.37, "the child did not record")

        let expected = try SessionChildProcess.slowSessionRecords()
        var delivered: [TraceRecord] = []
        do {
            var source = try SessionReader(path: path).records()
            while let r = try source.next() { delivered.append(r) }
        } catch {
            XCTAssertTrue(error is SessionError, "\(error)")  // a torn last chunk: reported, not a crash
        }
        XCTAssertEqual(delivered.map(bits), expected.prefix(delivered.count).map(bits))
        let report = try SessionRecovery.recover(path, to: directory + "/fixed.oarlog", sync: false)
        XCTAssertNotEqual(report.outcome, .unrecoverable)
        let keptUntil = try XCTUnwrap(report.kept.lastTime)
        print("kill -9: the child had handed data up to t = \(lastReported) s to the writer; kept up to t = \(keptUntil) s")
        XCTAssertGreaterThanOrEqual(keptUntil, lastReported - 1.0 - 0.01)
        XCTAssertEqual(try readAll(directory + "/fixed.oarlog").map(bits), expected.prefix(delivered.count).map(bits))
    }

    func testDiskFullGivesAClearErrorAndKeepsWhatWasWritten() throws {
        let mountPoint = directory + "/tiny"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let copy = directory + "/copy.oarlog"
        let run = try runChild("disk-full", ["OARLOG_SESSION_DIR": mountPoint, "OARLOG_SESSION_COPY": copy], wrappedIn: [
            "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
            "mount -t tmpfs -o size=64k oarlog-test \"$OARLOG_SESSION_DIR\" && exec \"$0\" \"$@\"",
        ])
        let output = run.out
        XCTAssertEqual(run.status, 0, output + run.err)
        let lines = output.split(separator: "\n").map(String.init)
        let error = try XCTUnwrap(lines.first { $0.hasPrefix("ERROR ") }, output)
        print("disk full: \(error)")
        XCTAssertTrue(error.contains("No space left on device"), error)
        XCTAssertTrue(error.contains("bytes written before are kept"), error)
        let later = try XCTUnwrap(lines.first { $0.hasPrefix("LATER ") }, output)
        XCTAssertTrue(later.contains("an earlier error"), later)
        let chunks = try XCTUnwrap(lines.first { $0.hasPrefix("CHUNKS ") }.flatMap { Int($0.dropFirst(7)) }, output)
        XCTAssertGreaterThan(chunks, 30)  // 64 KiB holds about 50 s of data
        // Everything written before the failure reads back, and the file ends cleanly.
        let back = try readAll(copy)
        let expected = try SessionChildProcess.slowSessionRecords()
        XCTAssertEqual(back.map(bits), expected.prefix(back.count).map(bits))
        let report = try SessionRecovery.recover(copy, to: directory + "/fixed.oarlog", sync: false)
        XCTAssertEqual(report.kept.chunks, chunks)
        XCTAssertEqual(report.outcome, .intact, "\(report)")
    }

    func testReadOnlyDataDirectoryGivesAClearErrorAndKeepsSessions() throws {
        let data = SessionDirectory(path: directory + "/sessions")
        let writer = try SessionWriter.create(in: data, metadata: testMetadata(title: "Before"), options: .init(durability: .never))
        for r in try simulatorRecords(minutes: 0.2) { try writer.append(r) }
        try writer.close()
        let run = try runChild("read-only", ["OARLOG_SESSION_DIR": data.path], wrappedIn: [
            "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
            "mount --bind \"$OARLOG_SESSION_DIR\" \"$OARLOG_SESSION_DIR\" && mount -o remount,ro,bind \"$OARLOG_SESSION_DIR\" && exec \"$0\" \"$@\"",
        ])
        let output = run.out
        XCTAssertEqual(run.status, 0, output + run.err)
        let error = try XCTUnwrap(output.split(separator: "\n").first { $0.hasPrefix("ERROR ") }, output)
        print("read-only: \(error)")
        XCTAssertTrue(error.contains("Read-only file system"), String(error))
        XCTAssertTrue(error.contains("creating " + data.path + "/"), String(error))
        XCTAssertTrue(output.contains("LISTED 1 Before complete"), output)
        XCTAssertEqual(try data.list().map(\.metadata?.title), ["Before"])
    }
}

/// The child side of `SessionProcessTests` (skipped unless `OARLOG_SESSION_CHILD` is set).
final class SessionChildProcess: XCTestCase {
    /// A 100 Hz + 1 Hz simulated session, the same in parent and child.
    static func slowSessionRecords() throws -> [TraceRecord] {
        try simulatorRecords(minutes: 1.5, seed: 99)
    }

    func testChildEntryPoint() throws {
        guard let mode = ProcessInfo.processInfo.environment["OARLOG_SESSION_CHILD"] else {
            throw XCTSkip("the child process of SessionProcessTests; runs only when spawned by it")
        }
        let env = ProcessInfo.processInfo.environment
        switch mode {
        case "record-slowly":
            // 100 Hz with a chunk fsync'd every second of data, at about 20 × real time.
            let writer = try SessionWriter(path: env["OARLOG_SESSION_PATH"]!, metadata: testMetadata(),
                                           options: .init(durability: .syncEveryChunk))
            var nextReport = 0.1
            for r in try Self.slowSessionRecords() {
                try writer.append(r)
                if let t = r.time, t >= nextReport {
                    say("T \(t)")
                    nextReport += 0.1
                    usleep(5_000)
                }
            }
            try writer.close()
        case "disk-full":
            let dir = SessionDirectory(path: env["OARLOG_SESSION_DIR"]!)
            let writer = try SessionWriter.create(in: dir, metadata: testMetadata(), options: .init(durability: .syncEveryChunk))
            do {
                for r in try Self.slowSessionRecords() { try writer.append(r) }
                try writer.close()
                say("NO ERROR")
            } catch {
                say("ERROR \(error)")
                do { try writer.append(.note(Note(time: 0, text: "after"))) } catch { say("LATER \(error)") }
            }
            say("CHUNKS \(writer.statistics.chunks)")
            try FileManager.default.copyItem(atPath: writer.path, toPath: env["OARLOG_SESSION_COPY"]!)
        case "read-only":
            let dir = SessionDirectory(path: env["OARLOG_SESSION_DIR"]!)
            do {
                _ = try SessionWriter.create(in: dir, metadata: testMetadata(title: "After"))
                say("NO ERROR")
            } catch {
                say("ERROR \(error)")
            }
            for s in try dir.list() { say("LISTED \(try dir.list().count) \(s.metadata?.title ?? "?") \(s.isComplete ? "complete" : "incomplete")") }
        default:
            XCTFail("unknown child mode \(mode)")
        }
    }
}

/// A line to stdout, unbuffered (the parent reads it while the child runs).
private func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}
