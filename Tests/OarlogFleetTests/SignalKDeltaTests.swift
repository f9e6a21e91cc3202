import Foundation
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogFleet
import OarlogPipeline
import OarlogSimulator
import OarlogTestSupport
import OarlogWorkouts
import XCTest

/// The fleet's messages: what a boat's pipeline publishes over a simulated outing, read back
/// exactly, and every payload valid against Signal K's delta schema (python3-jsonschema).
final class SignalKDeltaTests: XCTestCase {
    /// Every message a publisher makes from a simulated outing with a note, fence events and a
    /// workout plan (two 40 s pieces with 20 s rest: its statuses and intervals).
    func publishedOuting(minutes: Double = 4) throws -> (messages: [(String, FleetMessage)], summary: SessionSummary, strokes: [StrokeMetrics]) {
        var configuration = SimulationConfiguration(minutes: minutes, rate: 28)
        configuration.accelRate = 100
        var simulator = try BoatSimulator(configuration: configuration)
        var messages: [(String, FleetMessage)] = []
        let publisher = FleetPublisher(boatName: "Women's 8+ \"A\"", topics: try FleetTopics(), title: "Morning — 4×500",
                                       wallClock: { 0 }, describeFence: { e in
                                           FleetFenceEvent(name: "fence.enter", fence: "dock", text: "entered dock at \(e.time)",
                                                           fields: [.init("fence", "dock"), .init("lat_deg", "51.5")])
                                       }, send: { messages.append(($0, $1)) })
        let collector = Collector()
        var pipeline = Pipeline(sinks: [publisher, collector], workout: WorkoutTracker(plan: try WorkoutSpec.parse("2x0:40@26-30spm/0:20r")))
        let summary = try pipeline.run(&simulator)
        // A note and a fence event, as a live session would have them.
        publisher.receive(.record(.note(Note(time: 30, text: "Ratio: \"long\" recovery\nline two"))))
        publisher.receive(.fence(.enter(fence: FenceID(index: 0, name: "dock"), time: 31.5)))
        publisher.finish(summary: summary)
        return (messages, summary, collector.strokes)
    }

    final class Collector: PipelineSink {
        var strokes: [StrokeMetrics] = []
        func receive(_ event: PipelineEvent) {
            if case .analysis(.stroke(let m)) = event { strokes.append(m) }
        }
    }

    func testAnOutingReadsBackExactly() throws {
        let (messages, summary, strokes) = try publishedOuting()
        XCTAssertGreaterThan(strokes.count, 100)
        let topics = try FleetTopics()
        XCTAssertEqual(messages.map(\.1.sequence), Array(1...messages.count), "one sequence over every kind")
        XCTAssertEqual(Set(messages.map(\.1.boat)), ["women-s-8-a"])
        var readStrokes: [StrokeMetrics] = []
        var readCatches: [FleetCatch] = []
        for (topic, message) in messages {
            guard let (boat, kind) = topics.parse(topic) else { return XCTFail("not a fleet topic: \(topic)") }
            XCTAssertEqual(topic, "oarlog/women-s-8-a/\(message.kind.rawValue)")
            let back = try SignalKDelta.message(boat: boat, kind: kind, payload: SignalKDelta.payload(of: message))
            // UTC travels in milliseconds; everything else is exact (rates within rounding of spm/60·60).
            XCTAssertEqual(back.utc, message.utc, accuracy: 0.0005)
            var expected = message
            expected.utc = back.utc
            if case .stroke(let s) = back.content, case .stroke(var e) = expected.content {
                XCTAssertEqual(s.strokeRate ?? -1, e.strokeRate ?? -1, accuracy: 1e-9)
                XCTAssertEqual(s.smoothedRate ?? -1, e.smoothedRate ?? -1, accuracy: 1e-9)
                e.strokeRate = s.strokeRate
                e.smoothedRate = s.smoothedRate
                expected.content = .stroke(e)
                readStrokes.append(s.metrics)
            }
            if case .caught(let c) = back.content, case .caught(var e) = expected.content {
                XCTAssertEqual(c.strokeRate ?? -1, e.strokeRate ?? -1, accuracy: 1e-9)
                XCTAssertEqual(c.smoothedRate ?? -1, e.smoothedRate ?? -1, accuracy: 1e-9)
                e.strokeRate = c.strokeRate
                e.smoothedRate = c.smoothedRate
                expected.content = .caught(e)
                if c.withdrawn { readCatches.removeAll { $0.index == c.index } } else { readCatches.append(c) }
            }
            if case .status(let s) = back.content, case .status(var e) = expected.content {
                XCTAssertEqual(s.strokeRate ?? -1, e.strokeRate ?? -1, accuracy: 1e-9)
                e.strokeRate = s.strokeRate
                expected.content = .status(e)
            }
            if case .position(let p) = back.content, case .position(var e) = expected.content {
                XCTAssertEqual(p.course ?? -1, e.course ?? -1, accuracy: 1e-9)
                e.course = p.course
                expected.content = .position(e)
            }
            if case .session(let s) = back.content, case .session(var e) = expected.content, var m = e.summary {
                XCTAssertEqual(s.summary?.averageStrokeRate ?? -1, m.averageStrokeRate ?? -1, accuracy: 1e-9)
                XCTAssertEqual(s.summary?.maxStrokeRate ?? -1, m.maxStrokeRate ?? -1, accuracy: 1e-9)
                m.averageStrokeRate = s.summary?.averageStrokeRate
                m.maxStrokeRate = s.summary?.maxStrokeRate
                e.summary = m
                expected.content = .session(e)
            }
            // A workout's rates travel in Hz (spm / 60) too.
            if case .workout(let w) = back.content, case .workout(var e) = expected.content {
                XCTAssertEqual(w.strokeRate ?? -1, e.strokeRate ?? -1, accuracy: 1e-9)
                XCTAssertEqual(w.target.strokeRate?.lowerBound ?? -1, e.target.strokeRate?.lowerBound ?? -1, accuracy: 1e-9)
                XCTAssertEqual(w.next?.target.strokeRate?.upperBound ?? -1, e.next?.target.strokeRate?.upperBound ?? -1, accuracy: 1e-9)
                e.strokeRate = w.strokeRate
                e.target.strokeRate = w.target.strokeRate
                e.next?.target.strokeRate = w.next?.target.strokeRate
                expected.content = .workout(e)
            }
            if case .interval(let i) = back.content, case .interval(var e) = expected.content {
                XCTAssertEqual(i.averageStrokeRate ?? -1, e.averageStrokeRate ?? -1, accuracy: 1e-9)
                XCTAssertEqual(i.target.strokeRate?.lowerBound ?? -1, e.target.strokeRate?.lowerBound ?? -1, accuracy: 1e-9)
                e.averageStrokeRate = i.averageStrokeRate
                e.target.strokeRate = i.target.strokeRate
                expected.content = .interval(e)
            }
            XCTAssertEqual(back, expected, "\(topic) #\(message.sequence)")
        }
        XCTAssertEqual(readStrokes.count, strokes.count)
        for (a, b) in zip(readStrokes, strokes) {
            XCTAssertEqual(a.stroke.index, b.stroke.index)
            XCTAssertEqual(a.stroke.catchTime, b.stroke.catchTime)
            XCTAssertEqual(a.distance, b.distance)
            XCTAssertEqual(a.split, b.split)
            XCTAssertEqual(a.stroke.driveDuration, b.stroke.driveDuration)
            XCTAssertEqual(a.stroke.recoveryDuration, b.stroke.recoveryDuration)
        }
        // Each stroke at its catch first, with the catch time it is concluded with, and the rate
        // of the stroke that catch finished (that stroke's own, concluded later).
        XCTAssertEqual(readCatches.map(\.index), strokes.map(\.stroke.index))
        for (k, (c, m)) in zip(readCatches, strokes).enumerated() {
            XCTAssertEqual(c.catchTime, m.stroke.catchTime)
            XCTAssertEqual(c.strokeRate ?? -1, k > 0 ? strokes[k - 1].stroke.strokeRate ?? -1 : -1, accuracy: 1e-9)
        }
        // One position a second (a 1 Hz receiver: every fix), the session's start first and end last.
        let positions = messages.filter { $0.1.kind == .position }.count
        XCTAssertEqual(Double(positions), 4 * 60, accuracy: 12)
        guard case .session(let first) = messages.first?.1.content, case .session(let last) = messages.last?.1.content else {
            return XCTFail("the session's start and end frame the messages")
        }
        XCTAssertTrue(first.started)
        XCTAssertEqual(last.summary?.strokes, summary.strokes)
        XCTAssertEqual(last.summary?.distance, summary.distance)
        XCTAssertEqual(messages.first?.1.boatName, "Women's 8+ \"A\"")
        let statuses = messages.filter { $0.1.kind == .status }
        XCTAssertEqual(Double(statuses.count), 4 * 60 / 5, accuracy: 3, "status every 5 s")
    }

    /// The coach counts each stroke when its catch message comes, ahead of its conclusion (which
    /// waits for the next catch and the GPS), with the boat's rate; at the end both counts are
    /// the boat's.
    func testTheCoachCountsEachStrokeAtItsCatch() throws {
        let (messages, summary, _) = try publishedOuting(minutes: 2)
        let topics = try FleetTopics()
        var board = FleetBoard()
        var ahead = 0, catches = 0
        for (topic, message) in messages {
            // Received as it is sent (a receiver refuses a session starting more than an hour ahead of its clock).
            _ = board.receive(topic: topic, payload: SignalKDelta.payload(of: message), topics: topics, now: message.utc)
            guard case .caught(let c) = message.content, !c.withdrawn, let boat = board.boats[message.boat] else { continue }
            catches += 1
            XCTAssertEqual(boat.caughtStrokes, c.index, "the coach's count at catch \(c.index)")
            XCTAssertEqual(boat.strokeRate ?? -1, c.smoothedRate ?? c.strokeRate ?? -1, accuracy: 1e-9)
            if boat.strokeCount < c.index { ahead += 1 }
        }
        XCTAssertEqual(catches, summary.strokes)
        XCTAssertEqual(ahead, catches, "every stroke counted before its conclusion arrived")
        let boat = try XCTUnwrap(board.boats.values.first)
        XCTAssertEqual(boat.caughtStrokes, summary.strokes)
        XCTAssertEqual(boat.strokeCount, summary.strokes)
    }

    func testACatchReadsBackAndABadOneIsRefused() throws {
        let topics = try FleetTopics()
        for c in [FleetCatch(index: 12, catchTime: 31.25, strokeRate: 30, smoothedRate: 28.5),
                  FleetCatch(index: 13, catchTime: 33.5, strokeRate: nil, smoothedRate: nil, withdrawn: true)] {
            let m = FleetMessage(boat: "alpha", session: "2026-06-06T09:00:00.000Z", sequence: c.index, utc: 1_780_736_400 + c.catchTime,
                                 elapsed: c.catchTime, content: .caught(c))
            XCTAssertEqual(topics.topic(boat: "alpha", m.kind), "oarlog/alpha/catch")
            let back = try SignalKDelta.message(boat: "alpha", kind: .catch, payload: SignalKDelta.payload(of: m))
            guard case .caught(let b) = back.content else { return XCTFail("not a catch") }
            XCTAssertEqual(b.index, c.index)
            XCTAssertEqual(b.catchTime, c.catchTime)
            XCTAssertEqual(b.withdrawn, c.withdrawn)
            XCTAssertEqual(b.strokeRate ?? -1, c.strokeRate ?? -1, accuracy: 1e-9)
        }
        let bad = Array(#"{"context":"vessels.urn:mrn:oarlog:boat:alpha","updates":[{"timestamp":"2026-06-06T09:00:31.250Z","values":[{"path":"performance.rowing.elapsedTime","value":31.25},{"path":"performance.rowing.strokeCount","value":12},{"path":"performance.rowing.catch","value":"maybe"}]}],"oarlog":{"session":"s","seq":3}}"#.utf8)
        XCTAssertThrowsError(try SignalKDelta.message(boat: "alpha", kind: .catch, payload: bad)) { error in
            XCTAssertTrue("\(error)".contains("catch state"), "\(error)")
        }
    }

    func testEveryPayloadIsAValidSignalKDelta() throws {
        let (messages, _, _) = try publishedOuting(minutes: 2)
        let kinds = Set(messages.map(\.1.kind))
        XCTAssertEqual(kinds, Set(FleetMessageKind.allCases), "every kind of message is checked")
        let intervals = messages.filter { if case .interval = $0.1.content { true } else { false } }
        XCTAssertEqual(intervals.count, 3, "a workout's intervals are checked too (2 pieces, 1 rest)")
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let lines = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("oarlog-deltas-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: lines) }
        var text = messages.map { String(decoding: SignalKDelta.payload(of: $0.1), as: UTF8.self) }.joined(separator: "\n") + "\n"
        // A broken one, so the check is seen to catch what is wrong.
        text += #"{"context":"vessels.urn:mrn:oarlog:boat:x","updates":[{"timestamp":"2026-05-02T07:00:00","values":[{"path":"a"}]}]}"# + "\n"
        try text.write(to: lines, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run("/usr/bin/python3", [fixtures.appendingPathComponent("validate_signalk.py").path, lines.path],
                                       in: NSTemporaryDirectory())
        XCTAssertEqual(run.status, 0, run.err)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], run.out)
        XCTAssertEqual(result["checked"] as? Int, messages.count + 1)
        let invalid = try XCTUnwrap(result["invalid"] as? [[String: Any]])
        XCTAssertEqual(invalid.compactMap { $0["line"] as? Int }, [messages.count + 1], "only the broken one: \(invalid.prefix(3))")
    }

    func testBadPayloadsAreRefusedWithTheReason() throws {
        let good = FleetMessage(boat: "alpha", session: "2026-05-02T07:00:00.000Z", sequence: 3, utc: 1_777_705_200, elapsed: 12,
                                content: .note("easy"))
        let payload = String(decoding: SignalKDelta.payload(of: good), as: UTF8.self)
        XCTAssertEqual(try SignalKDelta.message(boat: "alpha", kind: .note, payload: Array(payload.utf8)), good)
        func refusal(_ text: String, boat: String = "alpha", kind: FleetMessageKind = .note) -> String {
            do {
                _ = try SignalKDelta.message(boat: boat, kind: kind, payload: Array(text.utf8))
                return "accepted"
            } catch { return error.description }
        }
        XCTAssertTrue(refusal(payload, boat: "bravo").contains("names boat 'alpha' on boat 'bravo'"))
        XCTAssertTrue(refusal(payload.replacingOccurrences(of: "\"seq\":3", with: "\"seq\":0")).contains("oarlog.seq"))
        XCTAssertTrue(refusal(payload.replacingOccurrences(of: "\"seq\":3", with: "\"seq\":2.5")).contains("oarlog.seq"))
        XCTAssertTrue(refusal(String(payload.dropLast())).contains("not JSON"))
        XCTAssertTrue(refusal(payload, kind: .stroke).contains("no number at performance.rowing.strokeCount"))
        XCTAssertTrue(refusal(String(repeating: " ", count: 70_000) + payload).contains("65536"))
        XCTAssertTrue(refusal(payload.replacingOccurrences(of: "Z\",\"values", with: "\",\"values")).contains("timestamp"))
    }

    /// An acceleration beyond what a `Float` holds (3.4e38 m/s²) was read as infinity and written
    /// again as `null`, which no receiver reads back (found by the fleet-message fuzzer): the
    /// stroke's peak is refused, and a quality figure that large drops the stroke's quality.
    func testAccelerationsAFloatCannotHoldAreRefusedAndNeverWrittenAsNull() throws {
        func stroke(peak: String, check: String) -> [UInt8] {
            Array(("{\"context\":\"vessels.urn:mrn:oarlog:boat:alpha\",\"updates\":[{\"timestamp\":\"2026-06-06T09:03:12.480Z\",\"values\":["
                + "{\"path\":\"performance.rowing.elapsedTime\",\"value\":192.48},{\"path\":\"performance.rowing.strokeCount\",\"value\":71},"
                + "{\"path\":\"performance.rowing.driveTime\",\"value\":0.8},{\"path\":\"performance.rowing.peakAcceleration\",\"value\":\(peak)},"
                + "{\"path\":\"performance.rowing.check\",\"value\":\(check)},{\"path\":\"performance.rowing.drivePeakAcceleration\",\"value\":3.5},"
                + "{\"path\":\"performance.rowing.driveMeanAcceleration\",\"value\":1.2},{\"path\":\"performance.rowing.speedBelowMean\",\"value\":0.3},"
                + "{\"path\":\"performance.rowing.speedAboveMean\",\"value\":0.4}]}],"
                + "\"oarlog\":{\"session\":\"2026-06-06T09:00:00.000Z\",\"seq\":312,\"kind\":\"stroke\"}}").utf8)
        }
        XCTAssertThrowsError(try SignalKDelta.message(boat: "alpha", kind: .stroke, payload: stroke(peak: "3.5e38", check: "2")))
        do {
            _ = try SignalKDelta.message(boat: "alpha", kind: .stroke, payload: stroke(peak: "-1e39", check: "2"))
            XCTFail("a peak of -1e39 m/s² was read")
        } catch { XCTAssertTrue(error.description.contains("performance.rowing.peakAcceleration"), error.description) }
        let big = try SignalKDelta.message(boat: "alpha", kind: .stroke, payload: stroke(peak: "3.1e38", check: "1e39"))
        guard case .stroke(let s) = big.content else { return XCTFail("not a stroke: \(big)") }
        XCTAssertEqual(s.peakAcceleration, 3.1e38, accuracy: 1e32)
        XCTAssertNil(s.quality, "a check of 1e39 m/s² is no quality figure")
        let again = try SignalKDelta.message(boat: "alpha", kind: .stroke, payload: SignalKDelta.payload(of: big))
        XCTAssertEqual(again, big)
        let fine = try SignalKDelta.message(boat: "alpha", kind: .stroke, payload: stroke(peak: "3.1", check: "2"))
        guard case .stroke(let f) = fine.content else { return XCTFail("not a stroke: \(fine)") }
        XCTAssertEqual(f.quality?.check, 2)
        XCTAssertEqual(f.quality?.peakDriveAcceleration, 3.5)
        // A stroke rate in Hz whose spm overflows is no rate.
        let fast = Array(String(decoding: stroke(peak: "3.1", check: "2"), as: UTF8.self)
            .replacingOccurrences(of: "\"value\":71}", with: "\"value\":71},{\"path\":\"performance.rowing.strokeRate\",\"value\":1e307}").utf8)
        guard case .stroke(let r) = try SignalKDelta.message(boat: "alpha", kind: .stroke, payload: fast).content else { return XCTFail("not a stroke") }
        XCTAssertNil(r.strokeRate)
        let usual = Array(String(decoding: fast, as: UTF8.self).replacingOccurrences(of: "1e307", with: "0.5").utf8)
        guard case .stroke(let u) = try SignalKDelta.message(boat: "alpha", kind: .stroke, payload: usual).content else { return XCTFail("not a stroke") }
        XCTAssertEqual(u.strokeRate ?? 0, 30, accuracy: 1e-9)
    }

    func testTopicsAndBoatIDs() throws {
        XCTAssertEqual(FleetTopics.boatID("Women's 8+ A"), "women-s-8-a")
        XCTAssertEqual(FleetTopics.boatID("  M1x_Ana  "), "m1x_ana")
        XCTAssertEqual(FleetTopics.boatID("+#/"), "boat")
        XCTAssertEqual(FleetTopics.boatID(String(repeating: "x", count: 100)).count, 64)
        let topics = try FleetTopics(prefix: "club/thames/")
        XCTAssertEqual(topics.topic(boat: "alpha", .stroke), "club/thames/alpha/stroke")
        XCTAssertEqual(topics.everyBoat, "club/thames/+/+")
        XCTAssertEqual(topics.parse("club/thames/alpha/position")?.kind, .position)
        XCTAssertNil(topics.parse("club/thames/alpha/other"))
        XCTAssertNil(topics.parse("club/thames/alpha/x/stroke"))
        XCTAssertNil(topics.parse("oarlog/alpha/stroke"))
        XCTAssertEqual(topics.parse("club/thames/alpha/workout")?.kind, .workout)
        XCTAssertThrowsError(try FleetTopics(prefix: "a/+/b"))
        XCTAssertThrowsError(try FleetTopics(prefix: "/"))
    }
}
