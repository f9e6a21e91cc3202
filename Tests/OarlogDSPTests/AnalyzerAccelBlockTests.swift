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
    private func perRecord(_ records: [TraceRecord], _ configuration: AnalyzerConfiguration = accelerometerOnly) -> [AnalyzerEvent] {
        var analyzer = RowingAnalyzer(configuration: configuration)
        var events: [AnalyzerEvent] = []
        for r in records { analyzer.process(r) { events.append($0) } }
        analyzer.finish { events.append($0) }
        return events
    }

    /// Runs of accelerometer samples (at most `run` long) through `process(accel:)`, everything
    /// else through `process(_:)`.
    private func inRuns(_ records: [TraceRecord], run: Int, _ configuration: AnalyzerConfiguration = accelerometerOnly) -> [AnalyzerEvent] {
        var analyzer = RowingAnalyzer(configuration: configuration)
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

    /// The run path with everything it must hand back to the per-sample path: rests and
    /// restarts, every mounting, noisy sensors, a configured axis, strokes from the reference
    /// only, and samples the run path does not take (non-finite values, time standing still or
    /// going back, gaps, a rate change, the sensor turned round mid-session so the bow sign flips).
    func testRunsEqualSingleRecordsInUncommonSessions() throws {
        func simulate(_ profile: String, minutes: Double, accelRate: Hertz, mounting: String, noise: Double,
                      seed: UInt64) throws -> [TraceRecord] {
            var configuration = SimulationConfiguration(duration: minutes * 60,
                                                        profile: try SimulationProfile.parse(profile, duration: minutes * 60))
            configuration = configuration.withNoise(scale: noise)
            configuration.accelRate = accelRate
            configuration.mounting = try OarlogSimulator.Mounting.parse(mounting)
            configuration.seed = seed
            var simulator = try BoatSimulator(configuration: configuration)
            var records: [TraceRecord] = []
            while let r = try simulator.next() { records.append(r) }
            return records
        }
        func check(_ records: [TraceRecord], _ configuration: AnalyzerConfiguration, _ what: String,
                   file: StaticString = #filePath, line: UInt = #line) {
            let reference = perRecord(records, configuration)
            XCTAssertGreaterThan(reference.count, 10, what, file: file, line: line)
            for run in [1, 3, 100, 4096] {
                XCTAssertEqual(inRuns(records, run: run, configuration), reference, "\(what), runs of \(run)", file: file, line: line)
            }
        }
        let workout = "90:24,40:rest,60:32,30:rest,60:20@0.5"
        for (rate, mounting) in [(25.0, "upside-down"), (52.0, "yaw=120,pitch=-80,roll=10"), (100.0, "flat"), (500.0, "upright")] {
            let records = try simulate(workout, minutes: 4.7, accelRate: rate, mounting: mounting, noise: 3, seed: UInt64(rate))
            check(records, Self.accelerometerOnly, "\(mounting) at \(rate) Hz")
            var fixed = Self.accelerometerOnly
            fixed.mounting.axis = .fixed(SIMD3(1, 0.2, 0))
            check(records, fixed, "\(mounting) at \(rate) Hz, fixed axis")
            var reference = AnalyzerConfiguration()
            reference.strokeSource = .reference
            check(records, reference, "\(mounting) at \(rate) Hz, reference strokes")
            check(records, AnalyzerConfiguration(), "\(mounting) at \(rate) Hz, automatic")
        }

        // Samples the run path hands back, spread over a tilted 100 Hz session.
        let records = try simulate("200:26,30:rest,100:30", minutes: 5.5, accelRate: 100, mounting: "tilted", noise: 1, seed: 9)
        var thinned: [TraceRecord] = []
        var accelSeen = 0
        var shift: Seconds = 0
        for record in records {
            guard case .accel(var a) = record else {
                if case .fix(var f) = record { f.time += shift; thinned.append(.fix(f)) } else { thinned.append(record) }
                continue
            }
            accelSeen += 1
            a.time += shift
            switch accelSeen {
            case 3_000, 3_001: a.x = .nan
            case 4_000: a.y = .infinity
            case 5_000: a.time -= 0.005               // back before the previous sample
            case 6_000: a.time = .nan
            case 7_000: shift += 0.4; a.time += 0.4   // a gap
            case 8_000: shift += 2.0; a.time += 2.0   // a long gap
            default: break
            }
            if accelSeen >= 9_000 && accelSeen < 12_000 && accelSeen % 2 == 1 { a.time += 0.0004 }  // jitter
            if accelSeen >= 15_000 { a.x = -a.x; a.y = -a.y }  // the sensor turned round: the bow sign must flip
            if accelSeen > 20_000 && accelSeen % 2 == 0 { continue }  // every other sample dropped: the rate halves
            thinned.append(.accel(a))
            if accelSeen == 10_000 { thinned.append(.accel(a)) }  // the same time twice
        }
        check(thinned, Self.accelerometerOnly, "perturbed 100 Hz session")
        check(thinned, AnalyzerConfiguration(), "perturbed 100 Hz session, automatic")
        var analyzer = RowingAnalyzer(configuration: Self.accelerometerOnly)
        var flipped = false
        var firstAxis: SIMD3<Double>?
        for r in thinned {
            analyzer.process(r) { _ in }
            if let axis = analyzer.mounting.surgeAxis {
                if firstAxis == nil { firstAxis = axis }
                if let f = firstAxis, (f * axis).sum() < -0.5 { flipped = true }
            }
        }
        XCTAssertTrue(flipped, "the sensor turned round: the bow sign should have flipped (the run path's exact statistic)")
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
