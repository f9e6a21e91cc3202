import Foundation
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
import OarlogTrace
import XCTest

/// Writes down every event the pipeline hands on, in order, each as its full description (a
/// Double's description is its shortest exact form: two equal lists are the same bits).
final class EventLog: PipelineSink {
    var lines: [String] = []
    func receive(_ event: PipelineEvent) { lines.append(String(describing: event)) }
}

/// The mounting estimator run ahead on the parsing thread (`MountingLookahead`) gives the
/// analyzer exactly what its own estimator gives: the same events, bit for bit, on the batch
/// path and record by record, through the settling of the mounting, across a handover when
/// its ring is full, and up to a malformed line.
final class MountingLookaheadTests: XCTestCase {
    private var path = ""
    private var accelRows = 0

    override func setUpWithError() throws {
        path = NSTemporaryDirectory() + "oarlog-lookahead-\(getpid())-\(UUID().uuidString).csv"
        var configuration = SimulationConfiguration(minutes: 3, rate: 30)
        configuration.accelRate = 100
        configuration.mounting = try Mounting.parse("tilted")
        var simulator = try BoatSimulator(configuration: configuration)
        var writer = try TraceWriter(path: path, metadata: [])
        accelRows = 0
        while let record = try simulator.next() {
            if case .accel = record { accelRows += 1 }
            try writer.write(record)
        }
        try writer.close()
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: path) }

    /// The events of a run; `lookahead` (and a parse-ahead reader with small blocks) or the
    /// plain reader. Also the analyzer's mounting at the end, and the error if the run threw.
    func run(_ file: String, pacing: Pacing = .asFastAsPossible, lookahead: MountingLookahead? = nil)
        throws -> (events: [String], gravity: SIMD3<Double>?, axis: SIMD3<Double>?, error: String?) {
        let log = EventLog()
        var pipeline = Pipeline(sinks: [log], pacing: pacing)
        var thrown: String? = nil
        if let lookahead {
            var reader = try ParseAheadTraceReader(path: file, blockCount: 3, samplesPerBlock: 1000, recordsPerBlock: 64,
                                                   lookahead: lookahead)
            XCTAssertTrue(pipeline.analyzer.follow(lookahead))
            do { try pipeline.run(&reader) } catch { thrown = "\(error)" }
        } else {
            var reader = try NativeTraceReader(path: file)
            do { try pipeline.run(&reader) } catch { thrown = "\(error)" }
        }
        return (log.lines, pipeline.analyzer.mounting.gravity, pipeline.analyzer.mounting.surgeAxis, thrown)
    }

    func testSameEventsOnTheBatchPathAndRecordByRecord() throws {
        let plain = try run(path)
        XCTAssertNil(plain.error)
        XCTAssertGreaterThan(plain.events.filter { $0.hasPrefix("analysis(OarlogDSP.AnalyzerEvent.stroke") }.count, 80)
        for pacing in [Pacing.asFastAsPossible, .clock(speed: 1e12)] {
            let lookahead = MountingLookahead(configuration: MountingEstimatorConfiguration())
            let ahead = try run(path, pacing: pacing, lookahead: lookahead)
            XCTAssertEqual(ahead.events.count, plain.events.count, "\(pacing)")
            XCTAssertEqual(ahead.events, plain.events, "\(pacing)")
            XCTAssertEqual(ahead.gravity, plain.gravity)
            XCTAssertEqual(ahead.axis, plain.axis)
            XCTAssertNotNil(plain.axis)
            // It settled on the parsing thread, and was handed over only at the end.
            let marks = lookahead.landmarks
            XCTAssertNotNil(marks.settling)
            XCTAssertGreaterThan(marks.settling ?? 0, 100)
            XCTAssertEqual(marks.handover, accelRows)
        }
    }

    func testAFullRingHandsTheEstimatorOverAndChangesNothing() throws {
        let plain = try run(path)
        // 3 blocks of 1,000 samples and the pipeline's 4,096-sample batch run ahead of the
        // analysis: a ring of 2,048 is found full early on.
        let lookahead = MountingLookahead(configuration: MountingEstimatorConfiguration(), capacity: 2048)
        XCTAssertEqual(lookahead.capacity, 2048)
        let ahead = try run(path, lookahead: lookahead)
        let handover = try XCTUnwrap(lookahead.landmarks.handover)
        XCTAssertLessThan(handover, accelRows)
        XCTAssertEqual(ahead.events, plain.events)
        XCTAssertEqual(ahead.axis, plain.axis)
    }

    func testAMalformedLineStopsBothAtTheSamePlaceWithTheSameEvents() throws {
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let bad = lines.count * 2 / 3
        lines[bad] = "12.5,accel,1.0,oops,9.8"
        let damaged = path + ".damaged.csv"
        defer { try? FileManager.default.removeItem(atPath: damaged) }
        try lines.joined(separator: "\n").write(toFile: damaged, atomically: true, encoding: .utf8)
        let plain = try run(damaged)
        let ahead = try run(damaged, lookahead: MountingLookahead(configuration: MountingEstimatorConfiguration()))
        let error = try XCTUnwrap(plain.error)
        XCTAssertTrue(error.contains(":\(bad + 1):"), error)  // file:line:column
        XCTAssertEqual(ahead.error, plain.error)
        XCTAssertEqual(ahead.events, plain.events)
        XCTAssertGreaterThan(plain.events.count, 1000)
    }

    func testTheAnalyzerFollowsOnlyALookaheadItCanUse() throws {
        // Not fed by a parsing thread.
        var analyzer = RowingAnalyzer()
        XCTAssertFalse(analyzer.follow(MountingLookahead(configuration: MountingEstimatorConfiguration())))
        // Another mounting configuration than the analyzer's.
        let other = MountingLookahead(configuration: MountingEstimatorConfiguration(axis: .fixed(SIMD3(1, 0, 0))))
        XCTAssertTrue(other.attach())
        XCTAssertFalse(other.attach(), "a lookahead follows one trace")
        XCTAssertFalse(analyzer.follow(other))
        // Strokes from the device: no estimator to run.
        var configuration = AnalyzerConfiguration()
        configuration.strokeSource = .reference
        var byDevice = RowingAnalyzer(configuration: configuration)
        let same = MountingLookahead(configuration: MountingEstimatorConfiguration())
        XCTAssertTrue(same.attach())
        XCTAssertFalse(byDevice.follow(same))
        XCTAssertTrue(analyzer.follow(same))
        same.end()
    }
}
