import OarlogCore
import OarlogDSP
import OarlogSimulator
import XCTest

/// `RowingAnalyzer.process(accel:emit:)` (runs of accelerometer samples, the fast path for
/// recorded data) must give exactly what feeding the same samples one `TraceRecord` at a time
/// gives — every stroke, every live figure, bit for bit — and the strokes must be the real ones.
final class AnalyzerAccelBlockTests: XCTestCase {
    /// A simulated session with ground truth: tilted sensor, 100 Hz, 28 spm, GPS at 1 Hz.
    private func session(rate: StrokesPerMinute, accelRate: Hertz, minutes: Double = 2)
        throws -> (records: [TraceRecord], truth: [Seconds]) {
        var configuration = SimulationConfiguration(minutes: minutes, rate: rate)
        configuration.accelRate = accelRate
        configuration.mounting = try OarlogSimulator.Mounting.parse("tilted")
        configuration.seed = 4242
        var simulator = try BoatSimulator(configuration: configuration)
        var records: [TraceRecord] = []
        while let r = try simulator.next() { records.append(r) }
        return (records, simulator.groundTruth.strokes.map(\.catchTime))
    }

    private static var accelerometerOnly: AnalyzerConfiguration {
        var c = AnalyzerConfiguration()
        c.strokeSource = .accelerometer
        return c
    }

    /// Every record through `process(_:)`.
    private func perRecord(_ records: [TraceRecord]) -> [AnalyzerEvent] {
        var analyzer = RowingAnalyzer(configuration: Self.accelerometerOnly)
        var events: [AnalyzerEvent] = []
        for r in records { analyzer.process(r) { events.append($0) } }
        analyzer.finish { events.append($0) }
        return events
    }

    /// Runs of accelerometer samples (at most `run` long) through `process(accel:)`, everything
    /// else through `process(_:)`.
    private func inRuns(_ records: [TraceRecord], run: Int) -> [AnalyzerEvent] {
        var analyzer = RowingAnalyzer(configuration: Self.accelerometerOnly)
        var events: [AnalyzerEvent] = []
        var buffer: [AccelSample] = []
        buffer.reserveCapacity(run)
        func flush() {
            buffer.withUnsafeBufferPointer { analyzer.process(accel: $0) { events.append($0) } }
            buffer.removeAll(keepingCapacity: true)
        }
        for r in records {
            if case .accel(let s) = r {
                buffer.append(s)
                if buffer.count == run { flush() }
            } else {
                flush()
                analyzer.process(r) { events.append($0) }
            }
        }
        flush()
        analyzer.finish { events.append($0) }
        return events
    }

    func testRunsGiveExactlyTheEventsOfSingleRecords() throws {
        for accelRate in [25.0, 100.0, 500.0] {
            let (records, truth) = try session(rate: 28, accelRate: accelRate)
            let reference = perRecord(records)
            let strokes = reference.compactMap { if case .stroke(let m) = $0 { return m.stroke.catchTime } else { return nil } }
            // The reference itself is right: every true catch found within 100 ms, none extra
            // (the first catch of a session from rest may be missed while the mounting settles).
            let matched = truth.filter { t in strokes.contains { abs($0 - t) <= 0.1 } }.count
            XCTAssertGreaterThanOrEqual(matched, truth.count - 1, "\(accelRate) Hz: \(matched) of \(truth.count) catches found")
            XCTAssertLessThanOrEqual(strokes.count, truth.count, "\(accelRate) Hz: extra strokes")
            for run in [1, 7, 100, 4096] {
                XCTAssertEqual(inRuns(records, run: run), reference, "\(accelRate) Hz, runs of \(run)")
            }
        }
    }

    func testEmptyRunChangesNothing() throws {
        let (records, _) = try session(rate: 20, accelRate: 50, minutes: 0.5)
        var a = RowingAnalyzer(configuration: Self.accelerometerOnly)
        var events: [AnalyzerEvent] = []
        for r in records {
            [AccelSample]().withUnsafeBufferPointer { a.process(accel: $0) { events.append($0) } }
            a.process(r) { events.append($0) }
        }
        a.finish { events.append($0) }
        XCTAssertEqual(events, perRecord(records))
    }
}
