import XCTest
import Foundation
import OarlogCore
import OarlogDSP
import OarlogSimulator
import OarlogTrace
import OarlogTestSupport

/// The catch time has no systematic bias: the signed error (detected − truth) through the whole
/// analyzer (RowingAnalyzer → mounting → stroke detector), on the real Quiske curves and on the
/// simulator, is centred on zero.
///
/// Quiske truth: each exported curve ends on its catch-dip minimum and the next starts one
/// sample (10 ms) later at the row's timestamp, so the physical minimum lies 0–10 ms before the
/// "truth"; a detector that times the minimum exactly reads about −5 ms here.
final class StrokeDetectorCatchTimingTests: XCTestCase {
    struct Signed: CustomStringConvertible {
        var errors: [Double]  // detected − truth, seconds, sorted
        var missed: Int
        var extra: Int
        var median: Double { errors[errors.count / 2] }
        var medianAbs: Double { let a = errors.map(abs).sorted(); return a[a.count / 2] }
        var maxAbs: Double { errors.map(abs).max() ?? 0 }
        var description: String {
            String(format: "n=%d missed %d extra %d  min %+.3f  median %+.3f  max %+.3f  median|e| %.3f",
                   errors.count, missed, extra, errors.first ?? .nan, errors.isEmpty ? .nan : median, errors.last ?? .nan,
                   errors.isEmpty ? .nan : medianAbs)
        }
    }

    static func signed(detected: [Seconds], truth: [Seconds], tolerance: Seconds) -> Signed {
        let match = StrokeMatch(detected: detected, truth: truth, tolerance: tolerance)
        return Signed(errors: match.errors.sorted(), missed: match.missed.count, extra: match.extra.count)
    }

    static func analyze<S: RecordSource>(_ source: inout S) throws -> [Seconds] {
        var configuration = AnalyzerConfiguration()
        configuration.strokeSource = .accelerometer
        var analyzer = RowingAnalyzer(configuration: configuration)
        var catches: [Seconds] = []
        let emit: (AnalyzerEvent) -> Void = { if case .stroke(let m) = $0 { catches.append(m.stroke.catchTime) } }
        while let record = try source.next() { analyzer.process(record, emit: emit) }
        analyzer.finish(emit: emit)
        return catches
    }

    func quiske(rate: Hertz?) throws -> Signed {
        var source = try QuiskeCurveReader(path: try samplePath("rowingdata/quiske_per_stroke_seat.csv"), sampleRate: rate)
        let truth = Array(source.strokes.map(\.time).dropFirst())  // the first catch precedes the recording
        return Self.signed(detected: try Self.analyze(&source), truth: truth, tolerance: 0.5)
    }

    func simulated(rate: StrokesPerMinute, accelRate: Hertz, mounting: String = "tilted") throws -> Signed {
        var configuration = SimulationConfiguration(minutes: 2, rate: rate)
        configuration.accelRate = accelRate
        configuration.mounting = try OarlogSimulator.Mounting.parse(mounting)
        configuration.seed = UInt64(rate) &* 1000 &+ UInt64(accelRate)
        var simulator = try BoatSimulator(configuration: configuration)
        let detected = try Self.analyze(&simulator)
        let truth = simulator.groundTruth.strokes.map(\.catchTime)
        return Self.signed(detected: detected, truth: truth, tolerance: 0.4)
    }

    /// Every Quiske catch within 50 ms at every rate, median signed error within ±10 ms, and
    /// median |error| ≤ 10 ms at 100 Hz and above.
    func testQuiskeCatchHasNoEarlyBias() throws {
        for rate in [nil, 25.0, 50.0, 100.0, 500.0] as [Hertz?] {
            let s = try quiske(rate: rate)
            let label = rate.map { "\(Int($0)) Hz" } ?? "as recorded"
            print("catch timing, Quiske \(label): \(s)")
            XCTAssertEqual(s.errors.count, 54, "\(label): \(s)")
            XCTAssertEqual(s.missed, 0, "\(label): \(s)")
            XCTAssertEqual(s.extra, 0, "\(label): \(s)")
            XCTAssertLessThanOrEqual(s.maxAbs, 0.05, "\(label): \(s)")
            XCTAssertEqual(s.median, 0, accuracy: 0.010, "\(label): \(s)")
            if (rate ?? 100) >= 100 { XCTAssertLessThanOrEqual(s.medianAbs, 0.010, "\(label): \(s)") }
        }
    }

    /// The simulator's catch is the exact bottom of a V-shaped dip: median signed error within
    /// ±10 ms at every rate, median |error| ≤ 10 ms at 100 Hz and above.
    func testSimulatedCatchHasNoEarlyBias() throws {
        for accelRate in [25.0, 50.0, 100.0, 500.0] {
            for rate in [16.0, 28.0, 40.0] {
                let s = try simulated(rate: rate, accelRate: accelRate)
                let label = "\(Int(rate)) spm @\(Int(accelRate)) Hz"
                print("catch timing, sim \(label): \(s)")
                XCTAssertEqual(s.missed, 0, "\(label): \(s)")
                XCTAssertEqual(s.extra, 0, "\(label): \(s)")
                XCTAssertEqual(s.median, 0, accuracy: 0.010, "\(label): \(s)")
                if accelRate >= 100 { XCTAssertLessThanOrEqual(s.medianAbs, 0.010, "\(label): \(s)") }
            }
        }
    }
}
