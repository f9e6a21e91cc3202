import OarlogCore
@testable import OarlogDSP
import XCTest

/// A completed stroke's rate is its own, 60 / (next catch − catch); none for the first stroke of
/// a piece or a stroke whose period holds a pause (`StrokePauseRule`); at a catch the display
/// shows the stroke just finished.
final class StrokeOwnRateTests: XCTestCase {
    /// The rates the rule gives strokes of these periods, in order.
    private func rates(_ periods: [Seconds]) -> [StrokesPerMinute?] {
        var rule = StrokePauseRule()
        return periods.map { rule.conclude(period: $0) }
    }

    func testEachStrokeHasItsOwnPeriodsRateButThePiecesFirst() {
        // Real timing varies from stroke to stroke (the Quiske outing: 2.55–3.05 s).
        let periods: [Seconds] = [3.04, 2.66, 2.59, 2.55, 2.65, 3.03, 2.74]
        let found = rates(periods)
        XCTAssertNil(found[0], "the first stroke of a piece")
        for k in 1..<periods.count { XCTAssertEqual(found[k] ?? 0, 60 / periods[k], accuracy: 1e-12, "stroke \(k)") }
    }

    func testAFiveSecondStopIsAPauseAndTheRestartStrokeHasNoRate() {
        // 24 spm, a stroke whose period holds a 5 s stop (the restart at "12 spm"), the
        // restart stroke, then rowing.
        let found = rates([2.5, 2.5, 2.5, 2.5, 2.5, 5.0, 2.6, 2.5, 2.5])
        XCTAssertEqual(found[4] ?? 0, 24, accuracy: 1e-12)
        XCTAssertNil(found[5], "the period holds the pause")
        XCTAssertNil(found[6], "the first stroke after the pause")
        XCTAssertEqual(found[7] ?? 0, 24, accuracy: 1e-12)
        XCTAssertEqual(found[8] ?? 0, 24, accuracy: 1e-12)
    }

    func testAStopLongerThanAnyStrokeIsAPause() {
        let found = rates([2.0, 2.0, 2.0, 19.0, 2.2, 2.0])
        XCTAssertEqual(found[2] ?? 0, 30, accuracy: 1e-12)
        XCTAssertNil(found[3])
        XCTAssertNil(found[4])
        XCTAssertEqual(found[5] ?? 0, 30, accuracy: 1e-12)
    }

    func testEasingFrom32To18InOneStrokeIsNoPause() {
        let found = rates([1.875, 1.875, 1.875, 1.875, 1.875, 60.0 / 18, 60.0 / 18])
        XCTAssertEqual(found[4] ?? 0, 32, accuracy: 1e-9)
        XCTAssertEqual(found[5] ?? 0, 18, accuracy: 1e-9, "1.8× the recent period, but quicker than 14 spm")
        XCTAssertEqual(found[6] ?? 0, 18, accuracy: 1e-9)
    }

    func testSteadyPaddlingSlowerThan14IsNoPause() {
        // 13 spm throughout: slow, but each stroke as long as the last.
        let found = rates(Array(repeating: 60.0 / 13, count: 8))
        XCTAssertNil(found[0])
        for k in 1..<8 { XCTAssertEqual(found[k] ?? 0, 13, accuracy: 1e-9, "stroke \(k)") }
    }

    func testAStopInSlowPaddlingIsAPause() {
        // 16 spm light paddling (3.75 s), a stroke held 5 s (12 spm): 1.33× the recent strokes.
        let found = rates([3.75, 3.75, 3.75, 3.75, 5.0, 3.75, 3.75])
        XCTAssertEqual(found[3] ?? 0, 16, accuracy: 1e-9)
        XCTAssertNil(found[4])
        XCTAssertNil(found[5])
        XCTAssertEqual(found[6] ?? 0, 16, accuracy: 1e-9)
    }

    func testThePreviewIsTheConclusion() {
        var average = AnalyzerStrokeRateAverage(strokes: 4)
        for period in [2.5, 2.4, 2.6, 2.5, 2.3, 5.5, 2.5, 2.4, 2.45] {
            let preview = average.preview(period: period)
            let concluded = average.conclude(period: period)
            XCTAssertEqual(preview.rate, concluded.rate)
            XCTAssertEqual(preview.smoothed, concluded.smoothed)
            XCTAssertEqual(average.latest, concluded.smoothed)
        }
        // Restarted by the 5.5 s stop and the restart stroke (2.5 s): the two strokes since, as
        // strokes over their time.
        XCTAssertEqual(average.latest ?? 0, 60 * 2 / (2.4 + 2.45), accuracy: 1e-9)
    }

    /// Through the analyzer with a device's strokes (no GPS): the completed strokes carry their
    /// own rates; at the catch that ends a 5 s stop, and until the restart stroke is done, the
    /// display and the catch show no rate.
    func testTheAnalyzerShowsNoRateAtTheRestart() {
        var catches: [Seconds] = []
        var t = 1.0
        for _ in 0..<8 { catches.append(t); t += 2.5 }   // 24 spm; the 8th stroke's period holds the stop
        t += 2.5                                          // its period is 5 s
        for _ in 0..<6 { catches.append(t); t += 2.4 }   // 25 spm
        var analyzer = RowingAnalyzer()
        var caught: [StrokeMetrics] = [], concluded: [StrokeMetrics] = [], live: [LiveFigures] = []
        let emit: (AnalyzerEvent) -> Void = { e in
            switch e {
            case .caught(let m): caught.append(m)
            case .stroke(let m): concluded.append(m)
            case .live(let f): live.append(f)
            case .withdrawn, .speed: break
            }
        }
        for c in catches { analyzer.process(.reference(ReferenceStroke(time: c)), emit: emit) }
        analyzer.finish(emit: emit)
        XCTAssertEqual(concluded.count, 14)
        let own = concluded.map(\.stroke.strokeRate)
        XCTAssertNil(own[0])
        for k in 1..<7 { XCTAssertEqual(own[k] ?? 0, 24, accuracy: 1e-9, "stroke \(k + 1)") }
        XCTAssertNil(own[7], "its period holds the stop")
        XCTAssertNil(own[8], "the restart stroke")
        for k in 9..<13 { XCTAssertEqual(own[k] ?? 0, 25, accuracy: 1e-9, "stroke \(k + 1)") }
        XCTAssertNil(own[13], "the last stroke: no next catch")
        XCTAssertEqual(concluded[12].smoothedRate ?? 0, 25, accuracy: 1e-9)
        // At the restart catch (the 9th) and the next, nothing to show; at the 11th, 25 spm.
        XCTAssertEqual(caught[7].smoothedRate ?? 0, 24, accuracy: 1e-9)
        XCTAssertNil(caught[8].stroke.strokeRate)
        XCTAssertNil(caught[8].smoothedRate)
        XCTAssertNil(caught[9].smoothedRate)
        XCTAssertEqual(caught[10].smoothedRate ?? 0, 25, accuracy: 1e-9)
        let atRestart = try! XCTUnwrap(live.first { $0.strokes == 9 })
        XCTAssertEqual(atRestart.time, catches[8], accuracy: 1e-9)
        XCTAssertNil(atRestart.strokeRate, "the display shows — at the restart catch")
        let later = try! XCTUnwrap(live.first { $0.strokes == 11 })
        XCTAssertEqual(later.strokeRate ?? 0, 25, accuracy: 1e-9)
    }
}
