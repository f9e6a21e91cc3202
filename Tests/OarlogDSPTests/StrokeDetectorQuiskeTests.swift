import XCTest
import Foundation
import OarlogCore
import OarlogDSP
import OarlogTrace
import OarlogTestSupport

/// The detector on the real Quiske boat-acceleration curves, chained: every stroke boundary is
/// known (each curve starts and ends at the catch dip, to within one 10 ms sample).
final class StrokeDetectorQuiskeTests: XCTestCase {
    /// Catches found sample by sample from a surge trace.
    static func detect(times: [Seconds], surge: [Float], configuration: StrokeDetectorConfiguration = .init()) -> [StrokeEvent] {
        var detector = StrokeDetector(configuration: configuration)
        var events: [StrokeEvent] = []
        for (t, a) in zip(times, surge) {
            if let e = detector.process(time: t, surge: a) { events.append(e) }
        }
        detector.finish { events.append($0) }
        return events
    }

    /// The export's first boundary is the start of the recording: there is no dip before it.
    private func truth(_ trace: QuiskeTrace) -> [Seconds] { Array(trace.boundaries.dropFirst()) }

    func testNativeRateEveryStrokeWithin50ms() throws {
        let trace = try QuiskeTrace()
        let events = Self.detect(times: trace.times, surge: trace.surge)
        let match = StrokeMatch(detected: events.map(\.catchTime), truth: truth(trace), tolerance: 0.5)
        print("Quiske native 100 Hz: \(match.summary)")
        XCTAssertEqual(match.errors.count, 54)
        XCTAssertEqual(match.missed.count, 0, match.summary)
        XCTAssertEqual(match.extra.count, 0, match.summary)
        XCTAssertLessThanOrEqual(match.maxAbsError, 0.05, match.summary)
        // Rates against the export's own SPM column (integer spm, its own timing): within 1.5 spm.
        let rows = try QuiskeCurveReader(path: try samplePath("rowingdata/quiske_per_stroke_seat.csv")).strokes
        for e in events {
            guard let rate = e.strokeRate,
                  let row = rows.lastIndex(where: { $0.time <= e.catchTime + 0.1 }), row > 0 else { continue }
            XCTAssertEqual(rate, 60 / rows[row - 1].duration, accuracy: 1.5, "stroke at \(e.catchTime)")
        }
        // Drive durations plausible for 20–24 spm (0.6–1.2 s), peaks those of the curves.
        for e in events {
            XCTAssert(e.driveDuration > 0.6 && e.driveDuration < 1.2, "drive \(e.driveDuration) s at \(e.catchTime)")
            XCTAssert(e.peakAcceleration > 2 && e.peakAcceleration < 4, "peak \(e.peakAcceleration) at \(e.catchTime)")
        }
    }

    func testResampledRatesWithin50ms() throws {
        for rate in [25.0, 50.0, 500.0] {
            let trace = try QuiskeTrace(sampleRate: rate)
            let events = Self.detect(times: trace.times, surge: trace.surge)
            let match = StrokeMatch(detected: events.map(\.catchTime), truth: truth(trace), tolerance: 0.5)
            print("Quiske resampled to \(rate) Hz: \(match.summary)")
            XCTAssertEqual(match.missed.count, 0, "\(rate) Hz: \(match.summary)")
            XCTAssertEqual(match.extra.count, 0, "\(rate) Hz: \(match.summary)")
            XCTAssertLessThanOrEqual(match.maxAbsError, 0.05, "\(rate) Hz: \(match.summary)")
        }
    }

    func testBlockPathGivesTheSameStrokesAsSamplePath() throws {
        let trace = try QuiskeTrace(sampleRate: 100)
        let bySample = Self.detect(times: trace.times, surge: trace.surge)
        var detector = StrokeDetector()
        var byBlock: [StrokeEvent] = []
        let chunk = 997  // not a multiple of the decimation factor
        var start = 0
        trace.surge.withUnsafeBufferPointer { all in
            while start < all.count {
                let end = min(all.count, start + chunk)
                detector.process(block: UnsafeBufferPointer(rebasing: all[start..<end]), startTime: Double(start) / 100,
                                 sampleInterval: 0.01) { byBlock.append($0) }
                start = end
            }
        }
        detector.finish { byBlock.append($0) }
        XCTAssertEqual(byBlock.count, bySample.count)
        XCTAssertGreaterThanOrEqual(byBlock.count, 54)
        for (a, b) in zip(byBlock, bySample) {
            XCTAssertEqual(a.catchTime, b.catchTime, accuracy: 0.002)
            XCTAssertEqual(a.driveDuration, b.driveDuration, accuracy: 0.002)
        }
    }

    /// Raw 3-axis samples in four mountings, with heave (waves), sway and sensor noise
    /// (0.05 m/s² per axis, about a phone's), through the mounting estimator into the detector.
    /// Within 50 ms at 100 and 500 Hz; at 25 Hz (40 ms between samples, no averaging) noise can
    /// move the minimum of a flat-bottomed dip by two samples: within 80 ms there.
    func testMountingsHeaveAndNoiseAtSeveralRates() throws {
        for rate in [25.0, 100.0, 500.0] {
            let trace = try QuiskeTrace(sampleRate: rate)
            for mounting in [Mounting.flat, .uprightBackwards, .skew, .phoneHolder] {
                let match = try run(trace, mounting: mounting, noiseSigma: 0.05, label: "\(rate) Hz")
                XCTAssertLessThanOrEqual(match.maxAbsError, rate < 50 ? 0.08 : 0.05, "\(rate) Hz \(mounting): \(match.summary)")
                XCTAssertLessThanOrEqual(match.medianAbsError, 0.03, "\(rate) Hz \(mounting): \(match.summary)")
            }
        }
    }

    /// Heavy noise (0.15 m/s² per axis at 25 Hz, no averaging): the count stays exact; the
    /// catch time wanders within the flat bottom of some dips (one recorded dip stays within
    /// 0.1 m/s² of its minimum for 100 ms), so the tolerance is 100 ms here.
    func testHeavyNoiseKeepsTheCount() throws {
        let trace = try QuiskeTrace(sampleRate: 25)
        for (i, mounting) in [Mounting.flat, .uprightBackwards, .skew].enumerated() {
            let match = try run(trace, mounting: mounting, noiseSigma: 0.15, seed: UInt64(10 + i), label: "25 Hz heavy noise")
            XCTAssertLessThanOrEqual(match.maxAbsError, 0.1, "\(mounting): \(match.summary)")
        }
    }

    private func run(_ trace: QuiskeTrace, mounting: Mounting, noiseSigma: Double, seed: UInt64 = 1, label: String) throws -> StrokeMatch {
        var stage = SurgeStrokeDetector()
        var events: [StrokeEvent] = []
        for s in trace.samples(mounting: mounting, noiseSigma: noiseSigma, heave: 0.8, seed: seed) {
            stage.process(s) { events.append($0) }
        }
        stage.finish { events.append($0) }
        let match = StrokeMatch(detected: events.map(\.catchTime), truth: truth(trace), tolerance: 0.5)
        print("Quiske \(label), \(mounting), heave 0.8 m/s², noise \(noiseSigma) m/s²: \(match.summary)")
        XCTAssertEqual(match.missed.count, 0, "\(label) \(mounting): \(match.summary)")
        XCTAssertEqual(match.extra.count, 0, "\(label) \(mounting): \(match.summary)")
        let axis = try XCTUnwrap(stage.mounting.surgeAxis)
        let expected = mounting.apply(SIMD3(1, 0, 0))
        XCTAssertGreaterThan((axis * expected).sum(), 0.995, "\(mounting): axis \(axis), expected \(expected)")
        return match
    }
}
