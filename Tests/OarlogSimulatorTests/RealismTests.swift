import Foundation
import OarlogCore
@testable import OarlogSimulator
import XCTest
import OarlogTestSupport

/// Compares the simulated stroke with real measured ones: the Quiske per-stroke boat
/// acceleration curves (about 100 Hz, in g, each from one catch-dip minimum to the next) in
/// `samples/rowingdata/quiske_per_stroke_seat.csv` (bundled; see its PROVENANCE.md).
final class RealismTests: XCTestCase {
    static let points = 100

    func testSimulatedStrokeHasTheShapeOfMeasuredStrokes() throws {
        let measured = try measuredMeanCurve()
        XCTAssertGreaterThan(measured.strokes, 40)
        // Simulate at the session's mean rate (about 21.6 spm).
        var configuration = noiseFree(SimulationConfiguration(minutes: 3, rate: measured.rate))
        configuration.accelRate = 100
        let session = try simulate(configuration)
        let strokes = session.truth.strokes.filter { $0.catchTime > 20 && $0.recoveryDuration != nil }
        var simulated = [Double](repeating: 0, count: Self.points)
        for stroke in strokes {
            let period = stroke.driveDuration + stroke.recoveryDuration!
            for i in 0..<Self.points {
                let t = stroke.catchTime + period * Double(i) / Double(Self.points)
                let k = Int((t * 100).rounded())
                simulated[i] += session.boatFrames[k].surge / 9.80665 / Double(strokes.count)
            }
        }
        let r = correlation(simulated, measured.curve)
        let measuredMin = measured.curve.min()!, simulatedMin = simulated.min()!
        let measuredMax = measured.curve.max()!, simulatedMax = simulated.max()!
        let measuredPeak = measured.curve.firstIndex(of: measuredMax)!, simulatedPeak = simulated.firstIndex(of: simulatedMax)!
        print("Quiske vs simulated at \(measured.rate) spm: r = \(r); min \(measuredMin) g vs \(simulatedMin) g; "
            + "max \(measuredMax) g at \(measuredPeak) % vs \(simulatedMax) g at \(simulatedPeak) %")
        XCTAssertGreaterThan(r, 0.93)
        XCTAssertEqual(simulatedMin, measuredMin, accuracy: 0.06)
        XCTAssertEqual(simulatedMax, measuredMax, accuracy: 0.06)
        XCTAssertEqual(Double(simulatedPeak), Double(measuredPeak), accuracy: 6)
        // Both curves have their minimum at the catch (phase 0).
        XCTAssertEqual(simulated.firstIndex(of: simulatedMin), 0)
    }

    /// The mean measured curve over each stroke's phase (0 = catch, 1 = next catch), in g.
    private func measuredMeanCurve() throws -> (curve: [Double], rate: Double, strokes: Int) {
        let url = URL(fileURLWithPath: try samplePath("rowingdata/quiske_per_stroke_seat.csv"))
        let text = try String(contentsOf: url, encoding: .utf8)
        var curve = [Double](repeating: 0, count: Self.points)
        var count = 0
        var rates = 0.0
        for line in text.split(separator: "\n").dropFirst(2) {
            // Fields: 10 plain ones, then quoted arrays.
            let quoted = line.split(separator: "\"")
            guard quoted.count >= 2 else { continue }
            let plain = quoted[0].split(separator: ",", omittingEmptySubsequences: false)
            guard let rate = Double(plain[2]), rate > 15 else { continue }
            let values = quoted[1].split(separator: ",").compactMap { Double($0) }
            // Skip the first stroke (a start, 1 m/s) and curves that do not start at the dip.
            guard values.count > 200, let speed = Double(plain[3]), speed > 2.5 else { continue }
            for i in 0..<Self.points {
                let position = Double(i) / Double(Self.points) * Double(values.count - 1)
                let k = Int(position)
                let f = position - Double(k)
                curve[i] += values[k] * (1 - f) + values[min(k + 1, values.count - 1)] * f
            }
            rates += rate
            count += 1
        }
        return (curve.map { $0 / Double(count) }, (rates / Double(count)).rounded(), count)
    }

    private func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let ma = mean(a), mb = mean(b)
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for (x, y) in zip(a, b) {
            sab += (x - ma) * (y - mb)
            saa += (x - ma) * (x - ma)
            sbb += (y - mb) * (y - mb)
        }
        return sab / (saa * sbb).squareRoot()
    }
}
