import OarlogCore
import OarlogFences
import OarlogSimulator
import XCTest

/// Courses laid over simulated sessions: every gate crossed once, the crossing time against the
/// simulator's truth, leg splits against the true leg times, leg stroke rates against the truth.
final class SimulatedCourseTests: XCTestCase {
    struct Figures {
        var maxTimeError: Seconds = 0
        var sumSquares = 0.0
        var count = 0
        var maxSplitError: Seconds = 0
        var rms: Seconds { count > 0 ? (sumSquares / Double(count)).squareRoot() : 0 }
    }

    /// Rows a 2000 m course (gates at 100, 600, 1100, 1600, 2100 m of the true track) and
    /// returns the error figures.
    func runCourse(course shape: SimulationConfiguration.Course, gpsRate: Hertz, noise: Double, seed: UInt64,
                   file: StaticString = #filePath, line: UInt = #line) throws -> Figures {
        var configuration = SimulationConfiguration(minutes: 10, rate: 26)
        configuration.accelRate = 50
        configuration.gpsRate = gpsRate
        configuration.course = shape
        configuration.seed = seed
        configuration.gpsDropoutsPerHour = 0
        let quiet = try TruthTrack(try {
            var c = configuration.withNoise(scale: 0)
            c.gpsRate = 10
            return c
        }())
        let gateDistances: [Metres] = [100, 600, 1100, 1600, 2100]
        let (fences, course) = try gatesAcross(quiet, at: gateDistances)
        let run = try TruthTrack(configuration.withNoise(scale: noise))
        let (events, statistics) = monitor(fences, course: course, fixes: run.fixes, strokes: run.strokes)

        let crossings = events.crossings
        XCTAssertEqual(crossings.map(\.gate.index), Array(0..<gateDistances.count),
                       "every gate crossed exactly once, in order", file: file, line: line)
        XCTAssertFalse(crossings.contains(where: \.wrongWay), file: file, line: line)
        XCTAssertEqual(statistics.rejectedCrossings, 0, file: file, line: line)
        var figures = Figures()
        var truthTimes: [Seconds] = []
        for c in crossings {
            let truth = try XCTUnwrap(run.time(atDistance: gateDistances[c.gate.index]))
            truthTimes.append(truth)
            let error = c.time - truth
            figures.maxTimeError = max(figures.maxTimeError, abs(error))
            figures.sumSquares += error * error
            figures.count += 1
        }
        let pieces = events.pieces
        XCTAssertEqual(pieces.count, 1, "one piece start to finish", file: file, line: line)
        XCTAssertTrue(events.problems.isEmpty, "no course problems: \(events.problems)", file: file, line: line)
        if let piece = pieces.first, truthTimes.count == gateDistances.count {
            XCTAssertEqual(piece.segments.count, 4, file: file, line: line)
            for (k, segment) in piece.segments.enumerated() {
                XCTAssertEqual(segment.distance, 500, accuracy: 1e-9, file: file, line: line)
                let trueSplit = (truthTimes[k + 1] - truthTimes[k]) * 500 / 500
                figures.maxSplitError = max(figures.maxSplitError, abs(try XCTUnwrap(segment.split) - trueSplit))
                // Leg stroke rate: the mean of the true strokes' rates whose catch is in the leg.
                let inLeg = run.strokes.filter { $0.catchTime >= truthTimes[k] && $0.catchTime < truthTimes[k + 1] }
                let rates = inLeg.compactMap(\.rate)
                let trueRate = rates.reduce(0, +) / Double(rates.count)
                XCTAssertEqual(try XCTUnwrap(segment.strokeRate), trueRate, accuracy: 0.3, file: file, line: line)
                XCTAssertEqual(segment.strokes, inLeg.count, accuracy: 1, file: file, line: line)
            }
        }
        return figures
    }

    func check(_ shape: SimulationConfiguration.Course, label: String) throws {
        for rate in [1.0, 5, 10] {
            var quiet = Figures(), noisy = Figures(), low = Figures()
            for seed: UInt64 in [1, 2, 3] {
                let q = try runCourse(course: shape, gpsRate: rate, noise: 0, seed: seed)
                let l = try runCourse(course: shape, gpsRate: rate, noise: 0.25, seed: seed)
                let n = try runCourse(course: shape, gpsRate: rate, noise: 1, seed: seed)
                for (total, f) in [(0, q), (1, l), (2, n)] {
                    func merge(_ into: inout Figures) {
                        into.maxTimeError = max(into.maxTimeError, f.maxTimeError)
                        into.sumSquares += f.sumSquares
                        into.count += f.count
                        into.maxSplitError = max(into.maxSplitError, f.maxSplitError)
                    }
                    if total == 0 { merge(&quiet) } else if total == 1 { merge(&low) } else { merge(&noisy) }
                }
            }
            print("[fences] \(label) \(Int(rate)) Hz: crossing time error max/rms — noise-free "
                  + "\(fmt(quiet.maxTimeError))/\(fmt(quiet.rms)) s, quarter noise \(fmt(low.maxTimeError))/\(fmt(low.rms)) s, "
                  + "default noise \(fmt(noisy.maxTimeError))/\(fmt(noisy.rms)) s; split error max — "
                  + "\(fmt(quiet.maxSplitError)) / \(fmt(low.maxSplitError)) / \(fmt(noisy.maxSplitError)) s/500 m")
            // The interpolation itself: ≤ 0.1 s at any rate, on the true track.
            XCTAssertLessThanOrEqual(quiet.maxTimeError, 0.1, "\(label) \(rate) Hz noise-free")
            XCTAssertLessThanOrEqual(quiet.maxSplitError, 0.2, "\(label) \(rate) Hz noise-free")
            // A quarter of the simulator's default GPS error (wander σ 0.375 m, jitter 0.1 m per
            // axis, like a good receiver in open water): splits within 0.5 s/500 m.
            XCTAssertLessThanOrEqual(low.maxTimeError, 0.3, "\(label) \(rate) Hz quarter noise")
            XCTAssertLessThanOrEqual(low.maxSplitError, 0.5, "\(label) \(rate) Hz quarter noise")
            // The default noise (wander σ 1.5 m per axis over 30 s): the wander shifts the whole
            // track and no fit can remove it; the error is that shift over the boat speed
            // (1.5 m / 4.5 m/s ≈ 0.33 s rms).
            XCTAssertLessThanOrEqual(noisy.rms, 0.5, "\(label) \(rate) Hz default noise")
            XCTAssertLessThanOrEqual(noisy.maxTimeError, 1.5, "\(label) \(rate) Hz default noise")
        }
    }

    func testStraightCourse() throws {
        try check(.straight, label: "straight 2000 m")
    }

    func testCurvedRiverCourse() throws {
        try check(.curving(amplitude: 25, wavelength: 3000), label: "river course")
    }
}
