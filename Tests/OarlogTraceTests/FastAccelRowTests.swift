import Foundation
import OarlogCore
@testable import OarlogTrace
import XCTest

/// The accelerometer-row fast path (`FastAccelRow`): every row it accepts gives bit for bit the
/// values of Swift's correctly rounded parsers, it accepts the shapes real traces have, and it
/// declines (leaving the row to the general path) anything else.
final class FastAccelRowTests: XCTestCase {
    private func parse(_ row: String) -> (sample: AccelSample, newline: Int)? {
        var bytes = Array(row.utf8)
        bytes += [ASCII.newline] + [UInt8](repeating: 0, count: 24)
        return bytes.withUnsafeBufferPointer { FastAccelRow.parse($0.baseAddress!, at: 0) }
    }

    /// A random field in one of many shapes, some of which the fast path must decline.
    private func field(_ rng: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return Float.random(in: -1...1, using: &rng).description
        case 1: return Float.random(in: -30...30, using: &rng).description
        case 2: return Float.random(in: -200...200, using: &rng).description
        case 3: return Float(bitPattern: UInt32.random(in: 0..<0x7F80_0000, using: &rng)).description
        case 4: return String(format: "%.\(Int.random(in: 0...12, using: &rng))f", Double.random(in: -99...99, using: &rng))
        case 5: return ["+1.5", ".5", "5.", "-0.0", "0", "12", "1e-05", "-7.0e3", "00.25", "1234567.5"].randomElement(using: &rng)!
        case 6: return "0.0000" + String(Int.random(in: 1...99999, using: &rng))
        case 7: return String(Int.random(in: -99...99, using: &rng)) + "." + String(UInt64.random(in: 0...9_999_999_999, using: &rng))
        case 8: return Double.random(in: 0...1e-30, using: &rng).description
        default: return String(format: "%.9f", Double.random(in: -20...20, using: &rng))
        }
    }

    func testAcceptedRowsMatchSwiftParsersBitForBit() {
        var rng = SeededGenerator(seed: 99)
        var accepted = 0
        var t = 0.0
        for n in 0..<30_000 {
            t += 0.01
            let time = n % 7 == 0 ? String(format: "%.\(Int.random(in: 0...6, using: &rng))f", t) : t.description
            let (x, y, z) = (field(&rng), field(&rng), field(&rng))
            let crlf = n % 5 == 0
            let row = "\(time),accel,\(x),\(y),\(z)" + (crlf ? "\r" : "")
            guard let r = parse(row) else { continue }
            accepted += 1
            XCTAssertEqual(r.newline, row.utf8.count, row)
            XCTAssertEqual(r.sample.time.bitPattern, Double(time)!.bitPattern, row)
            XCTAssertEqual(r.sample.x.bitPattern, Float(x)!.bitPattern, "x in \(row)")
            XCTAssertEqual(r.sample.y.bitPattern, Float(y)!.bitPattern, "y in \(row)")
            XCTAssertEqual(r.sample.z.bitPattern, Float(z)!.bitPattern, "z in \(row)")
        }
        // Most random rows hold at least one shape the fast path leaves alone; enough pass.
        XCTAssertGreaterThan(accepted, 3_000)
    }

    /// The shapes of real traces all take the fast path.
    func testTypicalRowsAreAccepted() {
        let rows = [
            "12.34,accel,-0.41115868,0.195602,10.344939",
            "0.060000000000000005,accel,0.0,-0.0,9.806",
            "990.0699999992446,accel,-0.0120058535,0.31846234,9.456872",
            "100000.01,accel,19.999998,-19.999998,1.0",
            "5,accel,1.5,2.25,-3.125",
        ]
        for row in rows {
            guard let r = parse(row) else { XCTFail("declined: \(row)"); continue }
            let parts = row.split(separator: ",").map(String.init)
            XCTAssertEqual(r.sample.time, Double(parts[0])!, row)
            XCTAssertEqual(r.sample.x.bitPattern, Float(parts[2])!.bitPattern, row)
            XCTAssertEqual(r.sample.y.bitPattern, Float(parts[3])!.bitPattern, row)
            XCTAssertEqual(r.sample.z.bitPattern, Float(parts[4])!.bitPattern, row)
        }
    }

    /// Malformed, non-finite or unusual rows are declined, never misread.
    func testUnusualRowsAreDeclined() {
        let rows = [
            "1.0,accel,1.0,2.0", "1.0,accel,1.0,2.0,3.0,4.0", "1.0,accel,,2.0,3.0", "1.0,accel,1.0,2.0,",
            "1.0,accel,nan,2.0,3.0", "1.0,accel,1.0,inf,3.0", "1.0,accel,1.2.3,2.0,3.0", "1.0,accel,1.0,2.0,3.0x",
            "1.0,acceleration,1.0,2.0,3.0", "1.0,gps,1.0,2.0,3.0", "1.0,accel,1e39,2.0,3.0", "-,accel,1.0,2.0,3.0",
            "1.0,accel,-,2.0,3.0", "1.0,accel,1.0, 2.0,3.0", "1.0,accel,1.0,2.0,3.0\r\r",
        ]
        for row in rows { XCTAssertNil(parse(row), row) }
    }
}

/// The reader with the fast path, end to end: what `TraceWriter` wrote comes back bit for bit
/// through `next()` and through `readAccel` batches, with the same statistics, at any chunk size
/// (rows cut by a refill), with CRLF line ends, a row out of order and a last line without `\n`.
final class FastReaderRoundTripTests: XCTestCase {
    func testWrittenTraceReadsBackThroughEveryPath() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("accumulated.csv")
        var writer = try TraceWriter(path: path, metadata: [(key: "oarlog-trace", value: "1")])
        var rng = SeededGenerator(seed: 5)
        var written: [TraceRecord] = []
        var t = 0.0
        for k in 0..<20_000 {
            t += 0.01                       // 17-digit times, as a logger accumulating 0.01 s writes
            let sample = AccelSample(time: t, x: Float.random(in: -25...25, using: &rng),
                                     y: Float.random(in: -1...1, using: &rng) * 1e-3, z: Float.random(in: 8...12, using: &rng))
            written.append(.accel(sample))
            if k % 97 == 96 {
                written.append(.fix(GPSFix(time: t, latitude: 51.5 + Double(k) * 1e-7, longitude: -0.22, speed: 4.01)))
            }
        }
        for record in written { try writer.write(record) }
        try writer.close()

        var text = try String(contentsOfFile: path, encoding: .utf8)
        // One row out of order (skipped as timeWentBackward), and no newline at the end.
        text = text.replacingOccurrences(of: "\n", with: "\r\n")
        text += "0.005,accel,1.0,2.0,3.0\r\n"
        text += "\(t + 0.01),accel,-0.5,0.25,9.75"
        let variant = dir.file("variant.csv", text)
        var expected = written
        expected.append(.accel(AccelSample(time: t + 0.01, x: -0.5, y: 0.25, z: 9.75)))

        for chunk in [64, 100, 4096, NativeTraceReader.defaultChunkBytes] {
            // Record by record.
            let (records, stats) = try readNative(variant, chunkBytes: chunk)
            let data = records.filter { if case .metadata = $0 { return false } else { return true } }
            XCTAssertEqual(data, expected, "next(), chunk \(chunk)")
            XCTAssertEqual(stats.accelRows, 20_001)
            XCTAssertEqual(stats.skipped(.timeWentBackward), 1)

            // Batches, with next() for whatever a batch leaves.
            var reader = try NativeTraceReader(path: variant, chunkBytes: chunk)
            var got: [TraceRecord] = []
            let buffer = UnsafeMutableBufferPointer<AccelSample>.allocate(capacity: 1000)
            defer { buffer.deallocate() }
            while true {
                let n = try reader.readAccel(into: buffer)
                got += buffer.prefix(n).map { .accel($0) }
                if n == 0 {
                    guard let r = try reader.next() else { break }
                    if case .metadata = r { continue }
                    got.append(r)
                }
            }
            XCTAssertEqual(got, expected, "readAccel, chunk \(chunk)")
            XCTAssertEqual(reader.statistics, stats, "statistics, chunk \(chunk)")
        }
    }
}
