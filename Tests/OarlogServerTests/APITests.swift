import Foundation
import OarlogTestSupport
import XCTest

/// The HTTP API against `oarlog serve --replay samples/sim-workout.csv`: the same JSON as the
/// command line, the controls behind the token, bad input refused with the right status.
final class APITests: XCTestCase {
    /// A session saved from the CLI is listed by GET /api/sessions exactly as `oarlog sessions
    /// --json` lists it, and GET /api/sessions/ID is `oarlog show ID --json --strokes`.
    func testSessionsAreTheCommandLinesJSON() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-api-\(UUID().uuidString)")
        let saved = try oarlogCLI(["replay", "samples/sim-workout.csv", "--save", "--title", "Head race"], dataDirectory: data)
        XCTAssertEqual(saved.status, 0, saved.err)
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let list = try server.request("GET", "/api/sessions")
        XCTAssertEqual(list.status, 200)
        let cli = try oarlogCLI(["sessions", "--json"], dataDirectory: data)
        // The API names files, never where they are (docs/API.md, Limits): the CLI's paths as file names.
        let named = try XCTUnwrap(try jsonObject(cli.out) as? [[String: Any]]).map { row in
            row.merging(["path": URL(fileURLWithPath: row["path"] as? String ?? "").lastPathComponent]) { $1 }
        }
        XCTAssertEqual(try jsonObject(list.body) as? NSArray, named as NSArray)
        let array = try XCTUnwrap(try jsonObject(list.body) as? [[String: Any]])
        XCTAssertEqual(array.count, 1)
        let id = try XCTUnwrap(array.first?["id"] as? String)
        let one = try server.request("GET", "/api/sessions/\(id)")
        XCTAssertEqual(one.status, 200)
        let show = try oarlogCLI(["show", id, "--json", "--strokes"], dataDirectory: data)
        var shown = try XCTUnwrap(try jsonObject(show.out) as? [String: Any])
        shown["source"] = URL(fileURLWithPath: shown["source"] as? String ?? "").lastPathComponent
        XCTAssertEqual(try jsonObject(one.body) as? NSDictionary, shown as NSDictionary)
        let strokes = try XCTUnwrap((try jsonObject(one.body) as? [String: Any])?["stroke_list"] as? [Any])
        XCTAssertGreaterThan(strokes.count, 300)
    }

    /// The downloads (GPX, TCX, FIT, per-stroke CSV, GeoJSON) and the track are what `oarlog
    /// export ID --format F` writes, byte for byte, named ID.EXT; bad ids and formats are 404.
    func testDownloadsAreTheExportsByteForByte() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-api-\(UUID().uuidString)")
        let saved = try oarlogCLI(["replay", "samples/sim-workout.csv", "--save", "--title", "Head race"], dataDirectory: data)
        XCTAssertEqual(saved.status, 0, saved.err)
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let id = try XCTUnwrap((try jsonObject(try server.request("GET", "/api/sessions").body) as? [[String: Any]])?.first?["id"] as? String)
        let types = ["gpx": "application/gpx+xml", "tcx": "application/vnd.garmin.tcx+xml", "fit": "application/vnd.ant.fit",
                     "csv": "text/csv; charset=utf-8", "geojson": "application/geo+json"]
        for (format, type) in types.sorted(by: { $0.key < $1.key }) {
            let cliFile = data.appendingPathComponent("cli.\(format)")
            let cli = try oarlogCLI(["export", id, "--format", format, "-o", cliFile.path], dataDirectory: data)
            XCTAssertEqual(cli.status, 0, cli.err)
            let got = try server.download("/api/sessions/\(id)/export/\(format)")
            XCTAssertEqual(got.status, 200, format)
            XCTAssertEqual(got.header("content-type"), type, format)
            let ext = format == "csv" ? "strokes.csv" : format
            XCTAssertEqual(got.header("content-disposition"), "attachment; filename=\"\(id).\(ext)\"", format)
            let expected = try Data(contentsOf: cliFile)
            XCTAssertGreaterThan(expected.count, 1000, format)
            XCTAssertEqual(got.body, expected, "\(format): \(got.body.count) bytes from the server, \(expected.count) from oarlog export")
        }
        // The track for the map: the GeoJSON export, shown in place (no attachment).
        let track = try server.download("/api/sessions/\(id)/track")
        XCTAssertEqual(track.status, 200)
        XCTAssertEqual(track.header("content-type"), "application/geo+json")
        XCTAssertNil(track.header("content-disposition"))
        XCTAssertEqual(track.body, try Data(contentsOf: data.appendingPathComponent("cli.geojson")))
        let geojson = try XCTUnwrap(try JSONSerialization.jsonObject(with: track.body) as? [String: Any])
        XCTAssertEqual(geojson["type"] as? String, "FeatureCollection")
        // Not a format, not a session, not a path.
        XCTAssertEqual(try server.download("/api/sessions/\(id)/export/kml").status, 404)
        XCTAssertEqual(try server.download("/api/sessions/\(id)/export/..").status, 404)
        XCTAssertEqual(try server.download("/api/sessions/nosuch/export/gpx").status, 404)
        XCTAssertEqual(try server.download("/api/sessions/%2E%2E/track").status, 404)
        XCTAssertEqual(try server.download("/api/sessions/..%2Fserve-token/track").status, 404)
    }

    /// The plots' series: buckets over the session's time with each bucket's min, max and mean, so
    /// a spike survives the downsampling; a 10-hour session's answer stays under 200 kB.
    func testSeriesAreDownsampledWithoutLosingSpikes() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let long = data.appendingPathComponent("ten-hours.csv")
        let simulated = try oarlogCLI(["simulate", "--minutes", "600", "--rate", "24", "--accel-hz", "25", "--gps-hz", "1", "--seed", "3",
                                       "-o", long.path], dataDirectory: data)
        XCTAssertEqual(simulated.status, 0, simulated.err)
        for (trace, title) in [("samples/sim-workout.csv", "Head race"), (long.path, "Ten hours")] {
            let saved = try oarlogCLI(["replay", trace, "--save", "--title", title], dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
        }
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let listed = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions").body) as? [[String: Any]])
        let workout = try XCTUnwrap(listed.first { $0["title"] as? String == "Head race" }?["id"] as? String)
        let tenHours = try XCTUnwrap(listed.first { $0["title"] as? String == "Ten hours" }?["id"] as? String)

        // The workout in 50 buckets: every stroke counted once; the extremes of each series are
        // the strokes' own extremes (from `show --json --strokes`); min ≤ mean ≤ max; rests are null.
        let truth = try XCTUnwrap((try jsonObject(try oarlogCLI(["show", workout, "--json", "--strokes"], dataDirectory: data).out)
            as? [String: Any])?["stroke_list"] as? [[String: Any]])
        let r = try server.request("GET", "/api/sessions/\(workout)/series?fields=split,rate,distance&points=50")
        XCTAssertEqual(r.status, 200, r.body)
        let series = try XCTUnwrap(try jsonObject(r.body) as? [String: Any])
        XCTAssertEqual(series["points"] as? Int, 50)
        XCTAssertEqual((series["t_s"] as? [Double])?.count, 50)
        XCTAssertEqual((series["strokes"] as? [Int])?.reduce(0, +), truth.count)
        XCTAssertNil(series["speed_mps"], "only the fields asked for")
        for (key, strokeKey) in [("split_s_per_500m", "split_s_per_500m"), ("distance_m", "distance_m")] {
            let s = try XCTUnwrap(series[key] as? [String: [Any]], key)
            let lows = s["min"]!.compactMap { $0 as? Double }, highs = s["max"]!.compactMap { $0 as? Double }
            let values = truth.compactMap { $0[strokeKey] as? Double }
            XCTAssertEqual(lows.min() ?? -1, values.min() ?? -2, accuracy: 0.006, key)
            XCTAssertEqual(highs.max() ?? -1, values.max() ?? -2, accuracy: 0.06, key)
            for b in 0..<50 {
                guard let lo = s["min"]![b] as? Double, let hi = s["max"]![b] as? Double, let mean = s["mean"]![b] as? Double else { continue }
                XCTAssertLessThanOrEqual(lo, mean + 0.01)
                XCTAssertLessThanOrEqual(mean, hi + 0.01)
            }
        }
        let rests = (series["strokes"] as? [Int] ?? []).enumerated().filter { $0.element == 0 }.map(\.offset)
        XCTAssertFalse(rests.isEmpty, "the workout's rests are buckets without strokes")
        for b in rests { XCTAssertTrue((series["rate_spm"] as? [String: [Any]])?["max"]?[b] is NSNull) }

        // Ten hours (14,400 strokes): the default answer and one of 1,000 points stay under 200 kB.
        for query in ["", "?points=1000"] {
            let answer = try server.request("GET", "/api/sessions/\(tenHours)/series\(query)")
            XCTAssertEqual(answer.status, 200)
            print("series of a 10-hour session\(query): \(answer.body.utf8.count) bytes")
            XCTAssertLessThan(answer.body.utf8.count, 200_000, query)
            let object = try XCTUnwrap(try jsonObject(answer.body) as? [String: Any])
            XCTAssertEqual((object["strokes"] as? [Int])?.reduce(0, +), 14_400)
        }
        // What is not a series request.
        for bad in ["?fields=bogus", "?points=0", "?points=100000", "?points=ten", "?fields="] {
            XCTAssertEqual(try server.request("GET", "/api/sessions/\(workout)/series\(bad)").status, 400, bad)
        }
        XCTAssertEqual(try server.request("GET", "/api/sessions/nosuch/series").status, 404)
    }

    /// The session page's map and pieces: the trail is the GeoJSON export's points (read from
    /// the fixes alone), thinned on request with its ends kept; pieces and stroke curves by
    /// index, and what is not one refused.
    func testTrailPiecesAndCurves() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-api-\(UUID().uuidString)")
        for (trace, title) in [("samples/sim-workout.csv", "Head race"), ("samples/rowingdata/nk_logbook.csv", "Long row")] {
            let saved = try oarlogCLI(["replay", trace, "--save", "--title", title], dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
        }
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let listed = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions").body) as? [[String: Any]])
        for session in listed {
            let id = try XCTUnwrap(session["id"] as? String)
            let geojson = try XCTUnwrap(try JSONSerialization.jsonObject(with: try server.download("/api/sessions/\(id)/track").body) as? [String: Any])
            let features = try XCTUnwrap(geojson["features"] as? [[String: Any]])
            let coordinates = try XCTUnwrap((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
            let trail = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(id)/trail").body) as? [String: Any])
            let lat = try XCTUnwrap(trail["lat_deg"] as? [Double]), lon = try XCTUnwrap(trail["lon_deg"] as? [Double])
            let times = try XCTUnwrap(trail["t_s"] as? [Double]), distances = try XCTUnwrap(trail["distance_m"] as? [Double])
            XCTAssertEqual(lat.count, coordinates.count, id)
            XCTAssertEqual(trail["fixes"] as? Int, coordinates.count)
            for (i, c) in coordinates.enumerated() where i < lat.count {
                XCTAssertEqual(lat[i], c[1], accuracy: 1e-7)
                XCTAssertEqual(lon[i], c[0], accuracy: 1e-7)
            }
            XCTAssertEqual(times, times.sorted(), "in time order")
            XCTAssertEqual(distances, distances.sorted(), "distance never runs back")
            let end = try XCTUnwrap(features.first { ($0["properties"] as? [String: Any])?["kind"] as? String == "end" }?["properties"] as? [String: Any])
            XCTAssertEqual(distances.last ?? 0, end["distance_m"] as? Double ?? -1, accuracy: 1, "\(id): the trail ends at the export's distance")
            XCTAssertEqual(times.last ?? 0, end["t_s"] as? Double ?? -1, accuracy: 0.01)
            // Thinned to 50: the first and last points kept.
            let thin = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(id)/trail?points=50").body) as? [String: Any])
            let thinLat = try XCTUnwrap(thin["lat_deg"] as? [Double])
            XCTAssertEqual(thinLat.count, 50)
            XCTAssertEqual(thinLat.first, lat.first)
            XCTAssertEqual(thinLat.last, lat.last)
        }
        let workout = try XCTUnwrap(listed.first { $0["title"] as? String == "Head race" }?["id"] as? String)
        let nk = try XCTUnwrap(listed.first { $0["title"] as? String == "Long row" }?["id"] as? String)
        // Pieces: each holds its strokes (indexes into the stroke list, in order, not overlapping).
        let pieces = try XCTUnwrap((try jsonObject(try server.request("GET", "/api/sessions/\(workout)/pieces").body) as? [String: Any])?["pieces"] as? [[String: Any]])
        XCTAssertEqual(pieces.count, 6)
        var next = 0
        for p in pieces {
            let first = try XCTUnwrap(p["first_stroke"] as? Int), last = try XCTUnwrap(p["last_stroke"] as? Int)
            XCTAssertGreaterThanOrEqual(first, next)
            XCTAssertEqual(last - first + 1, p["strokes"] as? Int)
            // Rounded: distance to 0.1 m (a relative error of 0.05 m / distance), time and split to 0.01 s.
            let pieceSplit = p["split_s_per_500m"] as? Double ?? 0, pieceDistance = p["distance_m"] as? Double ?? 1
            XCTAssertEqual((p["time_s"] as? Double ?? 0) / pieceDistance * 500, pieceSplit,
                           accuracy: pieceSplit * 0.05 / pieceDistance + 0.02, "rounded: 0.1 m and 0.01 s")
            next = last + 1
        }
        // The second piece's average: its strokes, within them the one with the curve's extremes.
        let curve = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(workout)/curve?piece=1&points=50").body) as? [String: Any])
        XCTAssertEqual(curve["points"] as? Int, 50)
        XCTAssertEqual((curve["mps2"] as? [Double])?.count, 50)
        XCTAssertGreaterThanOrEqual(curve["strokes"] as? Int ?? 0, (pieces[1]["strokes"] as? Int ?? 0) - 2)
        let one = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(workout)/curve?stroke=100").body) as? [String: Any])
        XCTAssertEqual(one["strokes"] as? Int, 1)
        XCTAssertEqual((one["sd_mps2"] as? [Double])?.allSatisfy { $0 == 0 }, true, "one stroke has no spread")
        // No accelerometer: a curve of no strokes, nulls, not zeros.
        let none = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(nk)/curve?piece=0").body) as? [String: Any])
        XCTAssertEqual(none["strokes"] as? Int, 0)
        XCTAssertTrue((none["mps2"] as? [Any])?.allSatisfy { $0 is NSNull } ?? false)
        // What is not a piece, a stroke or a trail.
        XCTAssertEqual(try server.request("GET", "/api/sessions/\(workout)/curve?piece=6").status, 404)
        XCTAssertEqual(try server.request("GET", "/api/sessions/\(workout)/curve?stroke=100000").status, 404)
        for bad in ["", "?piece=1&stroke=2", "?piece=-1", "?piece=x", "?piece=0&points=5", "?piece=0&points=100000"] {
            XCTAssertEqual(try server.request("GET", "/api/sessions/\(workout)/curve\(bad)").status, 400, bad)
        }
        for bad in ["?points=1", "?points=1000000", "?points=many"] {
            XCTAssertEqual(try server.request("GET", "/api/sessions/\(workout)/trail\(bad)").status, 400, bad)
        }
        XCTAssertEqual(try server.request("GET", "/api/sessions/nosuch/pieces").status, 404)
        XCTAssertEqual(try server.request("GET", "/api/sessions/..%2Fserve-token/trail").status, 404)
        // A session without fences has no course on its map.
        let course = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(workout)/course").body) as? [String: Any])
        XCTAssertTrue(course["fences"] is NSNull)
        XCTAssertEqual((course["crossings"] as? [Any])?.count, 0)
    }

    /// Ids that are not sessions, oversized and malformed bodies, controls without the token.
    func testBadInputIsRefusedWithTheRightStatus() throws {
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"])
        for bad in ["..", "%2E%2E", "%2Fetc%2Fpasswd", "..%2F..%2Fetc%2Fpasswd", String(repeating: "a", count: 5000), "last",
                    "serve-token", "%00"] {
            let r = try server.request("GET", "/api/sessions/\(bad)")
            XCTAssertEqual(r.status, 404, "GET /api/sessions/\(bad.prefix(40)): \(r.body)")
            XCTAssertFalse(r.body.contains("root:"), bad)
        }
        XCTAssertEqual(try server.request("GET", "/../../etc/passwd").status, 404)
        XCTAssertEqual(try server.request("GET", "/%2E%2E/%2E%2E/etc/passwd").status, 404)
        // Controls without the token, or with a wrong one.
        XCTAssertEqual(try server.request("POST", "/api/record/start").status, 401)
        XCTAssertEqual(try server.request("POST", "/api/record/stop", token: "0123").status, 401)
        XCTAssertEqual(try server.request("DELETE", "/api/sessions/x", token: String(server.token.reversed())).status, 401)
        XCTAssertEqual(try server.request("POST", "/api/sessions/x/notes", body: "{\"text\":\"a\"}").status, 401)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/x", body: "{\"title\":\"a\"}").status, 401)
        // With the token: unknown sessions, malformed and oversized bodies.
        let t = server.token
        XCTAssertEqual(try server.request("DELETE", "/api/sessions/..", token: t).status, 404)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/%2E%2E%2Fserve-token", body: "{\"title\":\"x\"}", token: t).status, 404)
        let malformed = try server.request("POST", "/api/record/start", body: "{\"title\": ", token: t)
        XCTAssertEqual(malformed.status, 400)
        XCTAssertTrue(malformed.body.contains("malformed JSON"), malformed.body)
        XCTAssertEqual(try server.request("POST", "/api/record/start", body: "[1,2]", token: t).status, 400)
        let big = "{\"title\":\"" + String(repeating: "x", count: 100_000) + "\"}"
        XCTAssertEqual(try server.request("POST", "/api/record/start", body: big, token: t).status, 413)
        XCTAssertNil(try server.status()["session"] as? String, "nothing was started by a refused request")
        // Pairing: the code gives the token; wrong codes are refused, then locked out.
        let paired = try server.request("POST", "/api/pair", body: "{\"code\":\"\(server.pairingCode)\"}")
        XCTAssertEqual(paired.status, 200)
        XCTAssertEqual((try jsonObject(paired.body) as? [String: Any])?["token"] as? String, server.token)
        let wrong = server.pairingCode == "000000" ? "000001" : "000000"
        for _ in 0..<5 { XCTAssertEqual(try server.request("POST", "/api/pair", body: "{\"code\":\"\(wrong)\"}").status, 401) }
        XCTAssertEqual(try server.request("POST", "/api/pair", body: "{\"code\":\"\(server.pairingCode)\"}").status, 429)
    }

    /// Start, a note, Stop, rename and delete through the API: the session is in the data
    /// directory with the note at its session time, renamed, then gone.
    func testRecordNoteRenameDelete() throws {
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "20"])
        let t = server.token
        usleep(1_000_000)
        let started = try server.request("POST", "/api/record/start", body: "{\"title\":\"Pieces\"}", token: t)
        XCTAssertEqual(started.status, 201, started.body)
        let id = try XCTUnwrap((try jsonObject(started.body) as? [String: Any])?["id"] as? String)
        XCTAssertEqual(try server.request("POST", "/api/record/start", token: t).status, 409, "one recording at a time")
        usleep(1_500_000)
        let note = try server.request("POST", "/api/sessions/\(id)/notes", body: "{\"text\":\"Rate up\"}", token: t)
        XCTAssertEqual(note.status, 201, note.body)
        let noteTime = try XCTUnwrap((try jsonObject(note.body) as? [String: Any])?["t_s"] as? Double)
        XCTAssertGreaterThan(noteTime, 10, "20x for 1.5 s is about 30 s of session")
        XCTAssertLessThan(noteTime, 60)
        usleep(1_000_000)
        XCTAssertEqual(try server.request("POST", "/api/record/stop", token: t).status, 200)
        XCTAssertEqual(try server.request("POST", "/api/record/stop", token: t).status, 409)

        let show = try oarlogCLI(["show", id, "--json"], dataDirectory: server.dataDirectory)
        XCTAssertEqual(show.status, 0, show.err)
        let shown = try XCTUnwrap(try jsonObject(show.out) as? [String: Any])
        XCTAssertEqual(shown["title"] as? String, "Pieces")
        XCTAssertEqual(shown["closed"] as? Bool, true)
        let notes = try XCTUnwrap(shown["note_list"] as? [[String: Any]])
        XCTAssertEqual(notes.map { $0["text"] as? String }, ["Rate up"])
        XCTAssertEqual(notes.first?["t_s"] as? Double ?? -1, noteTime, accuracy: 0.001)
        let elapsed = try XCTUnwrap(shown["elapsed_s"] as? Double)
        XCTAssertGreaterThan(elapsed, noteTime)
        XCTAssertGreaterThan(shown["strokes"] as? Int ?? 0, 5)

        // A note on a closed session, at a time.
        XCTAssertEqual(try server.request("POST", "/api/sessions/\(id)/notes", body: "{\"text\":\"Later\",\"t_s\":5}", token: t).status, 201)
        XCTAssertEqual(try server.request("POST", "/api/sessions/\(id)/notes", body: "{\"text\":\"x\",\"t_s\":1e9}", token: t).status, 400)
        let renamed = try server.request("PATCH", "/api/sessions/\(id)", body: "{\"title\":\"Morning pieces\"}", token: t)
        XCTAssertEqual(renamed.status, 200, renamed.body)
        let after = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", id, "--json"], dataDirectory: server.dataDirectory).out) as? [String: Any])
        XCTAssertEqual(after["title"] as? String, "Morning pieces")
        XCTAssertEqual((after["note_list"] as? [[String: Any]])?.compactMap { $0["text"] as? String }, ["Later", "Rate up"])
        XCTAssertEqual(after["strokes"] as? Int, shown["strokes"] as? Int)
        // Editing a note (index in time order): its words, then its time; the token is needed,
        // the index must be one of the session's notes, the body a note; an edit survives a
        // recovery (it is a record appended to the file, like the note).
        let edited = try server.request("PATCH", "/api/sessions/\(id)/notes/1", body: "{\"text\":\"Rate up to 28\"}", token: t)
        XCTAssertEqual(edited.status, 200, edited.body)
        XCTAssertEqual((try jsonObject(edited.body) as? [String: Any])?["t_s"] as? Double ?? -1, noteTime, accuracy: 0.001)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/\(id)/notes/0", body: "{\"text\":\"Earlier\",\"t_s\":2}", token: t).status, 200)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/\(id)/notes/0", body: "{\"text\":\"x\"}").status, 401)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/\(id)/notes/2", body: "{\"text\":\"x\"}", token: t).status, 404)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/\(id)/notes/-1", body: "{\"text\":\"x\"}", token: t).status, 404)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/\(id)/notes/0", body: "{\"words\":1}", token: t).status, 400)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/\(id)/notes/0", body: "{\"text\":\"x\",\"t_s\":1e9}", token: t).status, 400)
        XCTAssertEqual(try server.request("PATCH", "/api/sessions/nosuch/notes/0", body: "{\"text\":\"x\"}", token: t).status, 404)
        let recover = try oarlogCLI(["recover", id], dataDirectory: server.dataDirectory)
        XCTAssertEqual(recover.status, 0, recover.out)
        let edits = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", id, "--json"], dataDirectory: server.dataDirectory).out) as? [String: Any])
        let editedNotes = try XCTUnwrap(edits["note_list"] as? [[String: Any]])
        XCTAssertEqual(editedNotes.compactMap { $0["text"] as? String }, ["Earlier", "Rate up to 28"])
        XCTAssertEqual(editedNotes.first?["t_s"] as? Double, 2)
        XCTAssertEqual(edits["notes"] as? Int, 2, "an edit is not one more note")

        XCTAssertEqual(try server.request("DELETE", "/api/sessions/\(id)", token: t).status, 204)
        XCTAssertEqual(try server.request("GET", "/api/sessions/\(id)").status, 404)
        XCTAssertEqual(try server.request("GET", "/api/sessions").body, "[]")
    }

    /// Nothing listens beyond loopback unless told.
    func testListensOnLoopbackByDefault() throws {
        let run = try oarlogCLI(["serve", "--help"], dataDirectory: FileManager.default.temporaryDirectory)
        XCTAssertTrue(run.out.contains("(default: 127.0.0.1:8080)"), run.out)
        let bad = try oarlogCLI(["serve", "--listen", "everywhere"], dataDirectory: FileManager.default.temporaryDirectory)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.err.contains("expected HOST:PORT"), bad.err)
    }
}
