import Foundation
import OarlogCore
@testable import OarlogTrace
import OarlogTestSupport
import XCTest

/// The native CSV reader on well-formed input: every row kind, metadata, header, blank lines,
/// CRLF, chunk boundaries, the batch API, and float parsing against Swift's own parser.
final class NativeTraceReaderTests: XCTestCase {
    /// The hand-made fixture, checked field by field against values written in the file.
    func testFixtureParsesEveryRowKind() throws {
        let (records, stats) = try readNative(TestPaths.fixture("sample-trace.csv"))
        let expected: [TraceRecord] = [
            .metadata(key: "oarlog-trace", value: "1"),
            .metadata(key: "start_utc", value: "2026-05-02T07:14:03.250Z"),
            .metadata(key: "device", value: "hand-made fixture"),
            .accel(AccelSample(time: 0, x: 0.113, y: -0.052, z: 9.806)),
            .accel(AccelSample(time: 0.01, x: 0.131, y: -0.049, z: 9.811)),
            .fix(GPSFix(time: 1, latitude: 51.4873120, longitude: -0.2241350, speed: 3.95, course: 92.5,
                        horizontalAccuracy: 2.5)),
            .fix(GPSFix(time: 1, utc: 1777705044.25, latitude: 51.4873150, longitude: -0.2241300, altitude: 12.5)),
            .reference(ReferenceStroke(time: 2.5, distance: 10.2, split: 125.3, strokeRate: 24.5, speed: 3.99,
                                       strokeCount: 3, distancePerStroke: 8.4)),
            .gap(Gap(sensor: .gps, start: 3, end: 4.5, reason: "gpsd restarted, then came back")),
            .note(Note(time: 12.48, text: "Push at the 500")),
            .note(Note(time: 13, text: "Ten strokes, \"power\", now")),
        ]
        XCTAssertEqual(records, expected)
        XCTAssertEqual(stats.accelRows, 2)
        XCTAssertEqual(stats.fixRows, 2)
        XCTAssertEqual(stats.referenceRows, 1)
        XCTAssertEqual(stats.gapRows, 1)
        XCTAssertEqual(stats.noteRows, 2)
        XCTAssertEqual(stats.metadataRecords, 3)
        XCTAssertEqual(stats.commentLines, 1)
        XCTAssertEqual(stats.headerLines, 1)
        XCTAssertEqual(stats.blankLines, 1)
        XCTAssertEqual(stats.totalSkipped, 0)
        XCTAssertEqual(stats.linesRead, 14)
    }

    /// CRLF line ends give exactly the records LF gives, and a small chunk size (every line
    /// crosses a chunk boundary) changes nothing either.
    func testCRLFAndChunkBoundariesChangeNothing() throws {
        let dir = TemporaryDirectory()
        let text = try String(contentsOfFile: TestPaths.fixture("sample-trace.csv"), encoding: .utf8)
        let crlf = dir.file("crlf.csv", text.replacingOccurrences(of: "\n", with: "\r\n"))
        let (lf, _) = try readNative(TestPaths.fixture("sample-trace.csv"))
        let (fromCRLF, stats) = try readNative(crlf)
        XCTAssertEqual(fromCRLF, lf)
        XCTAssertEqual(stats.totalSkipped, 0)
        for chunk in [64, 65, 97, 128] {
            let (small, _) = try readNative(crlf, chunkBytes: chunk, maxLineBytes: 64)
            XCTAssertEqual(small, lf, "chunk \(chunk)")
            let (smallLF, _) = try readNative(TestPaths.fixture("sample-trace.csv"), chunkBytes: chunk, maxLineBytes: 64)
            XCTAssertEqual(smallLF, lf, "chunk \(chunk)")
        }
    }

    /// A last line without a newline that parses is a normal row.
    func testLastLineWithoutNewlineIsAccepted() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("trace.csv", "0,accel,1,2,3\n0.5,accel,4,5,6")
        let (records, stats) = try readNative(path)
        XCTAssertEqual(records, [.accel(AccelSample(time: 0, x: 1, y: 2, z: 3)),
                                 .accel(AccelSample(time: 0.5, x: 4, y: 5, z: 6))])
        XCTAssertEqual(stats.linesRead, 2)
    }

    /// A UTF-8 byte-order mark (spreadsheet exports) is skipped; non-ASCII notes survive.
    func testByteOrderMarkAndUnicodeNote() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("trace.csv", bytes: [0xEF, 0xBB, 0xBF] + Array("# title: Maïa's 2× — ok\n1,note,Øresund ½\n".utf8))
        let (records, _) = try readNative(path)
        XCTAssertEqual(records, [.metadata(key: "title", value: "Maïa's 2× — ok"), .note(Note(time: 1, text: "Øresund ½"))])
    }

    /// GPS optional fields: empty and NaN are unknown; the two optional trailing columns.
    func testGPSOptionalFields() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("trace.csv", """
        1,gps,10.5,-20.25,nan,,NaN
        2,gps,10.5,-20.25,1,2,3,
        3,gps,10.5,-20.25,1,2,3,,1e9
        4,gps,-90,180,+1.5,.5,5.

        """)
        let (records, stats) = try readNative(path)
        XCTAssertEqual(records, [
            .fix(GPSFix(time: 1, latitude: 10.5, longitude: -20.25)),
            .fix(GPSFix(time: 2, latitude: 10.5, longitude: -20.25, speed: 1, course: 2, horizontalAccuracy: 3)),
            .fix(GPSFix(time: 3, utc: 1e9, latitude: 10.5, longitude: -20.25, speed: 1, course: 2, horizontalAccuracy: 3)),
            .fix(GPSFix(time: 4, latitude: -90, longitude: 180, speed: 1.5, course: 0.5, horizontalAccuracy: 5)),
        ])
        XCTAssertEqual(stats.totalSkipped, 0)
    }

    /// Reference rows: every field optional; the optional distance-per-stroke column.
    func testReferenceRows() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("trace.csv", "1,ref,,,,,\n2,ref,100,120.5,20,4.15,7\n3,ref,1,2,3,4,5,\n")
        let (records, _) = try readNative(path)
        XCTAssertEqual(records, [
            .reference(ReferenceStroke(time: 1)),
            .reference(ReferenceStroke(time: 2, distance: 100, split: 120.5, strokeRate: 20, speed: 4.15, strokeCount: 7)),
            .reference(ReferenceStroke(time: 3, distance: 1, split: 2, strokeRate: 3, speed: 4, strokeCount: 5)),
        ])
    }

    /// Gap rows: reason optional; the reason is the rest of the line.
    func testGapRows() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("trace.csv", "1,gap,accelerometer,1.5\n2,gap,gps,2,\n3,gap,gps,9,\"a, b\"\n")
        let (records, _) = try readNative(path)
        XCTAssertEqual(records, [
            .gap(Gap(sensor: .accelerometer, start: 1, end: 1.5, reason: "")),
            .gap(Gap(sensor: .gps, start: 2, end: 2, reason: "")),
            .gap(Gap(sensor: .gps, start: 3, end: 9, reason: "a, b")),
        ])
    }

    /// Metadata: keys and values trimmed; `#` lines that are not `key: value` are comments.
    func testMetadataAndComments() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("trace.csv", "#start_utc:2026-01-01T00:00:00Z\n#   accel_hz :  100  \n# no colon here\n#: empty key\n# url: http://x:80/a b\n0,accel,0,0,0\n")
        let (records, stats) = try readNative(path)
        XCTAssertEqual(Array(records.prefix(3)), [
            .metadata(key: "start_utc", value: "2026-01-01T00:00:00Z"),
            .metadata(key: "accel_hz", value: "100"),
            .metadata(key: "url", value: "http://x:80/a b"),
        ])
        XCTAssertEqual(stats.commentLines, 2)
        XCTAssertEqual(stats.metadataRecords, 3)
    }

    /// The batch API yields exactly what `next()` yields, stops before a non-accel row, and
    /// leaves it for `next()`.
    func testBatchAccelMatchesNext() throws {
        let dir = TemporaryDirectory()
        var text = "# oarlog-trace: 1\n"
        var rng = SeededGenerator(seed: 7)
        for k in 0..<5000 {
            let t = Double(k) / 100
            text += "\(t),accel,\(Float.random(in: -20...20, using: &rng)),\(Float.random(in: -20...20, using: &rng)),\(Float.random(in: -20...20, using: &rng))\n"
            if k % 1000 == 999 { text += "\(t),gps,51.5,-0.1,4,90,3\n" }
        }
        let path = dir.file("trace.csv", text)
        let (expected, _) = try readNative(path)

        var reader = try NativeTraceReader(path: path, chunkBytes: 4096)
        var got: [TraceRecord] = []
        var batch: [AccelSample] = []
        let buffer = UnsafeMutableBufferPointer<AccelSample>.allocate(capacity: 333)
        defer { buffer.deallocate() }
        var useArray = false
        while true {
            let n: Int
            if useArray {
                n = try reader.readAccel(into: &batch, maxCount: 250)
                got += batch.map { .accel($0) }
            } else {
                n = try reader.readAccel(into: buffer)
                got += buffer.prefix(n).map { .accel($0) }
            }
            useArray.toggle()
            if n == 0 {
                guard let r = try reader.next() else { break }
                got.append(r)
            }
        }
        XCTAssertEqual(got, expected)
        XCTAssertEqual(reader.statistics.accelRows, 5000)
        XCTAssertEqual(reader.statistics.fixRows, 5)
    }

    /// Float and Double fields agree bit for bit with Swift's own (correctly rounded) parsers
    /// on random decimals of every length, exponents, and exact Float midpoints (ties to even).
    func testNumberParsingMatchesSwiftParsers() throws {
        let dir = TemporaryDirectory()
        var rng = SeededGenerator(seed: 42)
        var fields: [String] = ["16777217", "16777219", "-16777217.0", "0.0", "-0", "1e-45", "3.4028235e38",
                                "1.17549435e-38", "7.006492e-46", "33554435", "9007199254740993",
                                "0.30000000000000004", "123456789012345678901234", ".5", "5.", "+7.25", "1E3"]
        for _ in 0..<3000 {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: // plain decimals, 1–19 digits
                let intDigits = Int.random(in: 0...8, using: &rng)
                let fracDigits = Int.random(in: intDigits == 0 ? 1...12 : 0...12, using: &rng)
                var s = Bool.random(using: &rng) ? "-" : ""
                s += intDigits == 0 ? "0" : String((0..<intDigits).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
                if fracDigits > 0 { s += "." + String((0..<fracDigits).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) }) }
                fields.append(s)
            case 1: // shortest Float representations
                fields.append(Float(bitPattern: UInt32.random(in: 0..<0x7F80_0000, using: &rng)).description)
            case 2: // shortest Double representations
                fields.append(Double(bitPattern: UInt64.random(in: 0..<0x7FF0_0000_0000_0000, using: &rng)).description)
            default: // exact decimal expansions of Float midpoints near 2^24..2^30
                let f = Float(Int.random(in: (1 << 24)...(1 << 30), using: &rng))
                let mid = (Double(f) + Double(f.nextUp)) / 2
                fields.append(String(format: "%.1f", mid))
            }
        }
        var text = ""
        // A Double beyond Float's range would make the accel row non-finite (skipped): use 0 there.
        let floatFields = fields.map { Float($0)!.isFinite ? $0 : "0" }
        for (k, f) in fields.enumerated() { text += "\(k),accel,\(floatFields[k]),\(floatFields[k]),0\n\(k),gps,0,0,\(f),,\n" }
        // The whole range, beyond what any sensor gives (TraceLimits): the parser, not the policy.
        let (records, stats) = try readNative(dir.file("numbers.csv", text), checkingPlausibility: false)
        XCTAssertEqual(stats.totalSkipped, 0)
        XCTAssertEqual(records.count, 2 * fields.count)
        guard records.count == 2 * fields.count else { return }
        for (k, f) in fields.enumerated() {
            guard case .accel(let a) = records[2 * k], case .fix(let g) = records[2 * k + 1] else {
                XCTFail("row \(k)"); continue
            }
            let expectedFloat = Float(floatFields[k])!, expectedDouble = Double(f)!
            XCTAssertEqual(a.x.bitPattern, expectedFloat.bitPattern, "Float \(f): got \(a.x), want \(expectedFloat)")
            XCTAssertEqual(g.speed?.bitPattern, expectedDouble.bitPattern, "Double \(f): got \(String(describing: g.speed))")
        }
    }
}
