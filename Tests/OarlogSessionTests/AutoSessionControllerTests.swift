import Foundation
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
@testable import OarlogSession
import XCTest

/// `oarlog record --auto`: a simulated outing with rests goes through the same loop the live
/// recorder runs (controller → pipeline → session writer per outing).
final class AutoSessionControllerTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-auto") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    struct Recorded {
        var outing: AutoOuting
        var path: String
        var strokes: [StrokeMetrics]
        var summary: SessionSummary
    }

    /// Runs the simulator through the controller, one session file per outing.
    func record(profile: String, duration: Seconds, idle: Seconds) throws -> (outings: [Recorded], simulator: BoatSimulator) {
        var config = SimulationConfiguration(duration: duration, profile: try SimulationProfile.parse(profile, duration: duration))
        config.seed = 11
        config.gpsDropoutsPerHour = 0
        var autoConfig = AutoSessionConfiguration()
        autoConfig.idleToEnd = idle
        let controller = AutoSessionController(source: try BoatSimulator(configuration: config), configuration: autoConfig)
        let sessions = SessionDirectory(path: directory + "/sessions")
        var out: [Recorded] = []
        var collector = StrokeCollector()
        var writer: SessionWriter?
        try controller.run(makePipeline: { outing in
            collector = StrokeCollector()
            let metadata = SessionMetadata(title: "auto \(outing.number)", startUTC: config.startUTC + outing.start)
            writer = try SessionWriter.create(in: sessions, metadata: metadata, options: .init(durability: .never))
            return Pipeline(sinks: [collector, writer!])
        }, finished: { outing, summary, _ in
            out.append(Recorded(outing: outing, path: writer!.path, strokes: collector.strokes, summary: summary))
        })
        return (out, controller.source)
    }

    /// Strokes of the plain pipeline over the whole simulated session (recorded throughout).
    func referenceStrokes(profile: String, duration: Seconds) throws -> [StrokeMetrics] {
        var config = SimulationConfiguration(duration: duration, profile: try SimulationProfile.parse(profile, duration: duration))
        config.seed = 11
        config.gpsDropoutsPerHour = 0
        var source = try BoatSimulator(configuration: config)
        let collector = StrokeCollector()
        var pipeline = Pipeline(sinks: [collector])
        try pipeline.run(&source)
        return collector.strokes
    }

    func testTwoOutingsSeparatedByALongRestBecomeTwoSessions() throws {
        let profile = "120:24,300:rest,120:20"
        let (outings, simulator) = try record(profile: profile, duration: 540, idle: 120)
        let truth = simulator.groundTruth.strokes.map(\.catchTime)
        let reference = try referenceStrokes(profile: profile, duration: 540)
        XCTAssertEqual(outings.count, 2, "\(outings.map(\.outing))")
        guard outings.count == 2 else { return }

        for (k, (from, to)) in [(0.0, 120.0), (420.0, 540.0)].enumerated() {
            let o = outings[k]
            let trueCatches = truth.filter { $0 >= from && $0 < to }
            let referenceCatches = reference.map(\.stroke.catchTime).filter { $0 >= from - 1 && $0 < to + 5 }
            let catches = o.strokes.map { $0.stroke.catchTime + o.outing.start }
            print("auto outing \(k + 1): start \(o.outing.start) s, \(catches.count) strokes (truth \(trueCatches.count), "
                  + "recorded throughout \(referenceCatches.count)), first catch \(catches.first ?? .nan) s "
                  + "(truth \(trueCatches.first ?? .nan), throughout \(referenceCatches.first ?? .nan))")
            // Within 2 strokes of the truth, within 1 of recording throughout.
            XCTAssertEqual(Double(catches.count), Double(trueCatches.count), accuracy: 2, "outing \(k + 1)")
            XCTAssertEqual(Double(catches.count), Double(referenceCatches.count), accuracy: 1, "outing \(k + 1)")
            // The lead-in keeps the first strokes: the first one is the reference's first (±0.2 s)
            // and the session starts at least 5 s before it (or with the data).
            XCTAssertEqual(try XCTUnwrap(catches.first), try XCTUnwrap(referenceCatches.first), accuracy: 0.2, "outing \(k + 1)")
            XCTAssertLessThanOrEqual(o.outing.start, max(0, try XCTUnwrap(trueCatches.first) - 5))
            XCTAssertGreaterThanOrEqual(o.outing.start, from - 11)
            // Session time 0 is the outing's start, and its metadata places it in UTC.
            let reader = try SessionReader(path: o.path)
            XCTAssertEqual(reader.summary?.analysis?.strokes, o.strokes.count)
            XCTAssertEqual(try XCTUnwrap(reader.summary?.statistics.firstTime), 0, accuracy: 0.011)
        }
        // The first outing ends `idle` after its last stroke (±1 s), the second with the data.
        let firstEnd = try XCTUnwrap(SessionReader(path: outings[0].path).summary?.statistics.lastTime) + outings[0].outing.start
        let lastStroke = try XCTUnwrap(outings[0].strokes.last?.stroke.catchTime) + outings[0].outing.start
        XCTAssertEqual(firstEnd, lastStroke + 120, accuracy: 1)
        let secondEnd = try XCTUnwrap(SessionReader(path: outings[1].path).summary?.statistics.lastTime) + outings[1].outing.start
        XCTAssertEqual(secondEnd, 540, accuracy: 0.05)
        // Both are in the data directory, newest first.
        let listed = try SessionDirectory(path: directory + "/sessions").list()
        XCTAssertEqual(listed.map { $0.metadata?.title }, ["auto 2", "auto 1"])
    }

    func testAShortRestStaysInOneSession() throws {
        let (outings, simulator) = try record(profile: "90:24,60:rest,90:24", duration: 240, idle: 120)
        XCTAssertEqual(outings.count, 1)
        let o = try XCTUnwrap(outings.first)
        XCTAssertEqual(Double(o.strokes.count), Double(simulator.groundTruth.strokeCount), accuracy: 3)
        XCTAssertEqual(try XCTUnwrap(o.summary.elapsed) + o.outing.start, 240, accuracy: 0.05)
    }

    func testNoRowingNoSession() throws {
        let (outings, _) = try record(profile: "200:rest", duration: 200, idle: 60)
        XCTAssertTrue(outings.isEmpty)
        XCTAssertTrue(try SessionDirectory(path: directory + "/sessions").list().isEmpty)
    }
}
