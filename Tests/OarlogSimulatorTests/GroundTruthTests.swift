import Foundation
import OarlogCore
@testable import OarlogSimulator
import OarlogTestSupport
import XCTest

final class GroundTruthTests: XCTestCase {
    func testWriterStreamsTheTruthAndTheFileReadsBack() throws {
        var configuration = SimulationConfiguration(minutes: 3, rate: 26)
        configuration.accelRate = 50
        let reference = try simulate(configuration, keepBoatFrames: false).truth

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-sim-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tracePath = directory.appendingPathComponent("sim.csv").path
        let truthPath = GroundTruthWriter.truthPath(forTracePath: tracePath)
        XCTAssertEqual(truthPath, directory.appendingPathComponent("sim.truth.csv").path)

        // Streaming: keep only a small window, write after every record.
        var simulator = try BoatSimulator(configuration: configuration, truthRetention: .recent(4))
        var writer = try GroundTruthWriter(path: truthPath, metadata: configuration.metadata)
        while try simulator.next() != nil {
            try writer.writeNew(from: simulator.groundTruth)
            XCTAssertLessThanOrEqual(simulator.groundTruth.strokes.count, 4)
        }
        try writer.finish(truth: simulator.groundTruth)

        let text = try String(contentsOfFile: truthPath, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# oarlog-truth: 1\n# start_utc: 2026-05-02T07:00:00.000Z\n"))
        XCTAssertTrue(text.contains("\nkind,index,catch_t,rate_spm,drive_s,recovery_s,distance_m,"))
        let file = try GroundTruthFile.read(path: truthPath)
        XCTAssertEqual(file.metadata["seed"], "1")
        XCTAssertEqual(file.totalStrokes, reference.strokeCount)
        XCTAssertEqual(file.totalDistance!, reference.distance, accuracy: 0.0005)
        XCTAssertEqual(file.duration!, 180, accuracy: 1e-9)
        XCTAssertEqual(file.strokes.count, reference.strokes.count)
        for (read, truth) in zip(file.strokes, reference.strokes) {
            XCTAssertEqual(read.index, truth.index)
            XCTAssertEqual(read.catchTime, truth.catchTime, accuracy: 5e-7)
            XCTAssertEqual(read.strokeRate == nil, truth.strokeRate == nil)
            if let r = read.strokeRate, let t = truth.strokeRate { XCTAssertEqual(r, t, accuracy: 5e-4) }
            XCTAssertEqual(read.driveDuration, truth.driveDuration, accuracy: 5e-5)
            XCTAssertEqual(read.recoveryDuration == nil, truth.recoveryDuration == nil)
            XCTAssertEqual(read.distance, truth.distance, accuracy: 5e-4)
            XCTAssertEqual(read.catchAcceleration, truth.catchAcceleration, accuracy: 5e-4)
        }
    }

    func testWriterRefusesToSkipStrokesThatLeftTheWindow() throws {
        var configuration = SimulationConfiguration(minutes: 1, rate: 30)
        configuration.accelRate = 25
        var simulator = try BoatSimulator(configuration: configuration, truthRetention: .recent(2))
        while try simulator.next() != nil {}
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-skip-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var writer = try GroundTruthWriter(path: path, metadata: [])
        XCTAssertThrowsError(try writer.finish(truth: simulator.groundTruth))
        try writer.close()
    }

    func testParserRejectsBadRows() {
        XCTAssertThrowsError(try GroundTruthFile.parse("stroke,1,abc,,0.9,1.6,0\n"))
        XCTAssertThrowsError(try GroundTruthFile.parse("lap,1\n"))
        let minimal = try? GroundTruthFile.parse("stroke,1,0.5,,0.9,,0.0\ntotal,1,3.0\n")
        XCTAssertEqual(minimal?.strokes.first?.catchTime, 0.5)
        XCTAssertNil(minimal?.strokes.first?.recoveryDuration)
        XCTAssertEqual(minimal?.totalDistance, 3.0)
    }

    /// Ten hours of workouts stream in bounded memory: the truth keeps a window, nothing else
    /// grows (resident memory measured from /proc).
    func testTenHourSessionStreamsInBoundedMemory() throws {
        let duration = 10 * 3600.0
        var configuration = SimulationConfiguration(duration: duration, profile: .workout(duration: duration))
        configuration.accelRate = 25
        configuration.gpsRate = 1
        var simulator = try BoatSimulator(configuration: configuration, truthRetention: .recent(16))
        var records = 0
        var lastFixTime = 0.0
        var residentAtOneHour = 0
        while let record = try simulator.next() {
            records += 1
            if case .fix(let fix) = record {
                lastFixTime = fix.time
                if residentAtOneHour == 0 && fix.time >= 3600 { residentAtOneHour = ProcessMemory.residentBytes() }
            }
        }
        let residentAtEnd = ProcessMemory.residentBytes()
        let truth = simulator.groundTruth
        XCTAssertTrue(truth.isComplete)
        XCTAssertEqual(truth.strokes.count, 16)
        // The workout rests about a third of the time: about 9,500 strokes in 10 h.
        XCTAssertGreaterThan(truth.strokeCount, 8_000)
        XCTAssertGreaterThan(lastFixTime, duration - 30)
        XCTAssertGreaterThan(records, Int(duration * 25))
        // 9 more hours of simulation may not cost more than a few MB of resident memory.
        XCTAssertLessThan(residentAtEnd - residentAtOneHour, 8 << 20, "resident memory grew")
    }
}
