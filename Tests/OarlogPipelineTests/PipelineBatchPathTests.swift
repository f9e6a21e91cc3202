import Foundation
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
import OarlogTrace
import XCTest

/// Collects what the pipeline concluded, and every raw record a sink was handed.
final class EverythingSink: PipelineSink {
    var strokes: [StrokeMetrics] = []
    var accelCount = 0
    var otherRecords = 0
    var wantsRawRecords: Bool { true }
    func receive(_ event: PipelineEvent) {
        switch event {
        case .analysis(.stroke(let m)): strokes.append(m)
        case .record(.accel): accelCount += 1
        case .record: otherRecords += 1
        default: break
        }
    }
}

/// A replay as fast as possible reads accelerometer rows in batches; it must conclude exactly
/// what the record-by-record path concludes.
final class PipelineBatchPathTests: XCTestCase {
    func testBatchedReplayEqualsRecordByRecord() throws {
        let path = NSTemporaryDirectory() + "oarlog-batch-\(getpid()).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = SimulationConfiguration(minutes: 4, rate: 26)
        configuration.accelRate = 100
        configuration.mounting = try Mounting.parse("tilted")
        var simulator = try BoatSimulator(configuration: configuration)
        var writer = try TraceWriter(path: path, metadata: [])
        while let record = try simulator.next() { try writer.write(record) }
        try writer.close()

        func run(_ pacing: Pacing) throws -> (SessionSummary, EverythingSink, Int) {
            var reader = try NativeTraceReader(path: path)
            let sink = EverythingSink()
            var pipeline = Pipeline(sinks: [sink], pacing: pacing)
            let summary = try pipeline.run(&reader)
            return (summary, sink, pipeline.recordCount)
        }
        let (fastSummary, fast, fastCount) = try run(.asFastAsPossible)
        // A pace so fast it never waits, but record by record.
        let (slowSummary, slow, slowCount) = try run(.clock(speed: 1e12))
        XCTAssertEqual(fastSummary, slowSummary)
        XCTAssertEqual(fast.strokes, slow.strokes)
        XCTAssertEqual(fast.accelCount, slow.accelCount)
        XCTAssertEqual(fast.otherRecords, slow.otherRecords)
        XCTAssertEqual(fastCount, slowCount)
        XCTAssertEqual(fast.accelCount, 4 * 60 * 100)
        XCTAssertGreaterThan(fast.strokes.count, 95)
    }
}
