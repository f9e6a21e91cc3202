import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
import OarlogWorkouts
import XCTest

/// The whole chain against the simulator's truth: a simulated crew rows a plan (`simulate
/// --workout`: the accelerometer at 25, 100 and 500 Hz, GPS at 1 and 10 Hz, the default noise),
/// the stroke detector finds its catches, the distance comes from GPS, and the tracker times the
/// plan. Tolerances (issue 25): a timed piece starts at the first catch (± 0.05 s) and lasts its
/// time (± 0.05 s); a distance piece ends when the true distance reaches it (± 0.5 s); each
/// interval's strokes equal the truth's (± 1), its distance within 1 %, its rate within 0.5 spm.
final class WorkoutSimulationAccuracyTests: XCTestCase {
    final class Intervals: PipelineSink {
        var list: [WorkoutInterval] = []
        func receive(_ event: PipelineEvent) {
            if case .workout(.interval(let i)) = event { list.append(i) }
        }
    }

    func run(_ spec: String, rate: StrokesPerMinute, accelHz: Hertz, gpsHz: Hertz, seed: UInt64)
        throws -> (measured: [WorkoutInterval], truth: [GroundTruthInterval]) {
        let plan = try WorkoutSpec.parse(spec)
        var configuration = SimulationConfiguration(workout: plan, rate: rate)
        configuration.accelRate = accelHz
        configuration.gpsRate = gpsHz
        configuration.seed = seed
        var simulator = try BoatSimulator(configuration: configuration, truthRetention: .recent(8))
        let sink = Intervals()
        var pipeline = Pipeline(sinks: [sink], workout: WorkoutTracker(plan: plan))
        try pipeline.run(&simulator)
        return (sink.list, simulator.groundTruth.intervals)
    }

    func check(_ spec: String, rate: StrokesPerMinute, accelHz: Hertz, gpsHz: Hertz, seed: UInt64) throws {
        let label = "\(spec) at \(rate) spm, \(accelHz) Hz, GPS \(gpsHz) Hz"
        let (measured, truth) = try run(spec, rate: rate, accelHz: accelHz, gpsHz: gpsHz, seed: seed)
        XCTAssertEqual(measured.count, truth.count, label)
        guard measured.count == truth.count, let first = truth.first else { return }
        XCTAssertEqual(measured[0].start, try XCTUnwrap(first.firstCatch), accuracy: 0.05, "\(label): first piece at the first catch")
        let plan = try WorkoutSpec.parse(spec)
        for (m, t) in zip(measured, truth) {
            let step = plan.steps[m.stepIndex]
            let what = "\(label), interval \(m.index) (\(m.kind))"
            switch step.length {
            case .time(let seconds):
                XCTAssertEqual(m.elapsed, seconds, accuracy: 0.05, "\(what): lasts its time")
            case .distance:
                XCTAssertEqual(m.end, t.end, accuracy: 0.5, "\(what): ends where the true distance reaches it")
            }
            XCTAssertEqual(m.strokes, t.strokes, accuracy: 1, "\(what): strokes")
            if t.distance > 50 {
                XCTAssertEqual(try XCTUnwrap(m.distance, what), t.distance, accuracy: 0.01 * t.distance, "\(what): distance")
            }
            if m.kind != .rest, let truthRate = t.averageRate {
                XCTAssertEqual(try XCTUnwrap(m.averageStrokeRate, what), truthRate, accuracy: 0.5, "\(what): rate")
            }
        }
    }

    func testTimedAndDistancePiecesAt25Hz() throws {
        try check("1:30,500m/0:40r", rate: 24, accelHz: 25, gpsHz: 1, seed: 3)
        try check("1:30,500m/0:40r", rate: 30, accelHz: 25, gpsHz: 10, seed: 4)
    }

    func testTimedAndDistancePiecesAt100Hz() throws {
        try check("1:30,500m/0:40r", rate: 20, accelHz: 100, gpsHz: 1, seed: 5)
        try check("2x400m/0:30r", rate: 32, accelHz: 100, gpsHz: 10, seed: 6)
    }

    func testTimedAndDistancePiecesAt500Hz() throws {
        try check("1:30,500m/0:40r", rate: 26, accelHz: 500, gpsHz: 1, seed: 7)
        try check("3x1:00@20spm,24spm,28spm/0:30r", rate: 24, accelHz: 500, gpsHz: 10, seed: 8)
    }
}
