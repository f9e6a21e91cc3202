import Foundation
import OarlogCore
import OarlogTrace
import OarlogTestSupport
import XCTest

/// The reading policy on bad input (docs/TRACE_FORMAT.md, "Reading policy"): each case gives
/// the documented `TraceError` (file:line:column and what was expected) or the documented skip,
/// counted with the first line where it happened.
final class NativeTraceErrorTests: XCTestCase {
    let dir = TemporaryDirectory()
    override func tearDown() { dir.remove() }

    private func read(_ text: String, chunkBytes: Int = NativeTraceReader.defaultChunkBytes) throws -> ([TraceRecord], TraceReadStatistics) {
        try readNative(dir.file("trace.csv", text), chunkBytes: chunkBytes)
    }

    // MARK: Errors

    func testBadNumberNamesFileLineColumnAndField() {
        assertTraceError(kind: .malformed, location: "trace.csv:3:17", contains: "expected a number for ay, found \"1.2.3\"") {
            _ = try self.read("0,accel,1,2,3\n0.5,accel,1,2,3\n1.000,accel,0.5,1.2.3,9.8\n")
        }
    }

    func testTooFewFields() {
        assertTraceError(kind: .malformed, location: "trace.csv:2:18", contains: "expected ',' and a value for az, found end of line") {
            _ = try self.read("0,accel,1,2,3\n1.0,accel,0.1,0.2\n2,accel,1,2,3\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:16", contains: "expected ',' and a value for speed_mps") {
            _ = try self.read("1,gps,51.5,-0.1\n")
        }
    }

    func testTooManyFields() {
        assertTraceError(kind: .malformed, location: "trace.csv:1:14", contains: "expected end of line after az, found \",4\"") {
            _ = try self.read("0,accel,1,2,3,4\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:20", contains: "expected end of line after utc_s, found \",8\"") {
            _ = try self.read("1,gps,1,2,3,4,5,6,7,8\n")
        }
    }

    func testBadTimeAndBadKind() {
        assertTraceError(kind: .malformed, location: "trace.csv:1:1", contains: "expected a number for t, found \"12:00\"") {
            _ = try self.read("12:00,accel,1,2,3\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:3", contains: "expected a row kind") {
            _ = try self.read("0,1.5,2,3\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:1", contains: "expected a number for t, found \"hello\"") {
            _ = try self.read("hello,world\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:2:1", contains: "expected a time ≥ 0") {
            _ = try self.read("0,accel,1,2,3\n-1,accel,1,2,3\n")
        }
    }

    func testOutOfRangeAndInconsistentValues() {
        assertTraceError(kind: .malformed, location: "trace.csv:1:7", contains: "latitude in [-90, 90]") {
            _ = try self.read("1,gps,91,0,,,\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:11", contains: "expected end_t ≥ t") {
            _ = try self.read("5,gap,gps,4.5,lost\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:7", contains: "expected a sensor (accelerometer or gps)") {
            _ = try self.read("5,gap,imu,6,lost\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:15", contains: "whole number") {
            _ = try self.read("5,ref,1,2,3,4,5.5\n")
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:8", contains: "closing '\"'") {
            _ = try self.read("1,note,\"unterminated, quote\n")
        }
    }

    func testEmptyFiles() {
        assertTraceError(kind: .empty, location: nil, contains: "the file is empty") {
            _ = try self.read("")
        }
        assertTraceError(kind: .empty, location: nil, contains: "no records") {
            _ = try self.read("\n\n# only a comment\nt,kind,values\n   \n")
        }
    }

    func testBinaryFilesAreRejectedEarly() {
        var rng = SeededGenerator(seed: 99)
        let random = (0..<10000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        assertTraceError(kind: .notText, location: nil, contains: "binary") {
            _ = try NativeTraceReader(path: self.dir.file("random.bin", bytes: random))
        }
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03] + random.prefix(100)
        assertTraceError(kind: .notText, location: "gz.csv:1:1", contains: "gzip-compressed") {
            _ = try NativeTraceReader(path: self.dir.file("gz.csv", bytes: gzip))
        }
        // Invalid UTF-8 without a NUL, at line 2 column 3.
        assertTraceError(kind: .notText, location: "latin1.csv:2:3", contains: "not UTF-8") {
            _ = try NativeTraceReader(path: self.dir.file("latin1.csv", bytes: Array("0,accel,1,2,3\n1,".utf8) + [0xE9, 0x0A]))
        }
        // A NUL far beyond the first chunk is found when its chunk is read: line and column right.
        var text = ""
        for k in 0..<20000 { text += "\(k),accel,0.25,-0.5,9.75\n" }
        let lines = text.split(separator: "\n").count
        let bytes = Array(text.utf8) + Array("20000,accel,0.".utf8) + [0] + Array("5,1,2\n".utf8)
        assertTraceError(kind: .notText, location: "late-nul.csv:\(lines + 1):15", contains: "NUL byte") {
            var reader = try NativeTraceReader(path: self.dir.file("late-nul.csv", bytes: bytes), chunkBytes: 4096)
            while try reader.next() != nil {}
        }
    }

    func testVeryLongLine() {
        let long = "1,note," + String(repeating: "x", count: 70_000) + "\n"
        assertTraceError(kind: .lineTooLong, location: "trace.csv:2:65537", contains: "longer than 65536 bytes") {
            _ = try self.read("0,accel,1,2,3\n" + long)
        }
        // Also when the long line starts in the first chunk and ends in a later one.
        assertTraceError(kind: .lineTooLong, location: "trace.csv:2:65537", contains: "longer than") {
            _ = try self.read("0,accel,1,2,3\n" + long, chunkBytes: 1000)
        }
        // A line of exactly the limit is fine.
        XCTAssertNoThrow(try {
            let text = "1,note," + String(repeating: "y", count: 65536 - 7) + "\n"
            let (records, _) = try self.read(text, chunkBytes: 1000)
            XCTAssertEqual(records.count, 1)
        }())
    }

    func testUnsupportedVersion() {
        assertTraceError(kind: .unsupportedVersion, location: "trace.csv:1:17", contains: "expected trace format version 1, found \"2\"") {
            _ = try self.read("# oarlog-trace: 2\n0,accel,1,2,3\n")
        }
    }

    func testAnErrorIsFinal() throws {
        var reader = try NativeTraceReader(path: dir.file("trace.csv", "0,accel,1,2,3\n1,accel,x,2,3\n2,accel,1,2,3\n"))
        XCTAssertNotNil(try reader.next())
        var messages: [String] = []
        for _ in 0..<2 {
            do { _ = try reader.next(); XCTFail("expected an error") } catch { messages.append("\(error)") }
        }
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(messages[0], messages[1])
    }

    // MARK: Skips

    func testUnknownKindIsSkippedAndCounted() throws {
        let (records, stats) = try read("0,accel,1,2,3\n0.5,baro,1013.2\n1,accel,1,2,3\n2,heart_rate,140\n")
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(stats.skipped(.unknownKind), 2)
        XCTAssertEqual(stats.firstSkippedLine(.unknownKind), 2)
    }

    func testTruncatedLastLineIsSkippedAndCounted() throws {
        let (records, stats) = try read("0,accel,1,2,3\n0.5,accel,1,2")
        XCTAssertEqual(records, [.accel(AccelSample(time: 0, x: 1, y: 2, z: 3))])
        XCTAssertEqual(stats.skipped(.truncatedLastLine), 1)
        XCTAssertEqual(stats.firstSkippedLine(.truncatedLastLine), 2)
        let (_, cut) = try read("0,accel,1,2,3\n0.5,gps,51.1,-0.")
        XCTAssertEqual(cut.skipped(.truncatedLastLine), 1)
        let (_, cutKind) = try read("0,accel,1,2,3\n0.5,acc")
        XCTAssertEqual(cutKind.skipped(.truncatedLastLine), 1)
        XCTAssertEqual(cutKind.skipped(.unknownKind), 0)
        // The same bad row with its newline is an error, not a truncation.
        assertTraceError(kind: .malformed, location: "trace.csv:2:14", contains: "az") {
            _ = try self.read("0,accel,1,2,3\n0.5,accel,1,2\n")
        }
    }

    func testNonFiniteValuesAreSkippedOrUnknown() throws {
        let (records, stats) = try read("""
        0,accel,1,2,3
        0.1,accel,nan,2,3
        0.2,accel,1,-inf,3
        0.3,accel,1,2,1e999
        inf,accel,1,2,3
        0.4,gps,NaN,0,,,
        0.5,gps,1,2,nan,Infinity,-nan
        0.6,accel,4,5,6

        """)
        XCTAssertEqual(records, [.accel(AccelSample(time: 0, x: 1, y: 2, z: 3)),
                                 .fix(GPSFix(time: 0.5, latitude: 1, longitude: 2)),
                                 .accel(AccelSample(time: 0.6, x: 4, y: 5, z: 6))])
        XCTAssertEqual(stats.skipped(.nonFiniteValue), 5)
        XCTAssertEqual(stats.firstSkippedLine(.nonFiniteValue), 2)
    }

    func testTimeGoingBackwardIsSkippedAndCounted() throws {
        let (records, stats) = try read("0,accel,1,2,3\n2,accel,1,2,3\n1,gps,1,2,,,\n2,note,same time is fine\n1.5,accel,1,2,3\n3,accel,1,2,3\n")
        XCTAssertEqual(records.compactMap(\.time), [0, 2, 2, 3])
        XCTAssertEqual(stats.skipped(.timeWentBackward), 2)
        XCTAssertEqual(stats.firstSkippedLine(.timeWentBackward), 3)
    }

    func testHeaderAfterDataIsSkipped() throws {
        let (records, stats) = try read("t,kind,values\n0,accel,1,2,3\nt,kind,values\n1,accel,1,2,3\n")
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(stats.headerLines, 1)
        XCTAssertEqual(stats.skipped(.headerAfterData), 1)
        XCTAssertEqual(stats.firstSkippedLine(.headerAfterData), 3)
    }

    func testCRLFQuotedNotesAndMetadata() throws {
        let (records, stats) = try read("# start_utc: 2026-05-02T07:14:03Z\r\n# coach: Ana, \"the boss\"\r\n\r\n1,note,\"ten, now \"\"hard\"\"\"\r\n2,note,plain, with commas\r\n3,accel,1,2,3\r\n")
        XCTAssertEqual(records, [
            .metadata(key: "start_utc", value: "2026-05-02T07:14:03Z"),
            .metadata(key: "coach", value: "Ana, \"the boss\""),
            .note(Note(time: 1, text: "ten, now \"hard\"")),
            .note(Note(time: 2, text: "plain, with commas")),
            .accel(AccelSample(time: 3, x: 1, y: 2, z: 3)),
        ])
        XCTAssertEqual(stats.blankLines, 1)
    }

    // MARK: Fuzz

    /// Random byte mutations of a valid trace (deterministic seed, bounded): never a crash,
    /// always records or a `TraceError`, statistics consistent with what was delivered.
    func testRandomMutationsNeverCrash() throws {
        let base = Array(try String(contentsOfFile: TestPaths.fixture("sample-trace.csv"), encoding: .utf8).utf8)
            + Array("14,accel,1e-3,-2.5E2,+.5\n15,gps,1,2,3,4,5,6,7\n16,ref,1,2,3,4,5,6\n16,gap,accelerometer,17,\"x\"\n".utf8)
        let interesting: [UInt8] = [0x2C, 0x0A, 0x0D, 0x22, 0x23, 0x00, 0xFF, 0xC3, 0x2E, 0x2D, 0x65, 0x30, 0x39, 0x20, 0x74, 0x61]
        var rng = SeededGenerator(seed: 0xF022)
        var outcomes = (records: 0, errors: 0)
        for iteration in 0..<400 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                let b = Bool.random(using: &rng) ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[at] = b
                case 1: bytes.insert(b, at: at)
                case 2: bytes.remove(at: at)
                default: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...30, using: &rng)))
                }
                if bytes.isEmpty { bytes = [0x0A] }
            }
            if iteration % 3 == 0 { bytes = Array(bytes.prefix(Int.random(in: 1...bytes.count, using: &rng))) }
            let path = dir.file("fuzz-\(iteration % 4).csv", bytes: bytes)
            do {
                var reader = try NativeTraceReader(path: path, chunkBytes: [64, 100, 4096][iteration % 3], maxLineBytes: 200)
                var delivered = 0
                var lastTime = -Double.infinity
                while let r = try reader.next() {
                    delivered += 1
                    if let t = r.time {
                        XCTAssertGreaterThanOrEqual(t, lastTime, "time ran backward, iteration \(iteration)")
                        XCTAssertTrue(t.isFinite && t >= 0)
                        lastTime = t
                    }
                    XCTAssertLessThan(delivered, 1000, "runaway reader")
                }
                XCTAssertEqual(reader.statistics.totalRecords, delivered)
                outcomes.records += 1
            } catch let error as TraceError {
                XCTAssertFalse(error.description.isEmpty)
                outcomes.errors += 1
            } catch {
                XCTFail("not a TraceError: \(error)")
            }
        }
        // Both outcomes occur: the mutations are neither all harmless nor all fatal.
        XCTAssertGreaterThan(outcomes.records, 20)
        XCTAssertGreaterThan(outcomes.errors, 20)
    }
}
