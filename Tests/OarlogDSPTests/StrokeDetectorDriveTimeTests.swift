import XCTest
import Foundation
import OarlogCore
import OarlogDSP
import OarlogSimulator

/// The drive and recovery times (catch to finish, finish to the next catch) against the
/// simulator's truth, through the whole accelerometer path (raw samples → mounting estimator →
/// stroke detector), at every accelerometer rate and from 16 to 40 spm. The finish is the end
/// of the blade's push: the simulator's propulsive pulse ends there, where the surge has fallen
/// to the glide's deceleration by drag — 15–20 ms after it crosses zero (its running mean).
final class StrokeDetectorDriveTimeTests: XCTestCase {
    /// Detected minus true drive and recovery times of every stroke matched (catch within 100 ms).
    private func errors(rate: StrokesPerMinute, accelRate: Hertz, mounting: OarlogSimulator.Mounting,
                        seed: UInt64) throws -> (drive: [Seconds], recovery: [Seconds]) {
        var configuration = SimulationConfiguration(minutes: 1.5, rate: rate)
        configuration.accelRate = accelRate
        configuration.mounting = mounting
        configuration.seed = seed
        var (truth, events) = try detectSimulated(configuration)
        for i in events.indices.dropLast() { events[i] = events[i].completed(nextCatch: events[i + 1].catchTime) }
        var drive: [Seconds] = [], recovery: [Seconds] = []
        for e in events {
            guard let t = truth.strokes.min(by: { abs($0.catchTime - e.catchTime) < abs($1.catchTime - e.catchTime) }),
                  abs(t.catchTime - e.catchTime) <= 0.1, e.catchTime < configuration.duration - 3 else { continue }
            drive.append(e.driveDuration - t.driveDuration)
            if let r = e.recoveryDuration, let tr = t.recoveryDuration { recovery.append(r - tr) }
        }
        return (drive, recovery)
    }

    private func absolutePercentile(_ values: [Seconds], _ p: Double) -> Seconds {
        let sorted = values.map(abs).sorted()
        return sorted.isEmpty ? .infinity : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// Per stroke within 50 ms of the truth: the median and 90 % of strokes (the former mean-level
    /// crossing: 28–49 ms short, median 32 ms, at 100 and 500 Hz), and no bias beyond 15 ms (the
    /// drive/recovery ratio's 5 % at 40 spm, drive 0.7 s and recovery 0.8 s, allows about 18 ms).
    func testDriveAndRecoveryWithin50msAtEveryRate() throws {
        for accelRate in [25.0, 50, 100, 500] {
            var drive: [Seconds] = [], recovery: [Seconds] = []
            for rate in [16.0, 24, 32, 40] {
                let e = try errors(rate: rate, accelRate: accelRate, mounting: .tilted, seed: UInt64(rate) &+ UInt64(accelRate))
                drive += e.drive
                recovery += e.recovery
            }
            let label = "\(Int(accelRate)) Hz"
            let meanDrive = drive.reduce(0, +) / Double(max(1, drive.count))
            print("drive @\(label): \(drive.count) strokes, mean \(Int((meanDrive * 1000).rounded())) ms, median |e| "
                  + "\(Int((absolutePercentile(drive, 0.5) * 1000).rounded())) ms, p90 \(Int((absolutePercentile(drive, 0.9) * 1000).rounded())) ms; "
                  + "recovery median |e| \(Int((absolutePercentile(recovery, 0.5) * 1000).rounded())) ms, "
                  + "p90 \(Int((absolutePercentile(recovery, 0.9) * 1000).rounded())) ms")
            XCTAssertGreaterThan(drive.count, 120, label)
            XCTAssertLessThanOrEqual(absolutePercentile(drive, 0.5), 0.050, "\(label): drive median")
            XCTAssertLessThanOrEqual(absolutePercentile(drive, 0.9), 0.050, "\(label): drive p90")
            XCTAssertLessThanOrEqual(absolutePercentile(recovery, 0.5), 0.050, "\(label): recovery median")
            XCTAssertLessThanOrEqual(absolutePercentile(recovery, 0.9), 0.050, "\(label): recovery p90")
            XCTAssertEqual(meanDrive, 0, accuracy: 0.015, "\(label): drive bias")
        }
    }

    /// A stroke whose push ends with a kink into the glide (−0.35 m/s², drag at 4 m/s) and a
    /// release dip after it — the finish is the kink, not where the fall crosses zero (11 ms
    /// before it, and the averaged signal's crossing earlier still) — fed straight to the
    /// detector at 25 Hz to 1 kHz.
    func testTheFinishIsWhereThePushEndsNotWhereTheSurgeCrossesZero() {
        let period = 2.5, drive = 0.85, glide = -0.35, start = 3.0, strokes = 30
        func surge(_ t: Seconds) -> Double {
            guard t >= start else { return 0 }
            let x = (t - start).truncatingRemainder(dividingBy: period)
            var a = glide
            if x < 0.1 { a -= 4 * (1 - x / 0.1) * (1 - x / 0.1) }                       // out of the catch
            if x < drive { a += 6 * sin(Double.pi * x / drive) * (0.5 + x / drive) }      // the push, ending with a kink
            else if x < drive + 0.2 { a -= 0.5 * pow(sin(Double.pi * (x - drive) / 0.2), 2) } // the release
            if period - x < 0.6 { let y = 1 - (period - x) / 0.6; a -= 4 * y * y }      // into the next catch
            return a
        }
        for rate in [25.0, 100, 1000] {
            var detector = StrokeDetector()
            var found: [StrokeEvent] = []
            let n = Int((start + Double(strokes) * period + 1) * rate)
            for i in 0..<n {
                let t = Double(i) / rate
                detector.process(time: t, surge: Float(surge(t))) { found.append($0) }
            }
            detector.finish { found.append($0) }
            let drives = found.dropFirst().dropLast().map(\.driveDuration).sorted()
            XCTAssertGreaterThanOrEqual(drives.count, strokes - 3, "\(rate) Hz")
            guard !drives.isEmpty else { continue }
            // Within 10 ms, or half a sample interval at the slowest rates (the catch is timed to that too).
            print("synthetic drive @\(Int(rate)) Hz: median \(drives[drives.count / 2])")
            XCTAssertEqual(drives[drives.count / 2], drive, accuracy: max(0.010, 0.5 / rate), "\(rate) Hz: median drive")
        }
    }
}
