import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogSimulator

/// The boat's fused speed (`AnalyzerEvent.speed`) in the exports: a simulated 2-minute piece
/// through the pipeline, with a fused speed of the test's own (every 0.1 s, 40 ms behind the
/// records, swinging 3.3–5.1 m/s within a 2.3 s cycle — nothing like the receiver's) put in
/// place of any the analyzer emits. Each TCX track point's speed is that fused speed at the
/// point's time (linear between the samples) within the file's 3 decimals; each CSV stroke's
/// split is the analyzer's own (the stroke list's), within the file's 2 decimals.
final class FusedSpeedExportTests: XCTestCase {
    static let step: Seconds = 0.1
    static func fused(_ k: Int) -> BoatSpeedSample {
        let t = Double(k) * step
        return BoatSpeedSample(time: t, speed: 4.2 + 0.9 * sin(2 * .pi * t / 2.3))
    }

    /// The test's fused speed at `t`, linear between its samples (nil before the first).
    static func fusedSpeed(at t: Seconds) -> MetresPerSecond? {
        guard t >= 0 else { return nil }
        let k = Int((t / step).rounded(.down))
        let a = fused(k), b = fused(k + 1)
        return a.speed + (b.speed - a.speed) * (t - a.time) / (b.time - a.time)
    }

    /// Its mean from `start` to `end` by the midpoint rule at 1 ms (an independent integration).
    static func meanFusedSpeed(_ start: Seconds, _ end: Seconds) -> MetresPerSecond {
        let n = Int(((end - start) / 0.001).rounded(.up))
        let h = (end - start) / Double(n)
        return (0..<n).reduce(0.0) { $0 + (fusedSpeed(at: start + (Double($1) + 0.5) * h) ?? 0) } / Double(n)
    }

    /// Puts the test's fused speed into the pipeline's events for `sinks`, 40 ms behind the
    /// records, in place of the analyzer's own.
    final class FusedSpeedSource: PipelineSink {
        let sinks: [any PipelineSink]
        private var next = 0
        private var lastTime: Seconds = 0
        var wantsRawRecords: Bool { true }
        init(_ sinks: [any PipelineSink]) { self.sinks = sinks }

        func receive(_ event: PipelineEvent) throws {
            if case .analysis(.speed) = event { return }
            if case .record(let r) = event, let t = r.time {
                lastTime = max(lastTime, t)
                try send(upTo: t - 0.04)
            }
            for s in sinks { try s.receive(event) }
        }

        private func send(upTo t: Seconds) throws {
            while FusedSpeedExportTests.fused(next).time <= t {
                let sample = FusedSpeedExportTests.fused(next)
                for s in sinks { try s.receive(.analysis(.speed(sample))) }
                next += 1
            }
        }

        func finish(summary: SessionSummary) throws {
            try send(upTo: lastTime + 1)
            for s in sinks { try s.finish(summary: summary) }
        }
    }

    func testPointSpeedsAreTheFusedSpeedsAndStrokeSplitsTheAnalyzers() throws {
        var configuration = SimulationConfiguration(duration: 120, profile: SimulationProfile(
            name: "piece", segments: [.rowing(120, rate: 26, power: 0.9)], flyingStart: true))
        configuration.seed = 11
        var simulator = try BoatSimulator(configuration: configuration)
        let directory = try temporaryDirectory(self)
        let tcx = directory.appendingPathComponent("fused.tcx").path, csv = directory.appendingPathComponent("fused.csv").path
        let recorder = PipelineRecorder()
        let fused = FusedSpeedSource([try TCXExporter(path: tcx), try StrokeCSVExporter(path: csv)])
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: AnalyzerConfiguration()), sinks: [recorder, fused])
        _ = try pipeline.run(&simulator)

        // Track points: one per fix, each with the fused speed at its time.
        let text = try String(contentsOfFile: tcx, encoding: .utf8)
        let speeds = text.components(separatedBy: "<ns3:Speed>").dropFirst().compactMap { Double($0.prefix { $0 != "<" }) }
        XCTAssertEqual(speeds.count, recorder.fixes.count)
        var compared = 0
        for (speed, fix) in zip(speeds, recorder.fixes) {
            guard let expected = Self.fusedSpeed(at: fix.time) else { continue }
            XCTAssertEqual(speed, expected, accuracy: 0.0005 + 1e-9, "speed at \(fix.time) s")
            if let receiver = fix.speed, abs(receiver - expected) > 0.01 { compared += 1 }
        }
        XCTAssertGreaterThan(compared, recorder.fixes.count * 8 / 10, "the fused speed, not the receiver's")

        // Strokes: the analyzer's own split (its fused speed sample by sample), not one
        // worked out again from the 0.1 s samples the export holds: the test's injected speed
        // (nothing like the boat's) leaves every stroke's split as the stroke list has it.
        let rows = parseCSV(try String(contentsOfFile: csv, encoding: .utf8))
        let header = try XCTUnwrap(rows.first)
        let split = try XCTUnwrap(header.firstIndex(of: "Split (s/500m)"))
        XCTAssertEqual(rows.count - 1, recorder.strokes.count)
        var strokes = 0
        for (row, m) in zip(rows.dropFirst(), recorder.strokes) {
            guard let expected = m.split, let recovery = m.stroke.recoveryDuration else { continue }
            let end = m.stroke.catchTime + m.stroke.driveDuration + recovery
            XCTAssertEqual(try XCTUnwrap(Double(row[split])), expected, accuracy: 0.005 + 1e-6, "stroke \(m.stroke.index)")
            XCTAssertGreaterThan(abs(expected - 500 / Self.meanFusedSpeed(m.stroke.catchTime, end)), 0.01,
                                 "stroke \(m.stroke.index): not the injected speed's")
            strokes += 1
        }
        XCTAssertGreaterThan(strokes, 40, "26 spm for 2 minutes")
    }
}
