import Foundation
import OarlogCore
import OarlogFences
import OarlogPipeline
@testable import OarlogSession
import XCTest

/// Geofence and gate events that reach the session writer are recorded as session events and
/// read back with their fields.
final class SessionFenceEventTests: XCTestCase {
    func testFenceEventsAreRecordedAsSessionEvents() throws {
        let directory = try makeTemporaryDirectory("oarlog-fence-events")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/f.oarlog"
        let gate = FenceID(index: 2, name: "500m mark")
        let dock = FenceID(index: 0, name: "Dock")
        let crossing = GateCrossing(gate: gate, time: 123.25, position: GeoPoint(latitude: 51.5, longitude: -0.22),
                                    speed: 4.5, heading: 92, wrongWay: true, fixInterval: 1)
        let events: [FenceEvent] = [
            .enter(fence: dock, time: 3.5),
            .cross(crossing),
            .exit(fence: dock, time: 130, timeInside: 126.5),
            .rejectedCrossing(RejectedCrossing(gate: gate, after: 140, before: 152, reason: .gap(12))),
            .courseProblem(.missedGate(gate: gate, time: 160)),
        ]
        let writer = try SessionWriter(path: path, metadata: testMetadata(), options: .init(durability: .never))
        try writer.receive(.record(.accel(AccelSample(time: 0, x: 0, y: 0, z: 9.8))))
        for e in events { try writer.receive(.fence(e)) }
        try writer.close()

        let reader = try SessionReader(path: path)
        XCTAssertEqual(reader.summary?.statistics.events, events.count)
        var it = reader.entries()
        var read: [SessionEvent] = []
        while let entry = try it.next() { if case .event(let e) = entry { read.append(e) } }
        XCTAssertEqual(read.map(\.name), ["fence.enter", "fence.cross", "fence.exit", "fence.rejected_crossing", "course.missed_gate"])
        XCTAssertEqual(read.map(\.time), [3.5, 123.25, 130, 152, 160])
        XCTAssertEqual(read[0].field("fence"), "Dock")
        XCTAssertEqual(read[1].field("gate"), "500m mark")
        XCTAssertEqual(read[1].field("speed_mps"), "4.5")
        XCTAssertEqual(read[1].field("wrong_way"), "true")
        XCTAssertEqual(read[1].field("lat_deg").flatMap(Double.init), 51.5)
        XCTAssertEqual(read[2].field("time_inside_s"), "126.5")
        XCTAssertEqual(read[3].field("reason"), "gap")
        XCTAssertEqual(read[3].field("gap_s"), "12.0")
        XCTAssertEqual(read, events.map(SessionEvent.init))
    }
}
