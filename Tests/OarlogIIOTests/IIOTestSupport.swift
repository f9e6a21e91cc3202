import Foundation
import XCTest
import OarlogCore
import OarlogIIO
import OarlogLive

/// The session origin the tests use: device timestamps are written relative to it, so the
/// expected session times are known exactly.
let testOrigin = SessionClock(monotonicOrigin: 5000, wallClockAtOrigin: 1_700_000_000)
let testOriginNanoseconds: Int64 = 5_000_000_000_000

/// A scan the test writes and what the reader must give back for it.
struct KnownScan {
    var x: Int64, y: Int64, z: Int64
    /// Device timestamp in ns (on the monotonic clock), if the scan carries one.
    var timestamp: Int64?
}

/// Raw values that cover a type's range (both signs, the extremes) in a fixed pattern.
func knownScans(count: Int, format: IIOScanFormat, interval: Int64 = 10_000_000, jumpAt: Int? = nil, jump: Int64 = 0,
                withTimestamp: Bool = true) -> [KnownScan] {
    let hi = format.signed ? (Int64(1) << (format.bits - 1)) - 1 : (Int64(1) << format.bits) - 1
    let lo = format.signed ? -(Int64(1) << (format.bits - 1)) : 0
    let span = hi - lo + 1
    return (0..<count).map { k in
        let k64 = Int64(k)
        let x = k == 0 ? hi : (k == 1 ? lo : lo + (k64 * 7919) % span)
        let y = lo + (k64 * 104_729 + 17) % span
        let z = hi - (k64 * 31) % span
        // Timestamps with a little jitter (±3 µs), as a real driver's are.
        var ts = testOriginNanoseconds + 1_000_000_000 + k64 * interval + (k64 % 7 - 3) * 1000
        if let jumpAt, k >= jumpAt { ts += jump }
        return KnownScan(x: x, y: y, z: z, timestamp: withTimestamp ? ts : nil)
    }
}

/// The bytes of those scans for the fake device.
func bytes(of scans: [KnownScan], device: FakeIIODevice) -> [UInt8] {
    scans.flatMap { device.scan($0.x, $0.y, $0.z, timestamp: $0.timestamp) }
}

/// The m/s² the IIO ABI defines for a raw value: (raw + offset) × scale.
func expectedAcceleration(_ raw: Int64, scale: Double, offset: Double = 0) -> Float {
    Float((Double(raw) + offset) * scale)
}

/// Reads with a reader until `count` samples came (or `timeout`), collecting gap reasons by
/// sample index.
func read(_ reader: IIOAccelerometerReader, count: Int, timeout: TimeInterval = 10) throws -> (samples: [AccelSample], gaps: [Int: String], timeouts: Int) {
    var samples: [AccelSample] = []
    var gaps: [Int: String] = [:]
    var timeouts = 0
    let deadline = Date().addingTimeInterval(timeout)
    while samples.count < count && Date() < deadline {
        let outcome = try reader.read { sample, gap in
            if let gap { gaps[samples.count] = gap }
            samples.append(sample)
        }
        if outcome == .timeout { timeouts += 1 }
    }
    return (samples, gaps, timeouts)
}

/// Asserts each sample equals its known scan: values exactly, time to 1 ns when stamped.
func assertSamples(_ samples: [AccelSample], equal scans: [KnownScan], conversions: [IIOAxisConversion],
                   file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(samples.count, scans.count, "sample count", file: file, line: line)
    var wrong = 0
    for (s, k) in zip(samples, scans) {
        let ok = s.x == expectedAcceleration(k.x, scale: conversions[0].scale, offset: conversions[0].offset)
            && s.y == expectedAcceleration(k.y, scale: conversions[1].scale, offset: conversions[1].offset)
            && s.z == expectedAcceleration(k.z, scale: conversions[2].scale, offset: conversions[2].offset)
            && (k.timestamp.map { abs(s.time - Double($0 - testOriginNanoseconds) * 1e-9) < 1e-9 } ?? true)
        if !ok {
            wrong += 1
            if wrong <= 3 { XCTFail("sample \(s) for raw \(k)", file: file, line: line) }
        }
    }
    XCTAssertEqual(wrong, 0, "samples differing from the raw data", file: file, line: line)
}

/// Prints a line the parent test passes on from the namespace child.
func note(_ text: String) { print("iio-test: " + text) }
