import Foundation
import OarlogCore
@testable import OarlogSession
import OarlogTestSupport
import XCTest

/// The fast read paths (`forEachAccelerometerBlock`, the `RecordSource`, the memory-mapped file,
/// the closed-form tick runs) give back exactly what was written, bit for bit.
final class SessionBlockReadTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-blocks") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// Writes `samples` (with a GPS fix every `fixEvery` samples, so that chunks hold blocks of
    /// different sizes) and returns the path.
    private func write(_ samples: [AccelSample], name: String, countsScale: Float? = nil, fixEvery: Int = 100) throws -> String {
        let path = directory + "/\(name).oarlog"
        var options = SessionWriter.Options(durability: .never)
        options.accelerometerCountsScale = countsScale
        let writer = try SessionWriter(path: path, metadata: testMetadata(), options: options)
        for (i, s) in samples.enumerated() {
            try writer.append(.accel(s))
            if i % fixEvery == 37 {
                try writer.append(.fix(GPSFix(time: s.time, latitude: 51.48, longitude: -0.22, speed: 4.0, mode: .threeD)))
            }
        }
        try writer.close()
        return path
    }

    /// Every sample through the column-wise path, as bits.
    private func blockBits(_ path: String) throws -> (samples: [[UInt64]], blockSizes: Set<Int>) {
        var out: [[UInt64]] = []
        var sizes = Set<Int>()
        try SessionReader(path: path).forEachAccelerometerBlock { columns in
            sizes.insert(columns.count)
            XCTAssertEqual(columns.times.count, columns.count)
            XCTAssertEqual(columns.z.count, columns.count)
            for i in 0..<columns.count {
                let s = columns[i]
                XCTAssertEqual(s.x.bitPattern, columns.x[i].bitPattern)
                out.append(bits(.accel(s)))
            }
        }
        return (out, sizes)
    }

    private func accelBits(_ samples: [AccelSample]) -> [[UInt64]] { samples.map { bits(.accel($0)) } }

    private func recordAccelBits(_ path: String) throws -> [[UInt64]] {
        try readAll(path).compactMap { if case .accel = $0 { return bits($0) } else { return nil } }
    }

    /// Float32 and int16 sessions at 100 Hz with a fix every second: blocks of 38 and 62
    /// samples follow one another (the column storage is reused across sizes).
    func testBlocksMatchWhatWasWrittenFloatAndCounts() throws {
        let scale: Float = 0.0383
        var floats: [AccelSample] = [], counts: [AccelSample] = []
        var state: UInt64 = 99
        for i in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let c = Int16(truncatingIfNeeded: Int64(bitPattern: state >> 33) % 600)
            let t = Double(i) / 100
            floats.append(AccelSample(time: t, x: Float(c) * 0.001 + 0.1, y: -Float(i % 300) * 0.01, z: 9.80665))
            counts.append(AccelSample(time: t, x: Float(c) * scale, y: Float(-c / 2) * scale, z: Float(256) * scale))
        }
        for (name, samples, countsScale) in [("float", floats, nil), ("counts", counts, scale)] as [(String, [AccelSample], Float?)] {
            let path = try write(samples, name: name, countsScale: countsScale)
            let (blocks, sizes) = try blockBits(path)
            XCTAssertEqual(blocks, accelBits(samples), name)
            XCTAssertEqual(try recordAccelBits(path), accelBits(samples), name)
            XCTAssertTrue(sizes.isSuperset(of: [38, 62]), "\(name): block sizes \(sizes.sorted())")
        }
    }

    /// Times at many rates, from `n / rate` and from a nanosecond clock, small and large (ticks
    /// above 2^53 ns, about 104 days, take the integer path), steady and jittered (runs with a
    /// changing interval), read back bit-exact through both paths.
    func testTimesReadBackBitExactAtManyRatesAndMagnitudes() throws {
        var cases: [(String, [Seconds])] = []
        for rate in [1.0, 12.5, 25, 50, 100, 104, 200, 400, 800, 1000, 3200] {
            cases.append(("rate \(rate)", (0..<5_000).map { Double($0) / rate }))
        }
        for (origin, period) in [(Int64(12_345_678_901_234), Int64(10_000_000)), (1_777_705_200_123_456_789, 9_765_625),
                                 (9_007_199_254_740_000, 1_000_000), (-5_000_000_000, 2_500_000)] as [(Int64, Int64)] {
            cases.append(("clock \(origin)", (0..<5_000).map { Double(origin + Int64($0) * period) / 1e9 }))
        }
        // A clock with jitter: the interval changes from sample to sample (runs of length 1–3).
        var tick: Int64 = 86_400_000_000_000
        var jittered: [Seconds] = []
        for i in 0..<5_000 {
            tick += 10_000_000 + Int64((i * 7919) % 5) * 1_000 - 2_000
            jittered.append(Double(tick) / 1e9)
        }
        cases.append(("jittered clock", jittered))
        for (k, (name, times)) in cases.enumerated() {
            let samples = times.map { AccelSample(time: $0, x: 1, y: 2, z: 3) }
            let path = try write(samples, name: "times-\(k)", fixEvery: 250)
            let expected = samples.map { $0.time.bitPattern }
            XCTAssertEqual(try blockBits(path).samples.map { $0[1] }, expected, name)
            XCTAssertEqual(try recordAccelBits(path).map { $0[1] }, expected, name)
        }
    }

    /// The file is read through a memory map when it can be, and the reader gives back the map's
    /// pages as it goes: reading a 60 MB session leaves little of it resident.
    func testMappedReadingKeepsResidentMemoryBounded() throws {
        let samples = (0..<4_000_000).map { AccelSample(time: Double($0) / 100, x: Float($0 % 1000), y: 0.5, z: 9.8) }
        let path = try write(samples, name: "big", fixEvery: 1_000_000)
        let reader = try SessionReader(path: path)
        XCTAssertNotNil(reader.file.mapping, "the session file could not be mapped")
        XCTAssertGreaterThan(reader.fileSize, 45_000_000)
        let before = ProcessMemory.residentBytes()
        var n = 0
        var peak = 0
        try reader.forEachAccelerometerBlock { columns in
            n += columns.count
            if n % 400_000 < columns.count { peak = max(peak, ProcessMemory.residentBytes()) }
        }
        XCTAssertEqual(n, samples.count)
        print("mapped read of \(reader.fileSize) bytes: RSS grew by at most \((peak - before) / 1000) kB")
        XCTAssertLessThan(peak - before, 8_000_000, "the mapped file stayed resident")
    }
}
