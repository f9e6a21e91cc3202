import Foundation
@testable import OarlogApp
import OarlogCore
import OarlogSession
import OarlogTestSupport
import XCTest

/// Heart rate and the oarlock's power per workout interval and per piece of a kept session: the
/// NK LiNK sample rowed as 3 × 5:00 / 2:00 rest, checked against the means of the CSV's stroke rows
/// that fall within each piece (read by the test itself).
final class HeartRatePiecesTests: XCTestCase {
    func testEachPieceHasItsRowsHeartRateAndPower() throws {
        let sessions = TemporarySessions()
        defer { sessions.remove() }
        let path = try samplePath("rowingdata/nk_logbook.csv")
        var replay = try TraceReplay(path: path)
        replay.workout = try WorkoutSpec.parse("3x5:00/2:00r")
        let writer = try SessionSaving.replayWriter(for: replay.input, title: "NK", settings: replay.settings,
                                                    directory: sessions.directory)
        let collected = WorkoutCollector()
        _ = try replay.run(sinks: [collected], saveTo: writer)
        XCTAssertEqual(collected.intervals.count, 5)

        // The rows: (seconds, heart rate, power) of each stroke row (type 0).
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let type = header.firstIndex(of: "type")!, elapsed = header.firstIndex(of: "elapsedTime")!
        let heartRate = header.firstIndex(of: "heartRate")!
        // `power` comes after the quoted column (which holds commas): count it from the end.
        let powerFromEnd = header.count - header.lastIndex(of: "power")!
        let rows: [(t: Double, bpm: Double, power: Double?)] = lines.dropFirst().compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f[type] == "0" else { return nil }
            return (Double(f[elapsed])! / 1000, Double(f[heartRate])!, Double(f[f.count - powerFromEnd]))
        }

        let reader = try SessionReader(path: writer.path)
        let pieces = try SessionPieces.read(reader, strokes: try reader.strokes())
        XCTAssertEqual(pieces.kind, .workout)
        XCTAssertEqual(pieces.pieces.count, 5)
        for (k, piece) in pieces.pieces.enumerated() {
            let inside = rows.filter { $0.t >= piece.start && $0.t < piece.end }
            let power = inside.compactMap(\.power)
            let device = try XCTUnwrap(piece.device, "piece \(k)")
            XCTAssertEqual(device.averageHeartRate ?? 0, inside.map(\.bpm).reduce(0, +) / Double(inside.count), accuracy: 1e-9)
            XCTAssertEqual(device.maxHeartRate, inside.map(\.bpm).max())
            XCTAssertEqual(device.oarlock.averagePower ?? 0, power.reduce(0, +) / Double(power.count), accuracy: 1e-3)
            // The replay's interval (its start taken at the first record on or after the boundary):
            // the same rows but perhaps one at either end.
            let interval = collected.intervals[k]
            let live = try XCTUnwrap(collected.deviceFigures[interval.stepIndex])
            XCTAssertEqual(live.averageHeartRate ?? 0, device.averageHeartRate ?? -1, accuracy: 1, "interval \(k)")
            XCTAssertEqual(live.oarlock.averagePower ?? 0, device.oarlock.averagePower ?? -1, accuracy: 3, "interval \(k)")
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(pieces.json().utf8)) as? [String: Any])
        let first = try XCTUnwrap((json["pieces"] as? [[String: Any]])?.first)
        XCTAssertNotNil(first["avg_heart_rate_bpm"] as? Double)
        XCTAssertNotNil(first["avg_power_w"] as? Double)
        XCTAssertNotNil(first["avg_catch_angle_deg"] as? Double)
        XCTAssertNil(first["heart_rate_sensors"], "one strap: no per-strap list")
    }
}
