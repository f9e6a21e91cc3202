import XCTest
import Foundation
import OarlogCore
import OarlogDSP
import OarlogTrace
import OarlogTestSupport

/// The whole accelerometer path on a real phone recording from a rowing boat (Talos Rowing,
/// GPL, read from ../shared/data, never copied): 60 s, about 13 s sitting still, 12 strokes at
/// about 19 spm (the app's own figures), then stopping.
final class StrokeDetectorTalosTests: XCTestCase {
    func testTwelveStrokesAtTheAppsRate() throws {
        let reader = try TalosLogReader(path: try sharedDataPath("talos/100m-12-strokes-dataInput.txt"))
        var stage = SurgeStrokeDetector()
        var events: [StrokeEvent] = []
        var appStrokes: [ReferenceStroke] = []
        for record in try readAll(reader) {
            switch record {
            case .accel(let s): stage.process(s) { events.append($0) }
            case .reference(let r): appStrokes.append(r)
            default: break
            }
        }
        stage.finish { events.append($0) }
        for e in events {
            print(String(format: "Talos stroke %d catch %.2f s drive %.2f s peak %.2f m/s² rate %@", e.index, e.catchTime, e.driveDuration,
                         e.peakAcceleration, e.strokeRate.map { String(format: "%.1f", $0) } ?? "-"))
        }
        XCTAssertEqual(events.count, 12)
        XCTAssertEqual(appStrokes.count, 12)
        // The app's rate over its 7 rate events is 19.25 spm; ours is the mean over the strokes
        // that have a rate. Tolerance ±1 spm.
        let rates = events.compactMap(\.strokeRate)
        let mean = rates.reduce(0, +) / Double(max(1, rates.count))
        print("Talos mean rate \(mean) spm over \(rates.count) strokes")
        XCTAssertEqual(mean, 19.25, accuracy: 1.0)
        // The app counts each stroke about 1.5–2.5 s after its catch (at its drop below zero after
        // the drive): each of our catches precedes the app's count of the same stroke by 0.5–3 s.
        if events.count == appStrokes.count {
            for (e, r) in zip(events, appStrokes) {
                let lead = r.time - e.catchTime
                XCTAssert(lead > 0.5 && lead < 3, "stroke \(e.index): app count \(r.time) s, our catch \(e.catchTime) s")
            }
        }
        // The mounting found: the phone stood in a holder; gravity ≈ 9.8 m/s².
        let g = try XCTUnwrap(stage.mounting.gravity)
        XCTAssertEqual((g * g).sum().squareRoot(), 9.84, accuracy: 0.1)
    }
}
