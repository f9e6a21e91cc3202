import OarlogCore
import OarlogDSP
import OarlogPipeline
@testable import OarlogSession
import XCTest

/// Strokes at their catch in the session file (minor version 2): each stroke is recorded the
/// moment its catch is found (0x12), concluded later (0x10); a catch that was no stroke is
/// withdrawn (0x13). Live, the chunk holding a catch is written and synced at once, and a
/// session cut short keeps every stroke its display counted.
final class StrokeCatchRecordTests: XCTestCase {
    func sample(_ t: Seconds) -> TraceRecord { .accel(AccelSample(time: t, x: 0.1, y: 0, z: 9.8)) }

    func caught(_ index: Int, at t: Seconds, rate: StrokesPerMinute?) -> StrokeMetrics {
        StrokeMetrics(stroke: StrokeEvent(index: index, catchTime: t, driveDuration: 0, recoveryDuration: nil, peakAcceleration: 0,
                                          strokeRate: rate, stage: .caught), smoothedRate: rate)
    }

    func concluded(_ index: Int, at t: Seconds, rate: StrokesPerMinute?) -> StrokeMetrics {
        StrokeMetrics(stroke: StrokeEvent(index: index, catchTime: t, driveDuration: 0.8, recoveryDuration: 1.7, peakAcceleration: 3,
                                          strokeRate: rate), smoothedRate: rate, split: 120, distancePerStroke: 10.4, distance: Double(index) * 10.4)
    }

    /// A live writer cut off (no finish, as at a power cut) after strokes 1–2 were concluded,
    /// stroke 3 only caught, and a catch 4 withdrawn in the chunk the power cut lost: the file
    /// has strokes 1 and 2 as concluded, 3 and 4 with their catch and rate only (what the display
    /// counted until the cut); each catch was on the disk as soon as it was appended.
    func testACutShortSessionKeepsTheStrokesItsDisplayCounted() throws {
        let directory = try makeTemporaryDirectory("oarlog-catch")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/cut.oarlog"
        var writer: SessionWriter? = try SessionWriter(path: path, metadata: testMetadata(), options: .init(durability: .syncEveryChunk))
        var t = 0.0
        func row(until end: Seconds) throws { while t < end { try writer!.append(sample(t)); t += 0.01 } }
        try row(until: 1.2)
        try writer!.appendCaught(caught(1, at: 1.0, rate: nil))
        XCTAssertEqual(writer!.statistics.strokeCatches, 1, "the catch's chunk is written at once")
        try row(until: 3.7)
        try writer!.appendCaught(caught(2, at: 3.5, rate: 24))
        try writer!.append(concluded(1, at: 1.0, rate: nil))
        try row(until: 6.2)
        try writer!.appendCaught(caught(3, at: 6.0, rate: 24))
        try writer!.append(concluded(2, at: 3.5, rate: 24))
        try row(until: 8.7)
        try writer!.appendCaught(caught(4, at: 8.5, rate: 24))
        try row(until: 9.2)
        try writer!.appendWithdrawn(caught(4, at: 8.5, rate: 24).stroke)
        try row(until: 9.3)  // the withdrawal's chunk (from 8.7 s) is still open: lost with the power
        XCTAssertEqual(writer!.statistics.strokeCatches, 4)
        writer = nil  // no finish: no index, summary or footer

        let reader = try SessionReader(path: path)
        XCTAssertEqual(reader.minorVersion, SessionFormat.minorVersion)
        XCTAssertGreaterThanOrEqual(SessionFormat.minorVersion, 2, "strokes at their catch came with minor version 2")
        let strokes = try reader.strokes(onDamage: .skipDamagedChunks)
        XCTAssertEqual(strokes.map(\.stroke.index), [1, 2, 3, 4], "the withdrawal was in the chunk the power cut lost")
        XCTAssertEqual(strokes[0], concluded(1, at: 1.0, rate: nil))
        XCTAssertEqual(strokes[2], caught(3, at: 6.0, rate: 24), "stroke 3 with what was known at its catch")
        XCTAssertEqual(strokes[2].stroke.stage, .caught)

        // Recovered, the same; the record counts know the catches.
        let fixed = directory + "/fixed.oarlog"
        _ = try SessionRecovery.recover(path, to: fixed)
        let recovered = try SessionReader(path: fixed)
        XCTAssertEqual(try recovered.strokes(), strokes)
        XCTAssertEqual(recovered.summary?.statistics.strokeCatches, 4)
        XCTAssertEqual(recovered.summary?.statistics.strokes, 2)
    }

    /// The same with the withdrawal written: catch 4 is not a stroke.
    func testAWithdrawnCatchIsNoStroke() throws {
        let directory = try makeTemporaryDirectory("oarlog-catch")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/withdrawn.oarlog"
        let writer = try SessionWriter(path: path, metadata: testMetadata(), options: .init(durability: .never))
        try writer.append(sample(0))
        try writer.appendCaught(caught(1, at: 1.0, rate: nil))
        XCTAssertEqual(writer.statistics.strokeCatches, 0, "not live: the chunk stays open")
        try writer.appendCaught(caught(2, at: 3.5, rate: 24))
        try writer.appendWithdrawn(caught(2, at: 3.5, rate: 24).stroke)
        try writer.appendCaught(caught(2, at: 4.0, rate: 20))
        try writer.append(concluded(1, at: 1.0, rate: nil))
        try writer.append(concluded(2, at: 4.0, rate: 20))
        try writer.finish(summary: SessionSummary(strokes: 2))
        let reader = try SessionReader(path: path)
        XCTAssertEqual(try reader.strokes(), [concluded(1, at: 1.0, rate: nil), concluded(2, at: 4.0, rate: 20)])
        XCTAssertEqual(reader.summary?.statistics.strokeCatches, 2)
        var kinds: [String] = []
        var it = reader.entries()
        while let e = try it.next() {
            switch e {
            case .caught(let m): kinds.append("caught \(m.stroke.index)")
            case .withdrawn(let s): kinds.append("withdrawn \(s.index)")
            case .stroke(let m): kinds.append("stroke \(m.stroke.index)")
            default: break
            }
        }
        XCTAssertEqual(kinds, ["caught 1", "caught 2", "withdrawn 2", "caught 2", "stroke 1", "stroke 2"])
    }

    /// Through the pipeline, as `oarlog replay` and `record` write: every stroke's catch comes
    /// before its conclusion, with the same catch time; its rate at the catch is the stroke it
    /// finished (that stroke's own rate, known from this catch).
    func testThePipelineRecordsEachStrokeAtItsCatchFirst() throws {
        let directory = try makeTemporaryDirectory("oarlog-catch")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/outing.oarlog"
        let strokes = try recordSession(try simulatorRecords(minutes: 1.5, seed: 5), to: path).strokes
        XCTAssertGreaterThan(strokes.count, 25)
        var caughtAt: [Int: Int] = [:], concludedAt: [Int: Int] = [:], catches: [Int: StrokeMetrics] = [:]
        var position = 0
        var it = try SessionReader(path: path).entries()
        while let e = try it.next() {
            position += 1
            switch e {
            case .caught(let m):
                caughtAt[m.stroke.index] = position
                catches[m.stroke.index] = m
            case .withdrawn(let s): caughtAt[s.index] = nil
            case .stroke(let m): concludedAt[m.stroke.index] = position
            default: break
            }
        }
        XCTAssertEqual(Set(caughtAt.keys), Set(strokes.map(\.stroke.index)))
        let concluded = Dictionary(uniqueKeysWithValues: strokes.map { ($0.stroke.index, $0) })
        for m in strokes {
            let i = m.stroke.index
            XCTAssertLessThan(caughtAt[i] ?? .max, concludedAt[i] ?? .min, "stroke \(i): caught before concluded")
            XCTAssertEqual(catches[i]?.stroke.catchTime, m.stroke.catchTime)
            XCTAssertEqual(catches[i]?.stroke.strokeRate, concluded[i - 1]?.stroke.strokeRate, "stroke \(i)")
            XCTAssertEqual(catches[i]?.smoothedRate, concluded[i - 1]?.smoothedRate, "stroke \(i)")
        }
    }
}
