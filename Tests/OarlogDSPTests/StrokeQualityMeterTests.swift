import OarlogCore
import OarlogDSP
import OarlogSimulator
import XCTest

/// The stroke quality meter, the stroke curve average and the surge restorer on signals whose
/// answers are known in closed form.
final class StrokeQualityMeterTests: XCTestCase {
    /// Surge −A·cos(2π·phase) + bias through strokes of period T, catches at k·T: the check is
    /// A − bias (the bottom is at the catch), the drive (T / 2) peaks at A + bias at its end and
    /// averages the bias, and the speed swings ±A·T/(2π) about its mean
    /// whatever the bias (the drift is removed).
    func feedCosineStrokes(rate: Hertz, period: Seconds, amplitude a: Double, bias: Double,
                           strokes: Int, offset: Seconds = 0.0037) -> [StrokeQuality?] {
        var meter = StrokeQualityMeter(gravityTimeConstant: 0)
        var results: [StrokeQuality?] = []
        let start: Seconds = 3
        var asked = 1
        let n = Int((start + Double(strokes + 1) * period) * rate)
        for i in 0..<n {
            let t = Double(i) / rate + offset
            let phase = (t - start) / period
            let surge = t < start ? bias - a : -a * cos(2 * Double.pi * phase) + bias
            meter.process(time: t, surge: Float(surge))
            // Stroke k (catch at start + (k−1)·T) once the samples are 0.5 s past its next catch.
            let nextCatch = start + Double(asked) * period
            if asked <= strokes, t >= nextCatch + 0.5 {
                results.append(meter.quality(catchTime: nextCatch - period, nextCatch: nextCatch, driveDuration: 0.5 * period))
                asked += 1
            }
        }
        return results
    }

    func testCosineStrokesGiveTheirCheckDriveAndSpeedSwing() throws {
        for rate in [25.0, 100.0, 1000.0] {
            for (period, a, bias) in [(2.5, 3.0, 0.0), (2.0, 4.0, 0.35), (4.5, 2.0, -0.2)] {
                let results = feedCosineStrokes(rate: rate, period: period, amplitude: a, bias: bias, strokes: 6)
                XCTAssertEqual(results.count, 6)
                let swing = a * period / (2 * Double.pi)
                for (k, q) in results.enumerated() {
                    let q = try XCTUnwrap(q, "stroke \(k + 1) at \(rate) Hz, T \(period)")
                    let label = "\(rate) Hz, T \(period) s, stroke \(k + 1)"
                    XCTAssertEqual(Double(q.check), a - bias, accuracy: 0.01 * a, label)
                    XCTAssertEqual(Double(q.peakDriveAcceleration), a + bias, accuracy: 0.02 * a, label)
                    XCTAssertEqual(Double(q.meanDriveAcceleration), bias, accuracy: 0.01 * a, label)
                    XCTAssertEqual(q.speedBelowMean, swing, accuracy: 0.01 * swing, label)
                    XCTAssertEqual(q.speedAboveMean, swing, accuracy: 0.01 * swing, label)
                    XCTAssertNil(q.meanSpeed)
                    XCTAssertNil(q.speedFluctuationPercent)
                }
            }
        }
    }

    func testAnchoredToASpeedTheSwingGivesLowestHighestAndPercent() {
        var q = StrokeQuality(check: 4, peakDriveAcceleration: 3, meanDriveAcceleration: 1, speedBelowMean: 0.6, speedAboveMean: 0.4)
        XCTAssertEqual(q.speedFluctuation, 1.0, accuracy: 1e-12)
        XCTAssertNil(q.minimumSpeed)
        q.meanSpeed = 4
        XCTAssertEqual(q.minimumSpeed ?? 0, 3.4, accuracy: 1e-12)
        XCTAssertEqual(q.maximumSpeed ?? 0, 4.4, accuracy: 1e-12)
        XCTAssertEqual(q.speedFluctuationPercent ?? 0, 25, accuracy: 1e-9)
        q.meanSpeed = 0.2   // drifting: no percentage of a standstill
        XCTAssertNil(q.speedFluctuationPercent)
        let e = StrokeEvent(index: 1, catchTime: 0, driveDuration: 0.8, recoveryDuration: 1.6, peakAcceleration: 3, strokeRate: nil)
        XCTAssertEqual(e.driveRecoveryRatio ?? 0, 0.5, accuracy: 1e-12)
    }

    func testNoQualityForALongStrokeAGapOrSamplesThatDoNotReachBack() {
        var meter = StrokeQualityMeter(gravityTimeConstant: 0)
        for i in 0..<3000 { meter.process(time: Double(i) / 100, surge: Float(sin(Double(i) / 40))) }
        XCTAssertNotNil(meter.quality(catchTime: 20, nextCatch: 22.5, driveDuration: 0.9))
        XCTAssertNil(meter.quality(catchTime: 20, nextCatch: 27, driveDuration: 0.9), "longer than the longest stroke")
        XCTAssertNil(meter.quality(catchTime: 20, nextCatch: 22.5, driveDuration: 0), "no drive")
        XCTAssertNil(meter.quality(catchTime: 0.05, nextCatch: 2.5, driveDuration: 0.9), "before the first sample")
        XCTAssertNil(meter.quality(catchTime: 28.5, nextCatch: 31, driveDuration: 0.9), "past the last sample")
        // A second of nothing, then samples again: no stroke across the gap.
        for i in 3100..<4000 { meter.process(time: Double(i) / 100, surge: Float(sin(Double(i) / 40))) }
        XCTAssertNil(meter.quality(catchTime: 29, nextCatch: 31.5, driveDuration: 0.9))
        XCTAssertNotNil(meter.quality(catchTime: 33, nextCatch: 35.5, driveDuration: 0.9))
        // 2,048 samples at 100 Hz: 20 s back and no further.
        for i in 4000..<6000 { meter.process(time: Double(i) / 100, surge: Float(sin(Double(i) / 40))) }
        XCTAssertNil(meter.quality(catchTime: 38, nextCatch: 40.5, driveDuration: 0.9))
        XCTAssertNotNil(meter.quality(catchTime: 55, nextCatch: 57.5, driveDuration: 0.9))
    }

    /// Strokes of different lengths with one shape over the normalised stroke average to that
    /// shape, with no spread; a stroke the samples do not cover is refused.
    func testCurveAverageLinesStrokesUpCatchToCatch() {
        func shape(_ p: Double) -> Double { -4 * exp(-pow(p / 0.04, 2)) + 3 * sin(Double.pi * min(1, p / 0.4)) - 0.3 }
        var average = StrokeCurveAverage(points: 100)
        for (start, length, scale) in [(10.0, 2.0, 1.0), (12.0, 2.6, 0.8), (14.6, 3.3, 1.2)] {
            var times: [Double] = [], values: [Double] = []
            var t = start - 0.0042
            while t <= start + length + 0.01 {
                times.append(t)
                values.append(scale * shape(max(0, (t - start) / length)))
                t += 0.002
            }
            XCTAssertTrue(average.add(start: start, end: start + length, drive: 0.3 * length, count: times.count,
                                      time: { times[$0] }, value: { values[$0] }))
        }
        XCTAssertEqual(average.strokes, 3)
        for k in 0..<100 {
            XCTAssertEqual(average.mean(at: k) ?? .nan, shape(Double(k) / 99), accuracy: 0.02, "moment \(k)")
        }
        XCTAssertEqual(average.meanStrokeDuration ?? 0, (2.0 + 2.6 + 3.3) / 3, accuracy: 1e-12)
        XCTAssertEqual(average.meanDriveDuration ?? 0, 0.3 * (2.0 + 2.6 + 3.3) / 3, accuracy: 1e-12)
        // The spread at the catch dip is that of the scales (0.8, 1, 1.2 → sd 0.163 × 4.3).
        XCTAssertEqual(average.standardDeviation(at: 0) ?? 0, 0.1633 * abs(shape(0)), accuracy: 0.02)
        // Samples from 0.1 s after the catch: refused, nothing added.
        let late = (0..<200).map { 20.1 + Double($0) * 0.01 }
        XCTAssertFalse(average.add(start: 20, end: 22, drive: 0.8, count: late.count, time: { late[$0] }, value: { _ in 1 }))
        XCTAssertEqual(average.strokes, 3)
    }

    /// The mounting estimator's gravity tracking (a first-order low-pass of τ subtracted) and the
    /// restorer after it give back the boat's surge at stroke rates, and a constant reads 0.
    func testRestorerUndoesTheGravityTrackersHighPass() {
        let tau: Seconds = 5
        for rate in [18.0, 24.0, 36.0] {
            var restorer = SurgeRestorer(gravityTimeConstant: tau)
            var gravityError = 0.0
            let f = rate / 60, dt = 0.01
            var worst = 0.0, worstGiven = 0.0
            for i in 0..<12000 {
                let t = Double(i) * dt
                let surge = 3 * sin(2 * .pi * f * t) - 2 * cos(4 * .pi * f * t) + 0.8 * sin(6 * .pi * f * t) + 0.25
                gravityError += dt / tau * (surge - gravityError)
                let given = surge - gravityError
                let restored = restorer.restore(time: t, surge: given)
                if t > 90 {
                    worst = max(worst, abs(restored - (surge - 0.25)))
                    worstGiven = max(worstGiven, abs(given - (surge - 0.25)))
                }
            }
            XCTAssertLessThan(worst, 0.05, "\(rate) spm: restored within 0.05 m/s² of a ±6 m/s² surge")
            XCTAssertGreaterThan(worstGiven, 0.15, "\(rate) spm: the tracker alone is off by more")
        }
    }

    /// A simulated session through the analyzer: each stroke with a next catch gets its quality
    /// anchored to the GPS speed; the one-sample and block paths give the same.
    func testAnalyzerAttachesQualityAnchoredToGPS() throws {
        var configuration = SimulationConfiguration(minutes: 1.5, rate: 26)
        configuration.gpsDropoutsPerHour = 0
        var simulator = try BoatSimulator(configuration: configuration)
        var records: [TraceRecord] = []
        while let r = try simulator.next() { records.append(r) }
        var analyzerConfiguration = AnalyzerConfiguration()
        analyzerConfiguration.strokeSource = .accelerometer

        var one = RowingAnalyzer(configuration: analyzerConfiguration)
        var strokes: [StrokeMetrics] = []
        for r in records { one.process(r) { if case .stroke(let m) = $0 { strokes.append(m) } } }
        one.finish { if case .stroke(let m) = $0 { strokes.append(m) } }

        var block = RowingAnalyzer(configuration: analyzerConfiguration)
        var blockStrokes: [StrokeMetrics] = []
        var run: [AccelSample] = []
        func flush() {
            run.withUnsafeBufferPointer { b in block.process(accel: b) { if case .stroke(let m) = $0 { blockStrokes.append(m) } } }
            run.removeAll()
        }
        for r in records {
            if case .accel(let s) = r { run.append(s); continue }
            flush()
            block.process(r) { if case .stroke(let m) = $0 { blockStrokes.append(m) } }
        }
        flush()
        block.finish { if case .stroke(let m) = $0 { blockStrokes.append(m) } }
        XCTAssertEqual(strokes, blockStrokes)

        XCTAssertGreaterThan(strokes.count, 30)
        let inner = strokes.dropFirst(2).dropLast(1)
        for m in inner {
            let q = try XCTUnwrap(m.quality, "stroke \(m.stroke.index)")
            let v = try XCTUnwrap(q.meanSpeed, "stroke \(m.stroke.index): anchored")
            XCTAssertEqual(v, 500 / (m.split ?? .nan), accuracy: 0.01, "the split's speed")
            XCTAssertGreaterThan(q.check, 2)
            XCTAssertGreaterThan(q.speedFluctuationPercent ?? 0, 10)
        }
        XCTAssertNil(strokes.last?.quality, "the last stroke has no next catch")
        XCTAssertEqual(one.pieceCurve.strokes, strokes.filter { $0.quality != nil }.count,
                       "every stroke with a quality is in the piece's curve")
    }
}
