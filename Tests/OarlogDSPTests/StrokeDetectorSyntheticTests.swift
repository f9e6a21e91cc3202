import XCTest
import Foundation
import OarlogCore
import OarlogDSP

/// Rates, pauses, restarts, light paddling, sitting still, rate changes and gaps, on traces
/// built from the real Quiske stroke curves time-scaled to the wanted rate (see
/// `SyntheticRowing`): the catch of every stroke is known.
final class StrokeDetectorSyntheticTests: XCTestCase {
    private func detect(_ trace: SyntheticRowing, configuration: StrokeDetectorConfiguration = .init()) -> [StrokeEvent] {
        StrokeDetectorQuiskeTests.detect(times: trace.times, surge: trace.surge, configuration: configuration)
    }

    /// The first catch of a trace starting with a stroke has no dip before it: not expected.
    private func expected(_ trace: SyntheticRowing) -> [Seconds] { trace.catches.filter { $0 > 0 } }

    func testRatesFrom16To40spm() throws {
        let curves = try SyntheticRowing.quiskeCurves()
        for rate in stride(from: 16.0, through: 40.0, by: 4.0) {
            for sampleRate in [25.0, 100.0] {
                let trace = SyntheticRowing([.strokes(count: 30, rate: rate)], curves: curves, timeAt: { Double($0) / sampleRate })
                let events = detect(trace)
                let match = StrokeMatch(detected: events.map(\.catchTime), truth: expected(trace), tolerance: 0.3)
                print("\(rate) spm at \(sampleRate) Hz: \(match.summary)")
                XCTAssertEqual(match.missed.count, 0, "\(rate) spm \(sampleRate) Hz: \(match.summary)")
                XCTAssertEqual(match.extra.count, 0, "\(rate) spm \(sampleRate) Hz: \(match.summary)")
                XCTAssertLessThanOrEqual(match.maxAbsError, 0.05, "\(rate) spm \(sampleRate) Hz: \(match.summary)")
                for e in events.dropFirst() {
                    XCTAssertEqual(try XCTUnwrap(e.strokeRate), rate, accuracy: 1.0, "\(rate) spm: stroke \(e.index)")
                }
            }
        }
    }

    func testPauseAndRestartWithLightPaddling() throws {
        let curves = try SyntheticRowing.quiskeCurves()
        // Hard at 24, a 20 s pause sitting still, light paddling at 18 (30 % pressure), hard at 32.
        let trace = SyntheticRowing([.strokes(count: 12, rate: 24), .still(seconds: 20),
                                     .strokes(count: 10, rate: 18, scale: 0.3), .strokes(count: 10, rate: 32)],
                                    curves: curves, timeAt: { Double($0) / 50 })
        let events = detect(trace)
        let match = StrokeMatch(detected: events.map(\.catchTime), truth: expected(trace), tolerance: 0.3)
        print("pause/restart: \(match.summary)")
        XCTAssertEqual(match.missed.count, 0, match.summary)
        XCTAssertEqual(match.extra.count, 0, match.summary)
        XCTAssertLessThanOrEqual(match.maxAbsError, 0.05, match.summary)
        // The first stroke after the pause has no rate; the others their rate within 1 spm.
        for e in events.dropFirst() {  // the first detected stroke has no previous catch
            guard let i = trace.catches.firstIndex(where: { abs($0 - e.catchTime) < 0.3 }) else { continue }
            if let truthRate = trace.rates[i] {
                XCTAssertEqual(try XCTUnwrap(e.strokeRate, "stroke at \(e.catchTime)"), truthRate, accuracy: 1.0)
            } else if i > 0 {
                XCTAssertNil(e.strokeRate, "first stroke after the pause, at \(e.catchTime)")
            }
        }
    }

    func testSittingStillGivesNoStrokes() throws {
        // Five minutes of noise (0.1 m/s²) plus slow surge wobble from waves (0.15 m/s² at 0.3 Hz).
        var noise = SeededNoise(seed: 42)
        var detector = StrokeDetector()
        var count = 0
        for i in 0..<(300 * 100) {
            let t = Double(i) / 100
            let a = Float(0.15 * sin(2 * Double.pi * 0.3 * t)) + noise.gaussian(sigma: 0.1)
            if detector.process(time: t, surge: a) != nil { count += 1 }
        }
        XCTAssertEqual(count, 0)
        // The same through the mounting estimator, 3-axis noise and heave: it never settles.
        var stage = SurgeStrokeDetector()
        for i in 0..<(120 * 50) {
            let t = Double(i) / 50
            let heave = 0.8 * sin(2 * Double.pi * 0.9 * t)
            stage.process(AccelSample(time: t, x: noise.gaussian(sigma: 0.05), y: Float(9.2) + noise.gaussian(sigma: 0.05),
                                      z: Float(3.5 + heave) + noise.gaussian(sigma: 0.05))) { _ in count += 1 }
        }
        XCTAssertEqual(count, 0)
        XCTAssertFalse(stage.mounting.isSettled)
    }

    func testSampleRateChangeMidStream() throws {
        let curves = try SyntheticRowing.quiskeCurves()
        // 100 Hz for the first 60 s, then 25 Hz.
        let trace = SyntheticRowing([.strokes(count: 50, rate: 26)], curves: curves,
                                    timeAt: { $0 <= 6000 ? Double($0) / 100 : 60 + Double($0 - 6000) / 25 })
        let events = detect(trace)
        let match = StrokeMatch(detected: events.map(\.catchTime), truth: expected(trace), tolerance: 0.3)
        print("rate change 100 → 25 Hz: \(match.summary)")
        XCTAssertEqual(match.missed.count, 0, match.summary)
        XCTAssertEqual(match.extra.count, 0, match.summary)
        XCTAssertLessThanOrEqual(match.maxAbsError, 0.05, match.summary)
    }

    func testIrregularTimestamps() throws {
        let curves = try SyntheticRowing.quiskeCurves()
        // A phone: nominally 30 Hz, each interval 25–45 ms at random, sometimes 80 ms.
        var jitter = SeededNoise(seed: 3)
        var times: [Double] = [0]
        for _ in 0..<4000 { times.append(times.last! + (jitter.uniform() < 0.02 ? 0.08 : 0.025 + 0.02 * jitter.uniform())) }
        let trace = SyntheticRowing([.strokes(count: 40, rate: 22)], curves: curves, timeAt: { times[min($0, times.count - 1)] + ($0 >= times.count ? 1e9 : 0) })
        let events = detect(trace)
        let match = StrokeMatch(detected: events.map(\.catchTime), truth: expected(trace), tolerance: 0.3)
        print("irregular 30 Hz: \(match.summary)")
        XCTAssertEqual(match.missed.count, 0, match.summary)
        XCTAssertEqual(match.extra.count, 0, match.summary)
        XCTAssertLessThanOrEqual(match.maxAbsError, 0.06, match.summary)
    }

    func testGapResetsInsteadOfBridging() throws {
        let curves = try SyntheticRowing.quiskeCurves()
        let full = SyntheticRowing([.strokes(count: 30, rate: 24)], curves: curves, timeAt: { Double($0) / 100 })
        // Drop 30.0–37.0 s (a lost sensor).
        var detector = StrokeDetector()
        var events: [StrokeEvent] = []
        for (t, a) in zip(full.times, full.surge) where t < 30 || t >= 37 {
            if let e = detector.process(time: t, surge: a) { events.append(e) }
        }
        detector.finish { events.append($0) }
        // Strokes whose catch is in the gap, or whose dip is cut by its start, are lost; the
        // first one after it needs a dip seen after the gap.
        let truth = expected(full).filter { $0 < 29.5 || $0 > 37.2 }
        let match = StrokeMatch(detected: events.map(\.catchTime), truth: truth, tolerance: 0.3)
        print("gap 30–37 s: \(match.summary)")
        XCTAssertEqual(match.missed.count, 0, match.summary)
        XCTAssertEqual(match.extra.count, 0, match.summary)
        XCTAssertFalse(events.contains { $0.catchTime > 30 && $0.catchTime < 37 }, "no stroke inside the gap")
        let afterGap = try XCTUnwrap(events.first { $0.catchTime > 37 })
        XCTAssertNil(afterGap.strokeRate, "a gap is not bridged: no rate across it")
        XCTAssertEqual(events.map(\.index), Array(1...events.count), "the count carries on across the gap")
    }

    func testRecoveryFromTheNextCatch() {
        let stroke = StrokeEvent(index: 1, catchTime: 10, driveDuration: 0.9, recoveryDuration: nil, peakAcceleration: 3, strokeRate: nil)
        XCTAssertEqual(stroke.completed(nextCatch: 13).recoveryDuration!, 2.1, accuracy: 1e-9)
    }
}
