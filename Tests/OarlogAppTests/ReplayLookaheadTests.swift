import Foundation
import OarlogApp
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
import OarlogTestSupport
import OarlogTrace
import XCTest

/// A replay of a long native trace runs the mounting estimator on the thread that parses it
/// (`MountingLookahead`), and concludes exactly what the same pipeline concludes from the plain
/// reader on one thread.
final class ReplayLookaheadTests: XCTestCase {
    final class Log: PipelineSink {
        var lines: [String] = []
        func receive(_ event: PipelineEvent) { lines.append(String(describing: event)) }
    }

    func testALongReplayProjectsOnTheParsingThreadAndConcludesTheSame() throws {
        let path = NSTemporaryDirectory() + "oarlog-long-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = SimulationConfiguration(minutes: 5, rate: 24)
        configuration.accelRate = 100
        configuration.mounting = try Mounting.parse("tilted")
        var simulator = try BoatSimulator(configuration: configuration)
        var writer = try TraceWriter(path: path, metadata: [])
        var accelRows = 0
        while let record = try simulator.next() {
            if case .accel = record { accelRows += 1 }
            try writer.write(record)
        }
        try writer.close()
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThanOrEqual(size, TraceOpener.parseAheadMinimumBytes, "long enough to be parsed ahead")

        var replay = try TraceReplay(path: path)
        let ahead = Log()
        let outcome = try replay.run(sinks: [ahead])
        let lookahead = try XCTUnwrap(replay.lookahead)
        XCTAssertTrue(lookahead.isAttached)
        XCTAssertEqual(lookahead.landmarks.handover, accelRows, "every sample projected on the parsing thread")
        XCTAssertNotNil(lookahead.landmarks.settling)

        var reader = try NativeTraceReader(path: path)
        let plain = Log()
        var pipeline = try RowingPipeline.make(settings: .defaults, sinks: [plain])
        let summary = try pipeline.run(&reader)
        XCTAssertEqual(ahead.lines, plain.lines)
        XCTAssertEqual(outcome.summary, summary)
        XCTAssertGreaterThan(summary.strokes, 100)
    }

    func testStrokesFromTheDeviceRunNoEstimatorAhead() throws {
        let path = NSTemporaryDirectory() + "oarlog-short-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "# oarlog-trace: 1\nt,kind,a,b,c\n0.00,accel,0.1,0.2,9.8\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(try TraceReplay(path: path, settings: AnalysisSettings(strokesFrom: "device")).lookahead)
        // A short trace is read on the caller's thread: the lookahead is never attached.
        let short = try TraceReplay(path: path)
        XCTAssertEqual(short.lookahead?.isAttached, false)
    }
}
