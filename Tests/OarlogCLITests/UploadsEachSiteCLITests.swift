import Foundation
import OarlogTestSupport
import XCTest

/// What each site receives of one kept session, through the built `oarlog` (accounts add, upload,
/// upload --pending): Strava's stand-in (Strava API v3: `POST /api/v3/uploads`, the upload polled
/// until processed) gets the FIT that Garmin's FIT SDK reads to the session's distance, time and
/// laps; the Concept2 logbook's (Logbook API v1: `POST /api/users/me/results`) a result of type
/// water in whole metres and tenths of a second, with a stroke for every stroke of the session.
final class UploadsEachSiteCLITests: XCTestCase {
    var root: URL!
    var data: URL { root.appendingPathComponent("data") }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-uploads-sites-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func oarlog(_ arguments: String...) throws -> CommandRun {
        let run = try runOarlog(arguments, dataDirectory: data.path)
        XCTAssertEqual(run.status, 0, "oarlog \(arguments.joined(separator: " ")): \(run.err)")
        return run
    }

    func secretFile(_ name: String, _ value: String) throws -> String {
        let url = root.appendingPathComponent(name)
        try Data((value + "\n").utf8).write(to: url)
        return url.path
    }

    /// The NK outing replayed and kept; its id and `show --json`.
    func keptSession() throws -> (id: String, show: [String: Any]) {
        let run = try oarlog("replay", "samples/rowingdata/nk_logbook.csv", "--save", "--boat", "W8+ Blue")
        let line = try XCTUnwrap(run.err.split(separator: "\n").first { $0.hasPrefix("saved as session ") })
        let id = String(line.dropFirst("saved as session ".count).split(separator: " ")[0])
        let show = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("show", id, "--json").out.utf8)) as? [String: Any])
        return (id, show)
    }

    func uploadState(_ service: String) throws -> [String: Any]? {
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("uploads", "--json").out.utf8)) as? [[String: Any]])
        return list.first { $0["service"] as? String == service }
    }

    func testStravaGetsTheFITAndConcept2TheResult() throws {
        let (id, show) = try keptSession()
        let distance = try XCTUnwrap(show["distance_m"] as? Double)
        let elapsed = try XCTUnwrap(show["elapsed_s"] as? Double)
        let strokes = try XCTUnwrap(show["strokes"] as? Int)

        // Strava: the upload is processed on the site's second poll; `--pending` polls it to its end.
        let strava = try TrainingSiteStandIn(service: "strava", store: root.appendingPathComponent("strava"),
                                             arguments: ["--client-id", "4242", "--client-secret", "s3cret", "--refresh-token", "r-1"])
        defer { strava.stop() }
        try oarlog("accounts", "add", "strava", "--client-id", "4242", "--client-secret-file", try secretFile("secret", "s3cret"),
                   "--refresh-token-file", try secretFile("refresh", "r-1"), "--url", strava.url)
        try oarlog("upload", id, "--to", "strava")
        var state = try uploadState("strava")?["state"] as? String
        for _ in 0..<20 where state != "done" {
            try oarlog("upload", "--pending")
            state = try uploadState("strava")?["state"] as? String
            if state != "done" { usleep(300_000) }
        }
        XCTAssertEqual(state, "done")
        let received = strava.received()
        XCTAssertEqual(received.count, 1)
        XCTAssertEqual(received.first?["external_id"] as? String, "oarlog-" + id)
        try UploadsCLITests.assertFIT(strava.file(of: try XCTUnwrap(received.first)).path, distance: distance, elapsed: elapsed)

        // The Concept2 logbook: the result in its own units.
        let concept2 = try TrainingSiteStandIn(service: "concept2", store: root.appendingPathComponent("concept2"),
                                               arguments: ["--client-id", "c2", "--client-secret", "c2-secret", "--refresh-token", "c2-r"])
        defer { concept2.stop() }
        try oarlog("accounts", "add", "concept2", "--client-id", "c2", "--client-secret-file", try secretFile("c2secret", "c2-secret"),
                   "--refresh-token-file", try secretFile("c2refresh", "c2-r"), "--url", concept2.url)
        try oarlog("upload", id, "--to", "concept2")
        XCTAssertEqual(try uploadState("concept2")?["state"] as? String, "done")
        let results = concept2.received()
        XCTAssertEqual(results.count, 1)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: concept2.file(of: try XCTUnwrap(results.first)))) as? [String: Any])
        XCTAssertEqual(result["type"] as? String, "water")
        XCTAssertEqual(result["distance"] as? Int, Int(distance.rounded()), "whole metres")
        XCTAssertEqual(result["time"] as? Int, Int((elapsed * 10).rounded()), "tenths of a second")
        let strokeData = try XCTUnwrap(result["stroke_data"] as? [[String: Any]])
        XCTAssertEqual(strokeData.count, strokes, "a stroke for every stroke")
        let times = strokeData.compactMap { $0["t"] as? Int }, metres = strokeData.compactMap { $0["d"] as? Int }
        XCTAssertEqual(times, times.sorted(), "stroke times in order")
        XCTAssertEqual(metres, metres.sorted(), "stroke distances never fall")
        XCTAssertLessThanOrEqual(try XCTUnwrap(metres.last), Int((distance * 10).rounded()) + 10, "decimetres, within the session")
        // Each stroke's heart rate is its NK row's (`show --json --strokes` gives them), in whole bpm;
        // the result's average is the session's.
        let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("show", id, "--json", "--strokes").out.utf8)) as? [String: Any])
        let rows = try XCTUnwrap(shown["stroke_list"] as? [[String: Any]])
        XCTAssertEqual(rows.count, strokeData.count)
        var withHeartRate = 0
        for (row, sent) in zip(rows, strokeData) {
            guard let bpm = row["heart_rate_bpm"] as? Double else { XCTAssertNil(sent["hr"]); continue }
            XCTAssertEqual(sent["hr"] as? Int, Int(bpm.rounded()))
            withHeartRate += 1
        }
        XCTAssertGreaterThan(withHeartRate, strokes * 9 / 10, "the NK rows carry a heart rate")
        let average = try XCTUnwrap(show["avg_heart_rate_bpm"] as? Double)
        XCTAssertEqual((result["heart_rate"] as? [String: Any])?["average"] as? Int, Int(average.rounded()))
    }
}
