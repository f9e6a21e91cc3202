import XCTest
import Foundation
import OarlogCore
import OarlogDSP

/// The detector on the real Quiske boat-acceleration curves, chained: every stroke boundary
/// is known (each curve starts and ends at the catch dip).
final class StrokeDetectorQuiskeTests: XCTestCase {
    /// Catches found sample by sample from a surge trace.
    private func detect(times: [Seconds], surge: [Float], configuration: StrokeDetectorConfiguration = .init()) -> [StrokeEvent] {
        var detector = StrokeDetector(configuration: configuration)
        var events: [StrokeEvent] = []
        for (t, a) in zip(times, surge) {
            if let e = detector.process(time: t, surge: a) { events.append(e) }
        }
        detector.finish { events.append($0) }
        return events
    }

    func testNativeRateEveryStrokeWithin50ms() throws {
        let trace = try QuiskeTrace()
        var cfg = StrokeDetectorConfiguration(); cfg.internalRate = Double(ProcessInfo.processInfo.environment["IR"] ?? "25")!
        let events = detect(times: trace.times, surge: trace.surge, configuration: cfg)
        // The first boundary is the start of the recording (no dip before it to see).
        let truth = Array(trace.boundaries.dropFirst())
        let match = StrokeMatch(detected: events.map(\.catchTime), truth: truth, tolerance: 0.5)
        print("Quiske native 100 Hz: \(match.summary)")
        print(match.errors.map { String(format: "%.3f", $0) }.joined(separator: " "))
        XCTAssertEqual(match.missed.count, 0, match.summary)
        XCTAssertLessThanOrEqual(match.extra.count, 1, match.summary)
        XCTAssertLessThanOrEqual(match.maxAbsError, 0.05, match.summary)
    }
}
