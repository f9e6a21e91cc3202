import Foundation
import OarlogCore
import OarlogDSP
import OarlogPipeline
@testable import OarlogSession
import XCTest

/// The boat's fused speed in the session file (record kind 0x15, minor version 6): the samples
/// the analyzer emits (`AnalyzerEvent.speed`) come back within the encoding's resolution (0.5 µs,
/// 0.5 mm/s), the raw records around them unchanged; a recording cut short keeps every block of
/// its intact chunks; a reader that does not know the kind reads everything else.
final class BoatSpeedSessionTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-boat-speed") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// Resolution of the stored values (half a tick, half a mm/s) plus the doubles' rounding.
    static let timeTolerance: Seconds = 0.5e-6 + 1e-9
    static let speedTolerance: MetresPerSecond = 0.0005 + 1e-12

    /// 30 s of a boat: accelerometer at 50 Hz, a fix a second, and the fused speed every 0.1 s
    /// (trailing the samples by 40 ms, as a filter's output does; steps of 0.1 s but for a
    /// stretch at an uneven 52 Hz decimation) swinging 3.2–4.8 m/s within a 2.4 s stroke.
    func events() -> (events: [PipelineEvent], records: [TraceRecord], speeds: [BoatSpeedSample]) {
        var events: [PipelineEvent] = [], records: [TraceRecord] = [], speeds: [BoatSpeedSample] = []
        var nextSpeed = 0.04
        for i in 0..<1500 {
            let t = Double(i) * 0.02
            let record = TraceRecord.accel(AccelSample(time: t, x: Float(i % 9) * 0.1, y: 0.1, z: 9.81))
            records.append(record)
            events.append(.record(record))
            if i % 50 == 25 {
                let fix = TraceRecord.fix(GPSFix(time: t, latitude: 51.5 + t * 1e-5, longitude: -0.2))
                records.append(fix)
                events.append(.record(fix))
            }
            while nextSpeed <= t {
                let sample = BoatSpeedSample(time: nextSpeed, speed: 4 + 0.8 * sin(2 * .pi * nextSpeed / 2.4))
                speeds.append(sample)
                events.append(.analysis(.speed(sample)))
                nextSpeed += (10...14).contains(Int(nextSpeed)) ? 6.0 / 52 : 0.1
            }
        }
        return (events, records, speeds)
    }

    @discardableResult
    func write(_ events: [PipelineEvent], to path: String) throws -> SessionWriter {
        let writer = try SessionWriter(path: path, metadata: testMetadata(), options: SessionWriter.Options(durability: .never))
        for e in events { try writer.receive(e) }
        try writer.close(summary: nil)
        return writer
    }

    func assertSame(_ back: [BoatSpeedSample], _ written: ArraySlice<BoatSpeedSample>, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(back.count, written.count, file: file, line: line)
        for (b, w) in zip(back, written) {
            XCTAssertEqual(b.time, w.time, accuracy: Self.timeTolerance, file: file, line: line)
            XCTAssertEqual(b.speed, w.speed, accuracy: Self.speedTolerance, file: file, line: line)
        }
    }

    func testFusedSpeedRoundTripsBesideTheRawRecords() throws {
        let path = directory + "/speed.oarlog"
        let (events, records, speeds) = events()
        try write(events, to: path)
        let reader = try SessionReader(path: path)
        XCTAssertEqual(reader.minorVersion, 6)
        assertSame(try reader.boatSpeeds(), speeds[...])
        XCTAssertEqual(try readAll(path).map(bits), records.map(bits), "the raw records and their order are unchanged")
        XCTAssertEqual(reader.summary?.statistics.boatSpeedSamples, speeds.count)
        XCTAssertGreaterThan(speeds.count, 290)
    }

    /// About 4 bytes a sample: one for a steady step, two for the speed, the block's header
    /// shared by a chunk's ten samples.
    func testTheBlocksAreCompact() throws {
        let with = directory + "/with.oarlog", without = directory + "/without.oarlog"
        let (events, _, speeds) = events()
        try write(events, to: with)
        try write(events.filter { if case .analysis = $0 { return false } else { return true } }, to: without)
        let extra = Double(try fileSize(with) - fileSize(without)) / Double(speeds.count)
        print("fused speed: \(extra) bytes per sample (10 Hz, chunks of 1 s)")
        XCTAssertLessThan(extra, 5, "bytes per fused speed sample")
        XCTAssertGreaterThan(extra, 3, "two bytes of speed and one of time at least")
    }

    /// Samples with no chunk-closing record between them fill blocks of 256; one going back in
    /// time starts a block of its own; what cannot be stored is left out.
    func testLongRunsBackwardsTimesAndUnstorableSamples() throws {
        let path = directory + "/runs.oarlog"
        var written = (0..<700).map { BoatSpeedSample(time: 100 + Double($0) * 0.1, speed: Double($0 % 60) / 10 - 0.5) }
        written.append(BoatSpeedSample(time: 150, speed: 2.25))  // back in time
        written.append(BoatSpeedSample(time: 150.1, speed: 2.5))
        var events = written.map { PipelineEvent.analysis(.speed($0)) }
        events.insert(.analysis(.speed(BoatSpeedSample(time: 120, speed: .nan))), at: 10)
        events.insert(.analysis(.speed(BoatSpeedSample(time: .infinity, speed: 4))), at: 20)
        events.insert(.analysis(.speed(BoatSpeedSample(time: 130, speed: 5_000))), at: 30)
        try write(events, to: path)
        let reader = try SessionReader(path: path)
        assertSame(try reader.boatSpeeds(), written[...])
        var blocks = 0
        var it = reader.entries()
        try it.forEachChunkRecord { k, _ in if k == RecordKind.boatSpeed.rawValue { blocks += 1 } }
        XCTAssertEqual(blocks, 4, "256 + 256 + 188, then the two back in time")
    }

    func testRecoveryAfterACutKeepsEveryCompleteBlock() throws {
        let path = directory + "/cut.oarlog"
        let (events, _, speeds) = events()
        try write(events, to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let damaged = directory + "/damaged.oarlog", fixed = directory + "/fixed.oarlog"
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: damaged))
        let report = try SessionRecovery.recover(damaged, to: fixed, sync: false)
        XCTAssertEqual(report.outcome, .lossy)
        let back = try SessionReader(path: fixed).boatSpeeds()
        XCTAssertEqual(report.kept.boatSpeedSamples, back.count)
        // The kept samples are the recording's first, exactly; the chunks before the cut hold
        // every sample up to a second before the last raw record kept.
        assertSame(back, speeds.prefix(back.count))
        let lastKept = try XCTUnwrap(readAll(fixed).last?.time)
        XCTAssertGreaterThan(back.last?.time ?? 0, lastKept - 1)
        XCTAssertGreaterThan(back.count, speeds.count / 2)
    }

    /// An older reader knows no kind 0x15: the blocks are relabelled with a kind no reader knows
    /// (0x7E, the frames' CRCs recomputed); the raw records read back as written, no speed.
    func testAReaderSkipsTheKindItDoesNotKnow() throws {
        let path = directory + "/relabel.oarlog"
        let (events, records, _) = events()
        try write(events, to: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let relabelled = try SessionRelabel.relabel(&bytes, reader: SessionReader(path: path), kind: .boatSpeed, as: 0x7E)
        XCTAssertGreaterThan(relabelled, 25, "a block per chunk")
        let relabelledPath = directory + "/unknown-kind.oarlog"
        try Data(bytes).write(to: URL(fileURLWithPath: relabelledPath))
        XCTAssertEqual(try readAll(relabelledPath).map(bits), records.map(bits))
        XCTAssertEqual(try SessionReader(path: relabelledPath).boatSpeeds().count, 0)
    }

    /// A block whose count claims more samples than its bytes hold is damage, not a trap.
    func testAHostileBlockIsAnErrorNotATrap() throws {
        var w = ByteWriter(capacity: 64)
        w.varint(200)
        w.f64(1)
        w.zigzag(Int64.max / 2)
        let bytes = w.bytes
        XCTAssertThrowsError(try bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            try BoatSpeedBlock.decode(&r) { _ in XCTFail("nothing from a damaged block") }
        })
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
