import OarlogCore
import OarlogDSP
import OarlogFleet
import OarlogPipeline
import OarlogSimulator
import OarlogWorkouts
import XCTest

/// Where the crew is in its plan, as the boat publishes it on `oarlog/BOAT/workout`: a status at
/// most once a second and at every step's change, each interval once, read back as the tracker
/// made them.
final class WorkoutPublishingTests: XCTestCase {
    final class Collector: PipelineSink {
        var statuses: [WorkoutStatus] = []
        var intervals: [WorkoutInterval] = []
        func receive(_ event: PipelineEvent) {
            if case .workout(.status(let s)) = event { statuses.append(s) }
            if case .workout(.interval(let i)) = event { intervals.append(i) }
        }
    }

    /// A simulated 3-minute outing rowing `spec`: what the publisher sent on the workout topic,
    /// and what the tracker reported.
    func publish(_ spec: String) throws -> (sent: [(topic: String, message: FleetMessage)], tracker: Collector) {
        var configuration = SimulationConfiguration(minutes: 3, rate: 26)
        configuration.accelRate = 100
        var simulator = try BoatSimulator(configuration: configuration)
        var sent: [(String, FleetMessage)] = []
        let publisher = FleetPublisher(boatName: "Eight", topics: try FleetTopics(), title: "pieces", wallClock: { 1_780_736_400 },
                                       describeFence: { _ in FleetFenceEvent(name: "", fence: "", text: "") },
                                       send: { sent.append(($0, $1)) })
        let collector = Collector()
        var pipeline = Pipeline(sinks: [publisher, collector], workout: WorkoutTracker(plan: try WorkoutSpec.parse(spec)))
        let summary = try pipeline.run(&simulator)
        publisher.finish(summary: summary)
        return (sent.filter { $0.1.kind == .workout }, collector)
    }

    func testStatusesAtMostOnceASecondAndAtEveryStep() throws {
        let (sent, tracker) = try publish("3x0:30@24-28spm/0:15r")
        XCTAssertEqual(Set(sent.map(\.topic)), ["oarlog/eight/workout"])
        let statuses = try sent.compactMap { item -> (Seconds, WorkoutStatus)? in
            let back = try SignalKDelta.message(boat: "eight", kind: .workout, payload: SignalKDelta.payload(of: item.message))
            guard case .workout(let s) = back.content else { return nil }
            return (back.elapsed, s)
        }
        // The tracker reports twice a second; the fleet gets about one a second.
        XCTAssertGreaterThan(tracker.statuses.count, 250)
        XCTAssertLessThan(Double(statuses.count), Double(tracker.statuses.count) * 0.6)
        for (a, b) in zip(statuses, statuses.dropFirst()) where a.1.stepIndex == b.1.stepIndex && a.1.phase == b.1.phase {
            XCTAssertGreaterThanOrEqual(b.0 - a.0, 0.999, "at most one status a second within a step (at \(b.0) s)")
            XCTAssertLessThanOrEqual(b.0 - a.0, 1.51, "and one at least every 1.5 s while the tracker reports (at \(b.0) s)")
        }
        // Every change of step or phase the tracker made is published as it happens.
        func changes(_ list: [WorkoutStatus]) -> [String] {
            var out: [String] = []
            for s in list where out.last != "\(s.phase.rawValue) \(s.stepIndex)" { out.append("\(s.phase.rawValue) \(s.stepIndex)") }
            return out
        }
        XCTAssertEqual(changes(statuses.map(\.1)), changes(tracker.statuses))
        XCTAssertEqual(changes(tracker.statuses), ["waiting 0", "rowing 0", "rowing 1", "rowing 2", "rowing 3", "rowing 4", "finished 4"])
        // What a coach reads: piece n of 3, what is left, the target; a timed step's elapsed and
        // remaining add up to its 30 s (or 15 s of rest).
        for (_, s) in statuses where s.phase == .rowing {
            XCTAssertEqual(s.pieceCount, 3)
            XCTAssertEqual(s.stepCount, 5)
            XCTAssertEqual(s.pieceNumber, s.kind == .work ? s.stepIndex / 2 + 1 : nil)
            XCTAssertEqual(s.elapsed + (s.remainingTime ?? -99), s.kind == .work ? 30 : 15, accuracy: 1e-6)
            if s.kind == .work {
                XCTAssertEqual(s.target.strokeRate?.lowerBound ?? 0, 24, accuracy: 1e-9)
                XCTAssertEqual(s.target.strokeRate?.upperBound ?? 0, 28, accuracy: 1e-9)
            }
        }
    }

    func testEachIntervalOnceAsTheTrackerMadeIt() throws {
        let (sent, tracker) = try publish("2x0:40/0:20r")
        let intervals = try sent.compactMap { item -> WorkoutInterval? in
            let back = try SignalKDelta.message(boat: "eight", kind: .workout, payload: SignalKDelta.payload(of: item.message))
            guard case .interval(let i) = back.content else { return nil }
            return i
        }
        XCTAssertEqual(tracker.intervals.count, 3)
        XCTAssertEqual(intervals.count, tracker.intervals.count)
        for (a, b) in zip(intervals, tracker.intervals) {
            XCTAssertEqual(a.averageStrokeRate ?? -1, b.averageStrokeRate ?? -1, accuracy: 1e-9)
            var a = a
            a.averageStrokeRate = b.averageStrokeRate
            XCTAssertEqual(a, b)
        }
        XCTAssertEqual(intervals.map(\.workOrRest), ["work", "rest", "work"])
        for (i, length) in zip(intervals, [40.0, 20, 40]) { XCTAssertEqual(i.end - i.start, length, accuracy: 1e-9, "a timed step lasts its time") }
    }

    /// `serve`: the workout comes from the recording's pipeline through a feed, and is published
    /// at the publisher's own time with its next event.
    func testWorkoutFromAFeedGoesOutAtThePublishersTime() throws {
        final class Feed: @unchecked Sendable { var events: [WorkoutEvent] = [] }
        let feed = Feed()
        var sent: [FleetMessage] = []
        let publisher = FleetPublisher(boatName: "Eight", topics: try FleetTopics(), title: "live", startUTC: 1_780_736_400,
                                       wallClock: { 0 }, describeFence: { _ in FleetFenceEvent(name: "", fence: "", text: "") },
                                       workoutFeed: { defer { feed.events = [] }; return feed.events }, send: { sent.append($1) })
        let status = WorkoutStatus(phase: .rowing, stepIndex: 0, stepCount: 3, kind: .work, label: nil, pieceNumber: 1, pieceCount: 2,
                                   length: .distance(500), target: .none, elapsed: 12, remainingDistance: 451.5, distance: 48.5)
        publisher.receive(.record(.fix(GPSFix(time: 20, latitude: 51.5, longitude: -0.2))))
        feed.events = [.status(status), .status(status)]
        publisher.receive(.record(.fix(GPSFix(time: 21.25, latitude: 51.5, longitude: -0.2))))
        let workout = sent.filter { $0.kind == .workout }
        XCTAssertEqual(workout.count, 1, "the second status of the same step within a second is not sent")
        XCTAssertEqual(workout.first?.elapsed, 20, "at the publisher's latest time when the feed was taken")
        XCTAssertEqual(workout.first?.utc, 1_780_736_420)
        XCTAssertEqual(workout.first?.content, .workout(status))
        XCTAssertEqual(sent.map(\.sequence), Array(1...sent.count), "in the boat's one sequence")
    }

    func testPlanTopics() throws {
        let topics = try FleetTopics()
        XCTAssertEqual(topics.plan(boat: "alpha"), "oarlog/alpha/plan")
        XCTAssertEqual(topics.plan(boat: nil), "oarlog/all/plan")
        XCTAssertEqual(topics.planAnswer(boat: "alpha"), "oarlog/alpha/plan/answer")
        XCTAssertEqual(topics.everyPlanAnswer, "oarlog/+/plan/answer")
        XCTAssertEqual(topics.parsePlan("oarlog/alpha/plan"), .some("alpha"))
        XCTAssertEqual(topics.parsePlan("oarlog/all/plan"), .some(nil))
        XCTAssertNil(topics.parsePlan("oarlog/Alpha/plan"))
        XCTAssertNil(topics.parsePlan("oarlog/alpha/plan/answer"))
        XCTAssertEqual(topics.parsePlanAnswer("oarlog/alpha/plan/answer"), "alpha")
        XCTAssertNil(topics.parsePlanAnswer("oarlog/all/plan/answer"), "no boat is all")
        XCTAssertNil(topics.parse("oarlog/alpha/plan"), "a plan is not a boat's own message")
        // No boat is `all`: its messages would be the plan topic's.
        XCTAssertEqual(FleetTopics.boatID("All"), "all-boat")
        XCTAssertFalse(FleetTopics.isBoatID("all"))
        XCTAssertTrue(FleetTopics.isBoatID("all-boat"))
    }
}
