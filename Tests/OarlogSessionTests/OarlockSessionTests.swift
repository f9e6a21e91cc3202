import Foundation
import OarlogCore
@testable import OarlogSession
import XCTest

/// Heart rates with their straps and instrumented oarlock strokes (record kind 0x08) in the
/// session file: they come back bit for bit, survive a recording cut short, and a reader that does
/// not know the kind skips it and reads the rest.
final class OarlockSessionTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-oarlock") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// 20 s of a boat: accelerometer at 50 Hz, a stroke every 2.5 s with its oarlock figures (some
    /// missing, two seats), two straps at 1 Hz.
    func records() -> [TraceRecord] {
        var out: [TraceRecord] = []
        for i in 0..<1000 {
            let t = Double(i) * 0.02
            out.append(.accel(AccelSample(time: t, x: Float(i % 7) * 0.1, y: 0.2, z: 9.81)))
            if i % 50 == 10 {
                out.append(.heartRate(HeartRateSample(time: t, bpm: 120 + Double(i / 50), sensor: "stroke")))
                out.append(.heartRate(HeartRateSample(time: t, bpm: 140.5 - Double(i / 50), sensor: "bow")))
            }
            if i % 125 == 0 {
                let k = Double(i / 125)
                out.append(.oarlock(OarlockStroke(time: t, seat: k.truncatingRemainder(dividingBy: 2) == 0 ? nil : "bow",
                                                  power: 150 + k, catchAngle: -60 + k, finishAngle: 45,
                                                  slip: i == 250 ? nil : 7, wash: 14, effectiveLength: 83,
                                                  averageForce: 245.5, maxForce: 480.25, maxForceAngle: -16,
                                                  work: i == 500 ? nil : 447.75)))
            }
        }
        return out
    }

    func isDeviceRecord(_ r: TraceRecord) -> Bool {
        switch r {
        case .heartRate, .oarlock: return true
        default: return false
        }
    }

    func testOarlockStrokesAndStrapsRoundTrip() throws {
        let path = directory + "/s.oarlog"
        let records = records()
        _ = try recordSession(records, to: path)
        let back = try readAll(path)
        XCTAssertEqual(back.map(bits), records.map(bits))
        XCTAssertEqual(back.filter(isDeviceRecord).count, 8 + 40)
        XCTAssertGreaterThanOrEqual(try SessionReader(path: path).minorVersion, 5, "oarlock strokes came with minor version 5")
    }

    /// The stored summary keeps each strap's and the oarlock's figures (the test's own means).
    func testTheStoredSummaryKeepsStrapsAndOarlock() throws {
        let path = directory + "/summary.oarlog"
        let records = records()
        let collector = try recordSession(records, to: path)
        let stored = try XCTUnwrap(try SessionReader(path: path).summary?.analysis)
        XCTAssertEqual(stored, collector.summary)
        let straps = stored.heartRateSensors.sensors
        XCTAssertEqual(straps.map(\.name), ["stroke", "bow"])
        func bpm(_ sensor: String) -> [Double] {
            records.compactMap { if case .heartRate(let h) = $0, h.sensor == sensor { return h.bpm } else { return nil } }
        }
        XCTAssertEqual(straps[0].average, bpm("stroke").reduce(0, +) / 20, accuracy: 1e-9)
        XCTAssertEqual(straps[1].max, bpm("bow").max())
        XCTAssertEqual(stored.oarlock.strokes, 8)
        XCTAssertEqual(stored.oarlock.averagePower ?? 0, (150.0 + 151 + 152 + 153 + 154 + 155 + 156 + 157) / 8, accuracy: 1e-9)
        XCTAssertEqual(stored.oarlock.slip.count, 7, "one stroke gave no slip")
        XCTAssertEqual(stored.averagePower ?? 0, stored.oarlock.averagePower ?? -1, accuracy: 1e-9, "no reference power: the oarlock's")
    }

    func testRecoveryAfterTruncationKeepsThem() throws {
        let path = directory + "/cut.oarlog"
        let records = records()
        _ = try recordSession(records, to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let damaged = directory + "/damaged.oarlog", fixed = directory + "/fixed.oarlog"
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: damaged))
        let report = try SessionRecovery.recover(damaged, to: fixed, sync: false)
        XCTAssertEqual(report.outcome, .lossy)
        let back = try readAll(fixed)
        // What was kept is the recording's start, exactly.
        XCTAssertGreaterThan(back.count, 0)
        XCTAssertEqual(back.map(bits), records.prefix(back.count).map(bits))
        let kept = back.filter(isDeviceRecord)
        XCTAssertGreaterThanOrEqual(kept.filter { if case .oarlock = $0 { return true } else { return false } }.count, 3)
        XCTAssertGreaterThanOrEqual(kept.filter { if case .heartRate(let h) = $0 { return h.sensor == "bow" } else { return false } }.count, 8)
    }

    /// An older reader knows no kind 0x08: here the oarlock records are relabelled with a kind no
    /// reader knows (0x7E, the frame's CRC recomputed), and the reader gives every other record.
    func testAReaderSkipsTheKindItDoesNotKnow() throws {
        let path = directory + "/relabel.oarlog"
        let records = records()
        _ = try recordSession(records, to: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let reader = try SessionReader(path: path)
        let relabelled = try SessionRelabel.relabel(&bytes, reader: reader, kind: .oarlock, as: 0x7E)
        XCTAssertEqual(relabelled, 8)
        let relabelledPath = directory + "/unknown-kind.oarlog"
        try Data(bytes).write(to: URL(fileURLWithPath: relabelledPath))
        let back = try readAll(relabelledPath)
        let expected = records.filter { if case .oarlock = $0 { return false } else { return true } }
        XCTAssertEqual(back.map(bits), expected.map(bits))
    }
}
