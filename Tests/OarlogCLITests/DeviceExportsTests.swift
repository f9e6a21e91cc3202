import Foundation
import OarlogTestSupport
import XCTest

/// Issue 31's table: every real export a club brings from another device or app (rowingdata's
/// testdata, Tests/OarlogTraceTests/Fixtures/devices) replays with `oarlog replay FILE --json` as a
/// person runs it: exit 0, a distance within 2 % of the file's own total (the GPS total where the
/// device measured by GPS, the impeller's where its speed input was the impeller), strokes equal to
/// the device's count where it has one, heart rate where the file has it. The expected figures are
/// the files' own, read by eye from their summaries (not computed by the readers under test).
final class DeviceExportsTests: XCTestCase {
    struct Expected {
        var file: String
        /// The file's own total distance, metres.
        var distance: Double
        /// The device's stroke count, where it has one.
        var strokes: Int?
        /// The file has heart rates.
        var heartRate: Bool
        /// Where the total comes from (for the failure message).
        var source: String
    }

    static let table: [Expected] = [
        .init(file: "Speedcoach2example.csv", distance: 751.6, strokes: 94, heartRate: true, source: "Session Summary, Total Distance"),
        .init(file: "speedcoach2test2.csv", distance: 2440.3, strokes: 259, heartRate: true, source: "Session Summary"),
        .init(file: "speedcoach3test3.csv", distance: 1111.5, strokes: 144, heartRate: true, source: "Session Summary"),
        .init(file: "SpeedCoach GPS Workout.csv", distance: 14002.0, strokes: 1301, heartRate: true, source: "Session Summary"),
        .init(file: "spdcoach2noheader.csv", distance: 2373.1, strokes: 255, heartRate: false, source: "summary table, Total Distance (GPS)"),
        .init(file: "NKEmporfromgreg.csv", distance: 5000.2, strokes: 577, heartRate: true, source: "Session Summary (impeller)"),
        .init(file: "impeller_empower.csv", distance: 8000, strokes: 1107, heartRate: true, source: "Session Summary, Total Distance (IMP) 8.000 km"),
        .init(file: "SpdCoachAmbiguous.csv", distance: 10630.6, strokes: 1155, heartRate: true, source: "Session Summary, Total Distance (GPS)"),
        .init(file: "SpeedCoach2v2.12.csv", distance: 1000.5, strokes: 106, heartRate: false, source: "Session Summary, Total Distance (GPS)"),
        .init(file: "SpdCoach2_imp_inconsistent.csv", distance: 7344.6, strokes: 692, heartRate: true, source: "Session Summary, Total Distance (GPS)"),
        .init(file: "speedcoachexample.csv", distance: 9520, strokes: 1121, heartRate: true, source: "last row: Distance(m), Stroke"),
        .init(file: "boatcoach_otw.csv", distance: 13188, strokes: 1359, heartRate: false, source: "last row: Cumulative Distance(m), Cumulative Stroke Count"),
        .init(file: "coxmate.csv", distance: 1005.56, strokes: nil, heartRate: false, source: "last row: Distance (the first of its 147 rows is the recording's start, 0.08 s before the first catch)"),
        .init(file: "crewnerddata.tcx", distance: 10219, strokes: nil, heartRate: true, source: "the laps' DistanceMeters, 1877 + 6000 + 2342"),
        .init(file: "3x250m.tcx", distance: 750.29, strokes: nil, heartRate: true, source: "last trackpoint's DistanceMeters"),
        .init(file: "2x2km.tcx", distance: 9474.22, strokes: nil, heartRate: false, source: "last trackpoint's DistanceMeters"),
        .init(file: "rowinginmotionexample.TCX", distance: 13368.85, strokes: nil, heartRate: true, source: "last trackpoint's DistanceMeters"),
        .init(file: "3x250m.fit", distance: 751.65, strokes: nil, heartRate: true, source: "session total_distance"),
    ]

    static let devices = TestPaths.packageRoot.appendingPathComponent("Tests/OarlogTraceTests/Fixtures/devices")

    func replayJSON(_ file: String) throws -> (status: Int32, json: [String: Any]?, err: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-devices-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try runOarlog(["replay", Self.devices.appendingPathComponent(file).path, "--json"], dataDirectory: dir.path)
        let json = try? JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        return (run.status, json, run.err)
    }

    func testEveryDevicesExportReplays() throws {
        var failures: [String] = []
        for e in Self.table {
            let (status, json, err) = try replayJSON(e.file)
            guard status == 0, let json else { failures.append("\(e.file): exit \(status): \(err)"); continue }
            let distance = json["distance_m"] as? Double
            if let d = distance {
                if abs(d - e.distance) / e.distance > 0.02 {
                    failures.append("\(e.file): distance \(d) m against the file's \(e.distance) m (\(e.source)): beyond 2 %")
                }
            } else {
                failures.append("\(e.file): no distance")
            }
            if let strokes = e.strokes, json["strokes"] as? Int != strokes {
                failures.append("\(e.file): \(json["strokes"] ?? "none") strokes against the device's \(strokes)")
            }
            let heartRate = json["avg_heart_rate_bpm"] as? Double
            if e.heartRate != (heartRate != nil) {
                failures.append("\(e.file): heart rate \(heartRate.map { "\($0)" } ?? "none"), the file \(e.heartRate ? "has" : "has none")")
            }
        }
        XCTAssert(failures.isEmpty, failures.joined(separator: "\n"))
    }

    func testASummaryOnlyExportIsRefusedNamingWhatItLacks() throws {
        let (status, _, err) = try replayJSON("crewnerddata.CSV")
        XCTAssertNotEqual(status, 0)
        let lines = err.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, err)
        XCTAssertTrue(err.contains("crewnerddata.CSV"), err)
        XCTAssertTrue(err.contains("no strokes") && err.contains("no positions"), err)
        XCTAssertTrue(err.contains("TCX"), "names the export to use instead: \(err)")
    }
}
