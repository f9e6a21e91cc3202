import XCTest
import OarlogCore
@testable import OarlogDSP

/// The analyzer on GPS plus a device's reference strokes (no accelerometer).
final class AnalyzerGPSOnlyTests: XCTestCase {
    /// 1 Hz fixes of a boat at `speed`, with reference strokes every `period` s while rowing.
    private func session(speed: MetresPerSecond = 4, period: Seconds = 2.5, rowing: Seconds = 300,
                         pause: ClosedRange<Seconds>? = nil) -> [TraceRecord] {
        let start = GeoPoint(latitude: 52.2253, longitude: 6.8456)
        var records: [TraceRecord] = [.metadata(key: "start_utc", value: "2026-05-02T07:14:03Z")]
        var refTimes: [Seconds] = []
        var t = 0.3
        while t < rowing {
            if pause.map({ !$0.contains(t) }) ?? true { refTimes.append(t) }
            t += period
        }
        // Distance as a function of time: constant speed, stopped during the pause.
        func along(_ t: Seconds) -> Metres {
            guard let p = pause else { return speed * t }
            if t < p.lowerBound { return speed * t }
            if t < p.upperBound { return speed * p.lowerBound }
            return speed * (t - (p.upperBound - p.lowerBound))
        }
        var ri = 0
        for i in 0...Int(rowing) {
            let ft = Double(i)
            while ri < refTimes.count && refTimes[ri] <= ft {
                records.append(.reference(ReferenceStroke(time: refTimes[ri])))
                ri += 1
            }
            let p = Geodesy.destination(from: start, distance: along(ft), bearing: 80)
            let moving = pause.map { !$0.contains(ft) } ?? true
            records.append(.fix(GPSFix(time: ft, latitude: p.latitude, longitude: p.longitude,
                                       speed: moving ? speed : 0.02, horizontalAccuracy: 3, mode: .threeD)))
        }
        return records
    }

    /// A device's reference stroke is a stroke at its catch the moment it arrives (`.caught`,
    /// with the rate of the stroke that catch finished), concluded later with its own rate, its
    /// distance and split.
    func testEachReferenceStrokeIsCaughtWhenItArrives() {
        var analyzer = RowingAnalyzer()
        var caught: [(at: Seconds, m: StrokeMetrics)] = [], concluded: [StrokeMetrics] = []
        var now: Seconds = 0
        let emit: (AnalyzerEvent) -> Void = { e in
            switch e {
            case .caught(let m): caught.append((now, m))
            case .stroke(let m): concluded.append(m)
            default: break
            }
        }
        for r in session(rowing: 60) {
            now = r.time ?? now
            analyzer.process(r, emit: emit)
        }
        analyzer.finish(emit: emit)
        XCTAssertEqual(caught.count, 24)
        XCTAssertEqual(caught.map(\.m.stroke.index), concluded.map(\.stroke.index))
        for (k, (c, m)) in zip(caught, concluded).enumerated() {
            XCTAssertEqual(c.at, m.stroke.catchTime, "stroke \(m.stroke.index) caught as its reference stroke came")
            XCTAssertEqual(c.m.stroke.stage, .caught)
            // At a catch: the stroke just finished (none before the first).
            XCTAssertEqual(c.m.stroke.strokeRate, k > 0 ? concluded[k - 1].stroke.strokeRate : nil)
            XCTAssertEqual(c.m.smoothedRate, k > 0 ? concluded[k - 1].smoothedRate : nil)
            XCTAssertNil(c.m.split)
        }
        // Reference strokes 2.5 s apart: each stroke's own rate, none for the first and the last.
        XCTAssertNil(concluded.first?.stroke.strokeRate)
        XCTAssertNil(concluded.last?.stroke.strokeRate)
        for m in concluded.dropFirst().dropLast() { XCTAssertEqual(m.stroke.strokeRate ?? 0, 24, accuracy: 1e-9) }
        XCTAssertEqual(concluded.dropLast().allSatisfy { $0.split != nil }, true, "the conclusions have the split")
    }

    private func run(_ records: [TraceRecord], configuration: AnalyzerConfiguration = .init())
        -> (strokes: [StrokeMetrics], live: [LiveFigures], summary: SessionSummary) {
        var analyzer = RowingAnalyzer(configuration: configuration)
        var strokes: [StrokeMetrics] = [], live: [LiveFigures] = []
        let emit: (AnalyzerEvent) -> Void = { e in
            switch e {
            case .stroke(let m): strokes.append(m)
            case .live(let l): live.append(l)
            case .caught, .withdrawn, .speed: break
            }
        }
        for r in records { analyzer.process(r, emit: emit) }
        analyzer.finish(emit: emit)
        return (strokes, live, analyzer.summary)
    }

    func testSteadyRowingGivesRateSplitAndDistancePerStroke() {
        let (strokes, live, summary) = run(session())
        XCTAssertEqual(strokes.count, 120)  // 0.3, 2.8, …, 297.8
        XCTAssertEqual(strokes.map(\.stroke.index), Array(1...120))
        for (k, m) in strokes.enumerated() {
            // The track filter settles over the first strokes (its velocity starts unknown): within
            // 0.15 m there, 1 cm once settled.
            let settled = k >= 5
            XCTAssertEqual(m.distance ?? -1, 4 * (0.3 + 2.5 * Double(k)), accuracy: settled ? 0.01 : 0.15)
            if k > 0 && k < 119 { XCTAssertEqual(m.stroke.strokeRate ?? 0, 24, accuracy: 1e-9) }
            if k < 119 {
                XCTAssertEqual(m.distancePerStroke ?? 0, 10, accuracy: settled ? 0.01 : 0.15)
                XCTAssertEqual(m.split ?? 0, 125, accuracy: 0.01)
            }
        }
        XCTAssertNil(strokes[0].stroke.strokeRate)  // the first of a piece
        XCTAssertNil(strokes[119].distancePerStroke)  // last stroke: no next catch
        XCTAssertNil(strokes[119].stroke.strokeRate)
        XCTAssertEqual(strokes[10].smoothedRate ?? 0, 24, accuracy: 1e-9)
        // Live figures at most every 0.5 s of trace time — and at once when a stroke is found,
        // counted there — with the right speed and split.
        XCTAssertGreaterThan(live.count, 250)
        for (a, b) in zip(live, live.dropFirst()) {
            if b.strokes == a.strokes { XCTAssertGreaterThanOrEqual(b.time - a.time, 0.5) } else { XCTAssertEqual(b.strokes, a.strokes + 1) }
        }
        for stroke in strokes {
            let shown = try! XCTUnwrap(live.first { $0.strokes >= stroke.stroke.index })
            XCTAssertEqual(shown.time, stroke.stroke.catchTime, accuracy: 1e-9, "a reference stroke is shown when it arrives")
        }
        let mid = try! XCTUnwrap(live.first { $0.time >= 150 })
        XCTAssertEqual(mid.split ?? 0, 125, accuracy: 0.01)
        XCTAssertEqual(mid.strokeRate ?? 0, 24, accuracy: 1e-9)
        XCTAssertEqual(mid.distance, 4 * mid.time, accuracy: 4.01)
        // Summary.
        XCTAssertEqual(summary.elapsed ?? 0, 300, accuracy: 1e-9)
        XCTAssertEqual(summary.distance ?? 0, 1200, accuracy: 0.01)
        XCTAssertEqual(summary.strokes, 120)
        XCTAssertEqual(summary.averageStrokeRate ?? 0, 24, accuracy: 1e-9)
        XCTAssertEqual(summary.maxStrokeRate ?? 0, 24, accuracy: 1e-9)
        XCTAssertEqual(summary.averageSplit ?? 0, 125, accuracy: 0.01)
        XCTAssertEqual(summary.bestSplit ?? 0, 125, accuracy: 0.01)
        XCTAssertEqual(summary.distancePerStroke ?? 0, 10, accuracy: 0.01)
        XCTAssertEqual(summary.rejectedFixes, 0)
    }

    func testPauseAddsNoDistanceAndAverageSplitUsesMovingTime() {
        let (strokes, live, summary) = run(session(rowing: 400, pause: 150...250))
        // 300 s of rowing at 4 m/s. The synthetic speed jumps 4 → 0 → 4 between fixes, which the
        // trapezoid speed integral under the slow-speed cap blurs by about a metre at each end.
        // The restart from 0 to 4 m/s within one fix (no real boat does) leaves the track filter
        // about 3 m behind, which it takes for the receiver's wander and recovers only slowly.
        XCTAssertEqual(summary.distance ?? 0, 1200, accuracy: 3.5)
        XCTAssertEqual(summary.movingTime ?? 0, 300, accuracy: 2)
        XCTAssertEqual(summary.averageSplit ?? 0, 125, accuracy: 1)
        XCTAssertEqual(summary.elapsed ?? 0, 400, accuracy: 1e-9)
        // The stroke spanning the pause has no rate, split or distance per stroke.
        let across = try! XCTUnwrap(strokes.first { $0.stroke.catchTime < 150 && $0.stroke.catchTime > 147 })
        XCTAssertNil(across.split)
        XCTAssertNil(across.distancePerStroke)
        XCTAssertNil(across.stroke.strokeRate)
        let after = try! XCTUnwrap(strokes.first { $0.stroke.catchTime > 250 })
        XCTAssertNil(after.stroke.strokeRate)
        // Stopped: no split and no rate on the display.
        let stopped = try! XCTUnwrap(live.first { $0.time >= 200 })
        XCTAssertNil(stopped.split)
        XCTAssertNil(stopped.strokeRate)
    }

    func testGapsAreCountedAndAnAccelerometerTakesOverStrokes() {
        var records = session(rowing: 60)
        records.insert(.gap(Gap(sensor: .gps, start: 30, end: 31, reason: "gpsd restarted")), at: 40)
        records.insert(.gap(Gap(sensor: .accelerometer, start: 31, end: 32, reason: "FIFO overflow")), at: 41)
        let (_, _, summary) = run(records)
        XCTAssertEqual(summary.gpsGaps, 1)
        XCTAssertEqual(summary.accelerometerGaps, 1)
        // With an accelerometer in the trace (automatic source), reference strokes are not used
        // after its first sample.
        var withAccel = session(rowing: 60)
        withAccel.insert(.accel(AccelSample(time: 0, x: 0, y: 0, z: 9.8)), at: 1)
        XCTAssertEqual(run(withAccel).strokes.count, 0)
        var forced = AnalyzerConfiguration()
        forced.strokeSource = .reference
        XCTAssertEqual(run(withAccel, configuration: forced).strokes.count, 24)
    }

    func testNoGPSGivesNilDistanceFigures() {
        let records: [TraceRecord] = (0..<20).map { .reference(ReferenceStroke(time: 1 + Double($0) * 3)) }
        let (strokes, _, summary) = run(records)
        XCTAssertEqual(strokes.count, 20)
        XCTAssertTrue(strokes.allSatisfy { $0.split == nil && $0.distance == nil && $0.distancePerStroke == nil })
        XCTAssertEqual(strokes[5].stroke.strokeRate ?? 0, 20, accuracy: 1e-9)
        XCTAssertNil(summary.distance)
        XCTAssertNil(summary.averageSplit)
        XCTAssertNil(summary.distancePerStroke)
        XCTAssertEqual(summary.averageStrokeRate ?? 0, 20, accuracy: 1e-9)
    }
}
