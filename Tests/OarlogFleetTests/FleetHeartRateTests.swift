import Foundation
import OarlogCore
import OarlogDSP
import OarlogFleet
import OarlogPipeline
import OarlogSimulator
import OarlogTestSupport
import XCTest

/// The crew's heart rates in the fleet's status messages: Oarlog's own Signal K paths under
/// `performance.rowing` (Hz, with `meta` saying so), read back by the coach, valid against Signal
/// K's delta schema, bounded in what a boat may send.
final class FleetHeartRateTests: XCTestCase {
    /// Seats and their straps' rates: each seat's rate rises 1 bpm a second from its own base.
    let seats: [(String?, Double)] = [("stroke", 120), ("7", 131), ("bow side", 142), (nil, 99)]

    func bpm(seat k: Int, at t: Double) -> Double { seats[k].1 + t.rounded(.down) }

    /// A simulated minute with four straps at 1 Hz, one of which falls silent after 30 s.
    func publishedMinute() throws -> [FleetMessage] {
        var configuration = SimulationConfiguration(minutes: 1, rate: 24)
        configuration.accelRate = 50
        let simulator = try BoatSimulator(configuration: configuration)
        var records: [TraceRecord] = []
        var source = simulator
        while let r = try source.next() { records.append(r) }
        // Each strap's beat once a second, put among the simulator's records in time order.
        var beats: [TraceRecord] = []
        for t in stride(from: 0.37, to: 60, by: 1) {  // off the fixes' and the statuses' times
            for (k, seat) in seats.enumerated() where !(seat.0 == "7" && t > 30) {
                beats.append(.heartRate(HeartRateSample(time: t, bpm: bpm(seat: k, at: t), sensor: seat.0)))
            }
        }
        records = (records + beats).enumerated().sorted { a, b in
            let (ta, tb) = (a.element.time ?? -1, b.element.time ?? -1)
            return ta != tb ? ta < tb : a.offset < b.offset
        }.map(\.element)
        var messages: [FleetMessage] = []
        let publisher = FleetPublisher(boatName: "Eight", topics: try FleetTopics(), title: "HR", wallClock: { 0 },
                                       describeFence: { _ in FleetFenceEvent(name: "", fence: "", text: "", fields: []) },
                                       send: { messages.append($1) })
        var pipeline = Pipeline(sinks: [publisher])
        var replay = ListSource(records)
        let summary = try pipeline.run(&replay)
        publisher.finish(summary: summary)
        return messages
    }

    func testStatusesCarryEachSeatsLatestHeartRateAndReadBack() throws {
        let statuses = try publishedMinute().compactMap { m -> (FleetMessage, FleetStatus)? in
            if case .status(let s) = m.content { return (m, s) } else { return nil }
        }
        XCTAssertGreaterThanOrEqual(statuses.count, 8, "a status every 5 s")
        var checked = 0
        for (message, status) in statuses where status.state != .ended {
            let t = message.elapsed
            let payload = SignalKDelta.payload(of: message)
            let text = String(decoding: payload, as: UTF8.self)
            let back = try SignalKDelta.message(boat: message.boat, kind: .status, payload: payload)
            guard case .status(let read) = back.content else { return XCTFail("not a status") }
            // Every strap heard in the last 10 s, at its latest beat (at or before t).
            var expected: [String: Double] = [:]
            for (k, seat) in seats.enumerated() {
                let last = (t - 0.37).rounded(.down) + 0.37
                let heard = seat.0 == "7" ? min(last, 29.37) : last
                guard heard >= 0.37, t - heard <= 10 else { continue }
                // A seat's name travels as a path segment: "bow side" reads back as "bow_side".
                expected[(seat.0 ?? "").replacingOccurrences(of: " ", with: "_")] = bpm(seat: k, at: heard)
            }
            let got = Dictionary(uniqueKeysWithValues: read.heartRates.map { ($0.sensor ?? "", $0.bpm) })
            XCTAssertEqual(Set(got.keys), Set(expected.keys), "at \(t) s")
            for (seat, value) in expected { XCTAssertEqual(got[seat] ?? -1, value, accuracy: 0.01, "seat \(seat) at \(t) s") }
            if !expected.isEmpty {
                XCTAssertTrue(text.contains("\"path\":\"performance.rowing.crew.stroke.heartRate\""), text)
                XCTAssertTrue(text.contains("\"meta\":[{\"path\":\"performance.rowing."), "units metadata: \(text)")
                XCTAssertTrue(text.contains("\"units\":\"Hz\""))
                if expected["bow_side"] != nil { XCTAssertTrue(text.contains("performance.rowing.crew.bow_side.heartRate")) }
                if expected[""] != nil { XCTAssertTrue(text.contains("\"path\":\"performance.rowing.heartRate\"")) }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 8)
        // Seat 7 fell silent at 29.37 s: gone from the statuses from 40 s on.
        let late = statuses.filter { $0.0.elapsed > 40 && $0.1.state != .ended }
        XCTAssertFalse(late.isEmpty)
        XCTAssertTrue(late.allSatisfy { !$0.1.heartRates.contains { $0.sensor == "7" } })
    }

    func testHeartRatePayloadsAreValidSignalKDeltas() throws {
        let messages = try publishedMinute().filter { if case .status(let s) = $0.content { !s.heartRates.isEmpty } else { false } }
        XCTAssertGreaterThan(messages.count, 5)
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let lines = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("oarlog-hr-deltas-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: lines) }
        var text = messages.map { String(decoding: SignalKDelta.payload(of: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        // Meta whose value is not an object: the check is seen to catch it.
        text += #"{"context":"vessels.urn:mrn:oarlog:boat:x","updates":[{"timestamp":"2026-05-02T07:00:00Z","values":[{"path":"a","value":1}],"meta":[{"path":"a","value":3}]}]}"# + "\n"
        try text.write(to: lines, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run("/usr/bin/python3", [fixtures.appendingPathComponent("validate_signalk.py").path, lines.path],
                                       in: NSTemporaryDirectory())
        XCTAssertEqual(run.status, 0, run.err)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], run.out)
        XCTAssertEqual(result["checked"] as? Int, messages.count + 1)
        let invalid = try XCTUnwrap(result["invalid"] as? [[String: Any]])
        XCTAssertEqual(invalid.compactMap { $0["line"] as? Int }, [messages.count + 1], "only the broken one: \(invalid.prefix(3))")
    }

    func testImplausibleAndTooManyHeartRatesAreLeftOut() throws {
        var values = (0..<20).map { k in "{\"path\":\"performance.rowing.crew.s\(k).heartRate\",\"value\":\(Double(100 + k) / 60)}" }
        values.append("{\"path\":\"performance.rowing.crew.x.heartRate\",\"value\":5}")        // 300 bpm
        values.append("{\"path\":\"performance.rowing.crew.a.b.heartRate\",\"value\":2}")      // a dotted seat
        values.append("{\"path\":\"performance.rowing.heartRate\",\"value\":\"fast\"}")        // not a number
        let payload = """
        {"context":"vessels.urn:mrn:oarlog:boat:alpha","updates":[{"timestamp":"2026-05-02T07:00:00Z","values":[\
        {"path":"performance.rowing.elapsedTime","value":10},{"path":"performance.rowing.state","value":"rowing"},\
        {"path":"performance.rowing.strokeCount","value":3},{"path":"navigation.log","value":12},\(values.joined(separator: ","))]}],\
        "oarlog":{"session":"s","seq":1,"kind":"status"}}
        """
        let message = try SignalKDelta.message(boat: "alpha", kind: .status, payload: Array(payload.utf8))
        guard case .status(let s) = message.content else { return XCTFail("not a status") }
        XCTAssertEqual(s.heartRates.count, FleetHeartRate.maximumSensors)
        XCTAssertTrue(s.heartRates.allSatisfy { ($0.sensor ?? "").hasPrefix("s") && $0.bpm >= 100 && $0.bpm < 120 }, "\(s.heartRates)")

        var crew = CrewHeartRates()
        for k in 0..<12 { crew.add(HeartRateSample(time: 1, bpm: 100, sensor: "seat\(k)")) }
        crew.add(HeartRateSample(time: 1, bpm: 300, sensor: "seat0"))
        crew.add(HeartRateSample(time: 1, bpm: .nan, sensor: "seat1"))
        XCTAssertEqual(crew.current(at: 2).count, FleetHeartRate.maximumSensors)
        XCTAssertEqual(crew.leftOut, 3)
        XCTAssertTrue(crew.current(at: 2).allSatisfy { $0.bpm == 100 })
        XCTAssertTrue(crew.current(at: 11.5).isEmpty, "stale after 10 s")
    }
}
