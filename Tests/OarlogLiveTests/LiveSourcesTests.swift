import Foundation
import OarlogCore
import OarlogLive
import XCTest

/// A device stand-in: a thread that delivers `count` records `interval` apart, then ends.
final class TimedSource: LiveRecordSource, @unchecked Sendable {
    let queue = RecordQueue<TraceRecord>(capacity: 64)
    let make: (Int) -> TraceRecord
    let count: Int
    let interval: Double
    init(count: Int, interval: Double, make: @escaping (Int) -> TraceRecord) {
        self.count = count
        self.interval = interval
        self.make = make
    }
    func start() {
        Thread { [self] in
            for i in 0..<count {
                if queue.isFinished { return }
                Thread.sleep(forTimeInterval: interval)
                if !queue.push(make(i)) { return }
            }
            queue.close()
        }.start()
    }
    func stop() { queue.close() }
    func next() throws -> TraceRecord? { queue.pop() }
}

final class LiveSourcesTests: XCTestCase {
    func testEveryRecordOfEverySourceArrivesAndTheStreamEnds() throws {
        let accel = TimedSource(count: 200, interval: 0.001) { .accel(AccelSample(time: Double($0) * 0.01, x: 0, y: 0, z: 9.8)) }
        let gps = TimedSource(count: 5, interval: 0.02) { .fix(GPSFix(time: Double($0), latitude: 51, longitude: 0)) }
        let live = LiveSources([accel, gps])
        live.start()
        XCTAssertTrue(live.inject(.note(Note(time: 0.5, text: "easy"))))
        var accelCount = 0, fixCount = 0, notes = 0
        while let record = try live.next() {
            switch record {
            case .accel: accelCount += 1
            case .fix: fixCount += 1
            case .note: notes += 1
            default: XCTFail("unexpected \(record)")
            }
        }
        XCTAssertEqual(accelCount, 200)
        XCTAssertEqual(fixCount, 5)
        XCTAssertEqual(notes, 1)
    }

    func testASilentSourceDoesNotHoldTheOtherBack() throws {
        // The GPS gives nothing (gpsd down); accelerometer records still flow at once.
        let accel = TimedSource(count: 50, interval: 0.001) { .accel(AccelSample(time: Double($0) * 0.01, x: 0, y: 0, z: 9.8)) }
        let silent = TimedSource(count: 1, interval: 30) { .fix(GPSFix(time: Double($0), latitude: 51, longitude: 0)) }
        let live = LiveSources([accel, silent])
        live.start()
        var received = 0
        while received < 50, let record = try live.next() {
            if case .accel = record { received += 1 }
        }
        XCTAssertEqual(received, 50)
        live.stop()
        // After stop, the stream ends promptly even though the silent source never delivered.
        let start = Date()
        while try live.next() != nil {}
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }
}
