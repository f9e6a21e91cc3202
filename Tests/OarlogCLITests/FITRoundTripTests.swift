import Foundation
import OarlogTestSupport
import XCTest

/// FIT files through the built `oarlog` as a person runs it: Oarlog's own FIT export decoded
/// back (`oarlog fit`) against the TCX export of the same session (an independent text encoding
/// of the same points), replayed; NK's 3×250 m outing replayed; Garmin's own SDK agreeing with
/// the decoder field by field (scripts/fit-compare.py) where it is installed.
final class FITRoundTripTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-fit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    func oarlog(_ arguments: String...) throws -> CommandRun {
        try runOarlog(arguments, dataDirectory: directory.path)
    }

    static let nkFixture = "Tests/OarlogTraceTests/Fixtures/devices/3x250m.fit"
    /// FIT's epoch, 1989-12-31T00:00:00Z, in seconds since 1970.
    static let fitEpoch = 631_065_600.0

    /// The `fields` of each message of `kind` that `oarlog fit` prints.
    func messages(_ run: CommandRun, _ kind: String) throws -> [[String: Any]] {
        try run.out.split(separator: "\n").compactMap { line in
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["message"] as? String == kind ? object["fields"] as? [String: Any] : nil
        }
    }

    /// The TCX export's trackpoints: time, latitude, longitude, distance, speed.
    func trackpoints(_ path: String) throws -> [(t: Double, lat: Double, lon: Double, d: Double, v: Double?)] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try text.components(separatedBy: "<Trackpoint>").dropFirst().map { point in
            func value(_ tag: String) -> String? {
                point.components(separatedBy: "<\(tag)>").dropFirst().first.map { String($0.prefix { $0 != "<" }) }
            }
            let t = try XCTUnwrap(value("Time").flatMap { iso.date(from: $0) }).timeIntervalSince1970
            return (t, try XCTUnwrap(value("LatitudeDegrees").flatMap(Double.init)),
                    try XCTUnwrap(value("LongitudeDegrees").flatMap(Double.init)),
                    try XCTUnwrap(value("DistanceMeters").flatMap(Double.init)), value("ns3:Speed").flatMap(Double.init))
        }
    }

    /// Every record of the FIT export is the TCX export's trackpoint within FIT's resolution:
    /// time in whole seconds (rounded down; the TCX has milliseconds), position 2⁻³¹ × 180°
    /// (the TCX 1e-7°), distance 0.01 m, speed 0.001 m/s (both as the TCX writes them).
    func testOwnFITExportReadsBackAsWritten() throws {
        let fit = directory.appendingPathComponent("x.fit").path, tcx = directory.appendingPathComponent("x.tcx").path
        for (format, path) in [("fit", fit), ("tcx", tcx)] {
            let run = try oarlog("export", "samples/rowingdata/nk_logbook.csv", "--format", format, "-o", path)
            XCTAssertEqual(run.status, 0, run.err)
        }
        let decoded = try oarlog("fit", fit)
        XCTAssertEqual(decoded.status, 0, decoded.err)
        let records = try messages(decoded, "record")
        let points = try trackpoints(tcx)
        XCTAssertGreaterThan(points.count, 1000)
        XCTAssertEqual(records.count, points.count)
        let degreesPerSemicircle = 180 / 2_147_483_648.0
        for (k, (r, p)) in zip(records, points).enumerated() {
            let t = try XCTUnwrap(r["timestamp"] as? Double) + Self.fitEpoch
            XCTAssertTrue(t - 0.0005 <= p.t && p.t < t + 1.0005, "record \(k): FIT \(t), TCX \(p.t)")
            let lat = try XCTUnwrap(r["position_lat"] as? Double) * degreesPerSemicircle
            let lon = try XCTUnwrap(r["position_long"] as? Double) * degreesPerSemicircle
            XCTAssertEqual(lat, p.lat, accuracy: 0.5e-7 + degreesPerSemicircle, "record \(k)")
            XCTAssertEqual(lon, p.lon, accuracy: 0.5e-7 + degreesPerSemicircle, "record \(k)")
            XCTAssertEqual(try XCTUnwrap(r["distance"] as? Double), p.d, accuracy: 0.0100001, "record \(k)")
            if let v = p.v { XCTAssertEqual(try XCTUnwrap(r["speed"] as? Double), v, accuracy: 0.0010001, "record \(k)") }
        }
        let session = try XCTUnwrap(try messages(decoded, "session").first)
        XCTAssertEqual(session["sport"] as? Int, 15)
        XCTAssertEqual(try XCTUnwrap(session["total_distance"] as? Double), try XCTUnwrap(points.last?.d), accuracy: 0.0100001)
    }

    /// Replaying the FIT export gives what replaying its source gave: the same fixes, the same
    /// distance to the FIT's resolution (whole seconds), the same stroke count in its session.
    func testReplayOfOwnFITExportMatchesItsSource() throws {
        let fit = directory.appendingPathComponent("x.fit").path
        XCTAssertEqual(try oarlog("export", "samples/rowingdata/nk_logbook.csv", "--format", "fit", "-o", fit).status, 0)
        func replay(_ path: String) throws -> [String: Any] {
            let run = try oarlog("replay", path, "--json")
            XCTAssertEqual(run.status, 0, run.err)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        }
        let source = try replay("samples/rowingdata/nk_logbook.csv"), back = try replay(fit)
        XCTAssertEqual(back["gps_fixes"] as? Int, source["gps_fixes"] as? Int)
        let d = try XCTUnwrap(source["distance_m"] as? Double)
        XCTAssertEqual(try XCTUnwrap(back["distance_m"] as? Double), d, accuracy: d * 0.001)
        let session = try XCTUnwrap(try messages(try oarlog("fit", fit, "--message", "session"), "session").first)
        XCTAssertEqual(session["total_cycles"] as? Int, source["strokes"] as? Int)
    }

    /// NK's outing: the device's laps and session, and the replay. The device records once a stroke
    /// and nothing in the rests: the pauses are cut out (a second of each kept), the track is not
    /// joined across them (a GPS gap that breaks the track), and each lap's own start and end
    /// positions complete it; the replay is then within 2 % of the device's 751.65 m (point to
    /// point within the laps, lap ends included: 750.8 m), with the device's 94 strokes.
    func testNK3x250mThroughTheCommandLine() throws {
        let laps = try messages(try oarlog("fit", Self.nkFixture, "--message", "lap"), "lap")
        let distances = laps.compactMap { $0["total_distance"] as? Double }
        XCTAssertEqual(distances.count, 3)
        XCTAssertEqual(distances.reduce(0, +), 751.65, accuracy: 0.005)
        let session = try XCTUnwrap(try messages(try oarlog("fit", Self.nkFixture, "--message", "session"), "session").first)
        XCTAssertEqual(try XCTUnwrap(session["total_distance"] as? Double), 751.65, accuracy: 0.005)
        let run = try oarlog("replay", Self.nkFixture, "--json")
        XCTAssertEqual(run.status, 0, run.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        XCTAssertEqual(object["gps_fixes"] as? Int, 94 + 3, "the records and each lap's start")
        XCTAssertEqual(object["notes"] as? Int, 3)
        XCTAssertEqual(object["gaps"] as? Int, 2, "the two rests, not joined")
        XCTAssertEqual(object["strokes"] as? Int, 94)
        let distance = try XCTUnwrap(object["distance_m"] as? Double)
        XCTAssertEqual(distance, 751.65, accuracy: 751.65 * 0.02)
        XCTAssertEqual(try XCTUnwrap(object["elapsed_s"] as? Double), 56.6 + 59.2 + 55.6, accuracy: 3, "the three laps")
    }

    func testDamagedFITIsRefusedNamingTheByte() throws {
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: TestPaths.packageRoot.appendingPathComponent(Self.nkFixture).path))
        bytes[100] ^= 0x10
        let path = directory.appendingPathComponent("damaged.fit").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: bytes))
        for command in ["fit", "replay"] {
            let run = try oarlog(command, path)
            XCTAssertNotEqual(run.status, 0)
            XCTAssertTrue(run.err.contains("at byte \(bytes.count - 2): file CRC mismatch"), run.err)
        }
    }

    /// Garmin's FIT SDK for Python and `oarlog fit` agree on every record, lap, session and
    /// file_id field of NK's file and of Oarlog's own export.
    func testGarminSDKAgrees() throws {
        let python = try? findExecutable("python3")
        guard let python, try ChildProcess.run(python, ["-c", "import garmin_fit_sdk"]).status == 0 else {
            throw XCTSkip("Garmin's FIT SDK for Python is not installed (pip install garmin-fit-sdk): the comparison is not run")
        }
        let fit = directory.appendingPathComponent("x.fit").path
        XCTAssertEqual(try oarlog("export", "samples/rowingdata/nk_logbook.csv", "--format", "fit", "-o", fit).status, 0)
        for file in [Self.nkFixture, fit] {
            let run = try ChildProcess.run(python, ["scripts/fit-compare.py", file, "--oarlog", try Binaries.oarlog()],
                                           in: TestPaths.packageRoot.path)
            XCTAssertEqual(run.status, 0, run.out + run.err)
            XCTAssertTrue(run.out.contains("agree on every field"), run.out)
        }
    }
}
