import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogTestSupport
import OarlogWorkouts
import XCTest

/// The tracker against a crew that rows the plan to the letter (`RowedPlan`: GPS and the
/// device's own catches, no detector in between): boundaries, strokes, distance, rate, time in
/// band, the go, a session stopped inside a piece, and the status the cox sees.
final class WorkoutTrackerTests: XCTestCase {
    final class Events: PipelineSink {
        var intervals: [WorkoutInterval] = []
        var started: [(Int, Seconds)] = []
        var statuses: [WorkoutStatus] = []
        var planned: [WorkoutPlan] = []
        var finished: [Seconds] = []
        func receive(_ event: PipelineEvent) {
            guard case .workout(let e) = event else { return }
            switch e {
            case .interval(let i): intervals.append(i)
            case .started(let step, let time): started.append((step, time))
            case .status(let s): statuses.append(s)
            case .planned(let p): planned.append(p)
            case .finished(let t): finished.append(t)
            }
        }
    }

    func run(_ rowed: RowedPlan, plan: WorkoutPlan, goTime: Seconds? = nil) throws -> Events {
        let events = Events()
        var configuration = AnalyzerConfiguration()
        configuration.strokeSource = .reference
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: configuration), sinks: [events],
                                workout: WorkoutTracker(plan: plan, goTime: goTime))
        var source = ListSource(rowed.records)
        try pipeline.run(&source)
        return events
    }

    func truthDistance(_ rowed: RowedPlan, _ a: Seconds, _ b: Seconds) -> Metres {
        rowed.state(at: b, speed: 4, glide: 4).0 - rowed.state(at: a, speed: 4, glide: 4).0
    }

    func testTimedPiecesStartAtTheFirstCatchAndLastTheirTime() throws {
        let plan = try WorkoutSpec.parse("3x1:00/0:30r")
        for gps in [1.0, 10.0] {
            let rowed = RowedPlan(plan, gpsRate: gps)
            let events = try run(rowed, plan: plan)
            XCTAssertEqual(events.planned, [plan])
            XCTAssertEqual(events.intervals.count, 5, "GPS \(gps) Hz")
            for (i, truth) in zip(events.intervals, rowed.steps) {
                XCTAssertEqual(i.kind, truth.kind)
                XCTAssertEqual(i.start, truth.start, accuracy: 1e-6, "interval \(i.index) start at \(gps) Hz")
                XCTAssertEqual(i.end, truth.end, accuracy: 1e-6, "interval \(i.index) end at \(gps) Hz")
                XCTAssertEqual(i.strokes, truth.catches.count, "interval \(i.index) strokes at \(gps) Hz")
                XCTAssertTrue(i.completed)
                let d = truthDistance(rowed, truth.start, truth.end)
                let measured = try XCTUnwrap(i.distance, "interval \(i.index) distance at \(gps) Hz")
                XCTAssertEqual(measured, d, accuracy: max(0.01 * d, 2), "interval \(i.index) distance at \(gps) Hz")
                if i.kind == .work {
                    XCTAssertEqual(try XCTUnwrap(i.averageStrokeRate), 24, accuracy: 0.5)
                }
            }
            XCTAssertEqual(events.intervals.map(\.pieceNumber), [1, nil, 2, nil, 3])
            XCTAssertEqual(events.started.map(\.0), [0, 1, 2, 3, 4])
            XCTAssertEqual(try XCTUnwrap(events.finished.first), rowed.steps[4].end, accuracy: 1e-6)
        }
    }

    func testADistancePieceEndsWhenTheDistanceIsReached() throws {
        let plan = try WorkoutSpec.parse("2x500m/1:00r")
        for gps in [1.0, 10.0] {
            let rowed = RowedPlan(plan, speed: 4, gpsRate: gps)
            let events = try run(rowed, plan: plan)
            XCTAssertEqual(events.intervals.count, 3, "GPS \(gps) Hz")
            // The first piece starts at the first catch; the second when the rest after the
            // first piece (which ended where the GPS distance reached 500 m) is over.
            XCTAssertEqual(events.intervals[0].start, rowed.steps[0].start, accuracy: 0.05)
            for (i, truth) in zip(events.intervals, rowed.steps) where truth.kind == .work {
                if i.index > 1 { XCTAssertEqual(i.start, events.intervals[i.index - 2].end, accuracy: 1e-9) }
                XCTAssertEqual(i.end - i.start, truth.end - truth.start, accuracy: 0.5, "piece \(i.index): 500 m at 4 m/s at \(gps) Hz")
                XCTAssertEqual(try XCTUnwrap(i.distance), 500, accuracy: 5, "piece \(i.index) distance at \(gps) Hz")
                XCTAssertEqual(i.strokes, truth.catches.count, accuracy: 1)
            }
            // The rest runs from the first piece's end for its minute.
            XCTAssertEqual(events.intervals[1].elapsed, 60, accuracy: 1e-6)
            XCTAssertEqual(events.intervals[2].start, events.intervals[1].end, accuracy: 1e-9)
        }
    }

    func testTargetsGiveTheShareOfThePieceInBand() throws {
        // Rowed at 20, 24 and 28 spm (each piece's band middle); every piece is judged against a
        // 22–26 band by a second plan of the same shape.
        let rowedPlan = try WorkoutSpec.parse("3x1:00@20spm,24spm,28spm/0:30r")
        let judged = try WorkoutSpec.parse("3x1:00@22-26spm/0:30r")
        let rowed = RowedPlan(rowedPlan, gpsRate: 1)
        let events = try run(rowed, plan: judged)
        let pieces = events.intervals.filter { $0.kind == .work }
        XCTAssertEqual(pieces.map(\.strokeRateInBand), [0, 1, 0])
        XCTAssertEqual(try XCTUnwrap(pieces[0].averageStrokeRate), 20, accuracy: 0.5)
        XCTAssertEqual(try XCTUnwrap(pieces[2].averageStrokeRate), 28, accuracy: 0.5)
        XCTAssertEqual(pieces[1].target.strokeRate, 22...26)
        XCTAssertNil(pieces[1].splitInBand)
        // A split band: 4 m/s is 2:05 /500 m.
        let splitPlan = try WorkoutSpec.parse("1x2:00@2:03-2:07")
        let splitEvents = try run(RowedPlan(splitPlan, gpsRate: 1), plan: splitPlan)
        XCTAssertGreaterThan(try XCTUnwrap(splitEvents.intervals.first?.splitInBand), 0.8)
        let tooFast = try WorkoutSpec.parse("1x2:00@1:40-1:45")
        let tooFastEvents = try run(RowedPlan(tooFast, gpsRate: 1), plan: tooFast)
        XCTAssertLessThan(try XCTUnwrap(tooFastEvents.intervals.first?.splitInBand), 0.05)
    }

    func testTheGoStartsThePlanBeforeTheFirstCatch() throws {
        let plan = try WorkoutSpec.parse("1x1:00")
        let rowed = RowedPlan(plan, gpsRate: 1, lead: 10.3)
        let events = try run(rowed, plan: plan, goTime: 5)
        let piece = try XCTUnwrap(events.intervals.first)
        XCTAssertEqual(piece.start, 5, accuracy: 1e-9)
        XCTAssertEqual(piece.end, 65, accuracy: 1e-9)
        // The crew rowed 10.3…70.3: its catches up to 65 s count.
        XCTAssertEqual(piece.strokes, rowed.steps[0].catches.filter { $0 < 65 }.count)
    }

    func testASessionStoppedInsideAPieceKeepsWhatWasRowed() throws {
        let plan = try WorkoutSpec.parse("3x1:00/0:30r")
        let rowed = RowedPlan(plan, gpsRate: 1, stopAt: 120)  // inside the second piece (100.3…160.3)
        let events = try run(rowed, plan: plan)
        XCTAssertEqual(events.intervals.map(\.completed), [true, true, false])
        XCTAssertEqual(events.intervals[2].start, rowed.steps[2].start, accuracy: 1e-6)
        XCTAssertEqual(events.intervals[2].end, 120, accuracy: 1e-6)
        XCTAssertEqual(events.intervals[2].strokes, rowed.steps[2].catches.filter { $0 <= 120 }.count)
        XCTAssertEqual(events.finished.count, 1)
    }

    func testTheStatusCountsDownEachStep() throws {
        let plan = try WorkoutSpec.parse("2x1:00@24spm/0:30r")
        let rowed = RowedPlan(plan, gpsRate: 1)
        let events = try run(rowed, plan: plan)
        let waiting = try XCTUnwrap(events.statuses.first)
        XCTAssertEqual(waiting.phase, .waiting)
        let piece = events.statuses.filter { $0.phase == .rowing && $0.kind == .work && $0.pieceNumber == 1 }
        XCTAssertGreaterThan(piece.count, 50)
        for s in piece {
            XCTAssertEqual(try XCTUnwrap(s.remainingTime) + s.elapsed, 60, accuracy: 1e-6)
            XCTAssertEqual(s.pieceCount, 2)
        }
        XCTAssertTrue(zip(piece, piece.dropFirst()).allSatisfy { $0.remainingTime! >= $1.remainingTime! })
        // Once the rate is settled it is in band (24 ± 0.5).
        XCTAssertEqual(piece.last?.strokeRateBand, .within)
        let rest = events.statuses.filter { $0.phase == .rowing && $0.kind == .rest }
        XCTAssertFalse(rest.isEmpty)
        XCTAssertEqual(rest.first?.next?.kind, .work)
        XCTAssertNil(rest.first?.strokeRateBand)
        XCTAssertEqual(events.statuses.last?.phase, .finished)
    }
}
