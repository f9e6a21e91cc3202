import Foundation
import OarlogFleet
import OarlogTestSupport
import XCTest

/// Every input the `fleet-message` fuzzer found a trap with (`Fuzz/regressions/fleet-message/`,
/// docs/FUZZING.md): its first line the topic, the rest the payload, as a coach's board receives
/// them off the broker. Each must be refused or read, and what is read, written again, must read
/// back as the same message (the check that trapped). No command reads a broker message from a
/// file, so these are checked here rather than by `FuzzRegressionTests`.
final class FleetFuzzRegressionTests: XCTestCase {
    func testEveryFleetMessageFindingIsRefusedOrReadsBackAsItself() throws {
        let directory = TestPaths.packageRoot.appendingPathComponent("Fuzz/regressions/fleet-message")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertFalse(names.isEmpty, "Fuzz/regressions/fleet-message holds no inputs")
        let topics = try FleetTopics()
        var refused: Set<String> = []
        for name in names {
            let input = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            let parts = input.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
            let topic = String(decoding: parts.first ?? [], as: UTF8.self)
            let payload = Array(parts.count > 1 ? parts[1] : [])
            guard let (boat, kind) = topics.parse(topic), let m = try? SignalKDelta.message(boat: boat, kind: kind, payload: payload) else {
                refused.insert(name)
                continue
            }
            let again = try SignalKDelta.message(boat: boat, kind: kind, payload: SignalKDelta.payload(of: m))
            XCTAssertEqual(again, m, name)
        }
        // A peak acceleration of 1e62 m/s² (no Float holds it) is refused.
        XCTAssertTrue(refused.contains("peak-acceleration-1e62.txt"), "read: \(names.filter { !refused.contains($0) })")
    }
}
