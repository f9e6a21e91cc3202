import Foundation
import OarlogTestSupport
import XCTest

/// Text from outside the app is never HTML in it (issue 23, finding 3: a session title ran as
/// script in Leaflet's tooltip on the Map tab). Sessions' titles, a note, a boat's name, the
/// course's, gates' and an area's names are markup — `<img src=x onerror="window.__pwned=1">`
/// and `<b>bold</b>` — and every page is opened in headless Chromium on a paired phone
/// (browser/markup_in_text.py): the live race and its summary, the race list, the race map, a
/// session's page with its map's tooltips opened, the pieces and the note being edited,
/// playback, compare, bests, and on a coach's launch (a real mosquitto, two boats publishing)
/// the fleet. On each: the markup never ran, no element was made from it, and it reads as the
/// words typed. Screenshots at 390 px wide in `.build/screenshots/markup-*.png`.
final class MarkupInTextTests: XCTestCase {
    static let image = #"<img src=x onerror="window.__pwned=1">"#
    static let bold = "<b>bold</b>"
    /// WORDS with both pieces of markup after them (and quotes, for attributes).
    static func marked(_ words: String) -> String { "\(words) \(image) \(bold)" }

    private var broker: MosquittoBroker?
    private var boats: [ChildProcess] = []

    override func tearDown() {
        for p in boats { p.send(SIGTERM) }
        broker?.stop()
        broker = nil
        super.tearDown()
    }

    func testMarkupInUserTextIsShownAsText() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-markup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let course = try Self.markedCourse(in: work)
        let titles = (a: Self.marked("Eight's \"A\""), b: Self.marked("Second"))
        let boat = Self.marked("Crew")
        let data = work.appendingPathComponent("boat")
        for (title, extra) in [(titles.a, ["--boat", boat]), (titles.b, [])] {
            let saved = try oarlogCLI(["replay", "samples/rowingdata/nk_logbook.csv", "--save", "--title", title,
                                       "--fences", course.file] + extra, dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
        }
        let listed = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: data).out) as? [[String: Any]])
        let id = { (title: String) in try XCTUnwrap(listed.first { $0["title"] as? String == title }?["id"] as? String, title) }
        let (a, b) = (try id(titles.a), try id(titles.b))

        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let note = Self.marked("Catch together")
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["text": note, "t_s": 20] as [String: Any]), as: UTF8.self)
        let posted = try server.request("POST", "/api/sessions/\(a)/notes", body: body, token: server.token)
        XCTAssertEqual(posted.status, 201, posted.body)
        let pieces = try XCTUnwrap((try jsonObject(try server.request("GET", "/api/sessions/\(a)/pieces").body) as? [String: Any])?["pieces"] as? [[String: Any]])
        let legs = pieces.compactMap { $0["label"] as? String }
        XCTAssertTrue(legs.first?.contains(course.gates[0]) == true, "the legs are named by the marked gates: \(legs)")

        let fleet = try startFleet(in: work)
        let live = (title: Self.marked("Live"), note: Self.marked("Live note"))
        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("markup_in_text.py", [server.base, server.token, fleet.server.base, shots.path, a, b, live.title, live.note],
                                           detail: "\n" + server.log.suffix(2000))
        let pages = try XCTUnwrap(result["pages"] as? [String: [String: Any]])
        // Every page: nothing ran, nothing was made of the markup; where words are shown they read as typed.
        let opened = ["fleet", "live-racing", "live", "races", "map", "session", "playback", "compare", "compare-legs", "bests"]
        XCTAssertEqual(Set(pages.keys), Set(opened))
        for name in opened {
            let page = try XCTUnwrap(pages[name], name)
            XCTAssertTrue(page["pwned"] is NSNull, "\(name): the markup ran (\(page["pwned"] ?? ""))")
            XCTAssertEqual(page["made"] as? Int, 0, "\(name): an element was made of the markup")
            if name != "bests" {  // the bests name no session by its title
                XCTAssertTrue((page["text"] as? String ?? "").contains(Self.bold), "\(name): \(Self.bold) shown as text")
            }
        }
        let recorded = try XCTUnwrap(result["recorded"] as? String)
        XCTAssertEqual(pages["live-racing"]?["last_note"] as? String, live.note)
        XCTAssertEqual(pages["live"]?["summary_title"] as? String, "Saved: \(live.title) (\(recorded))")
        try Self.assertSessionPages(pages, titles: [titles.a, titles.b, live.title], boat: boat, note: note, legs: legs, course: course)
        try Self.assertFleetPage(try XCTUnwrap(pages["fleet"]), fleet: fleet)
        // An <img src=x> made from the markup would have asked for /x (a 404 in the console).
        XCTAssertEqual(result["console_fleet"] as? [String], [], "no errors in the browser console on the fleet page")
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")
        BrowserScript.checkScreenshots(result, minimumBytes: 5_000)
    }

    /// The race list, the race map, the session's page, its playback and the compare page.
    static func assertSessionPages(_ pages: [String: [String: Any]], titles: [String], boat: String, note: String, legs: [String],
                                   course: Course, file: StaticString = #filePath, line: UInt = #line) throws {
        let (a, b) = (titles[0], titles[1])
        XCTAssertEqual(Set(pages["races"]?["titles"] as? [String] ?? []), ["\(a) · \(boat)", b, titles[2]], file: file, line: line)
        XCTAssertTrue((pages["races"]?["boats"] as? [String] ?? []).contains(boat), "the boats' filter", file: file, line: line)
        let labels = try XCTUnwrap(pages["map"]?["labels"] as? [String], file: file, line: line)
        XCTAssertFalse(labels.isEmpty, file: file, line: line)
        XCTAssertTrue(Set(labels).isSubset(of: titles), "each place labelled with a title: \(labels)", file: file, line: line)
        XCTAssertTrue(Set(pages["map"]?["listed"] as? [String] ?? ["?"]).isSubset(of: titles), file: file, line: line)

        let session = try XCTUnwrap(pages["session"], file: file, line: line)
        XCTAssertEqual(session["title"] as? String, a, file: file, line: line)
        XCTAssertEqual(session["notes"] as? [String], [note], file: file, line: line)
        XCTAssertEqual(session["editing"] as? String, note, "the note in its edit box", file: file, line: line)
        XCTAssertTrue((session["legend"] as? String ?? "").hasSuffix(" " + course.name), "\(session["legend"] ?? "")", file: file, line: line)
        XCTAssertEqual(session["pieces"] as? [String], legs, file: file, line: line)
        XCTAssertTrue((session["curve_title"] as? String ?? "").hasPrefix(legs.first ?? "?"), file: file, line: line)
        XCTAssertEqual(session["gate_labels"] as? [String], course.gates, "each gate's name beside its line", file: file, line: line)
        let tooltips = try XCTUnwrap(session["tooltips"] as? [String], file: file, line: line)
        XCTAssertTrue(tooltips.contains("0:20.0 " + note), "the note on the map: \(tooltips)", file: file, line: line)
        XCTAssertTrue(tooltips.contains(course.area), "the area's name: \(tooltips)", file: file, line: line)
        XCTAssertTrue(tooltips.contains { $0.hasPrefix(course.gates[1] + " ") }, "a crossing of a gate: \(tooltips)", file: file, line: line)

        XCTAssertEqual(pages["playback"]?["title"] as? String, a, file: file, line: line)
        XCTAssertEqual(pages["playback"]?["last_note"] as? String, note, file: file, line: line)

        // Compared whole, then by their first legs (GET /api/compare is cut every 500 m: it has no course).
        let compare = try XCTUnwrap(pages["compare"], file: file, line: line)
        XCTAssertEqual(compare["titles"] as? [String], [a, b], file: file, line: line)
        XCTAssertEqual(compare["legend"] as? [String], ["A: \(a)", "B: \(b)"], file: file, line: line)
        let firstLegs = try XCTUnwrap(pages["compare-legs"], file: file, line: line)
        XCTAssertEqual(firstLegs["titles"] as? [String], [a, b], file: file, line: line)
        XCTAssertEqual(firstLegs["legend"] as? [String], ["A: \(a) · \(legs[0])", "B: \(b) · \(legs[0])"], file: file, line: line)
        // Each side's choice of piece: the whole session, or a leg named by its gates.
        let choices = try XCTUnwrap(compare["pieces"] as? [String], file: file, line: line)
        XCTAssertEqual(choices.first, "Whole session", file: file, line: line)
        XCTAssertEqual(choices.count, legs.count + 1, "\(choices)", file: file, line: line)
        for (choice, leg) in zip(choices.dropFirst(), legs) {
            XCTAssertTrue(choice.hasPrefix(leg + " · "), "\(choice)", file: file, line: line)
        }
    }

    /// The fleet: the boats' names in the table and on the map, the course's and gates' names, where they met.
    static func assertFleetPage(_ page: [String: Any], fleet: Fleet, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual((page["boats"] as? [String])?.sorted(), fleet.boats.sorted(), file: file, line: line)
        XCTAssertEqual((page["markers"] as? [String])?.sorted(), fleet.boats.sorted(), file: file, line: line)
        XCTAssertEqual(page["race"] as? String, "\(fleet.course.name) · 200 m", file: file, line: line)
        XCTAssertEqual((page["results"] as? [String])?.sorted(), fleet.boats.sorted(), file: file, line: line)
        XCTAssertEqual(page["gates"] as? [String], fleet.course.gates, file: file, line: line)
        XCTAssertEqual(page["gate_labels"] as? [String], fleet.course.gates, file: file, line: line)
        let met = fleet.boats.joined(separator: " & ")
        let meetings = try XCTUnwrap(page["meetings"] as? [String], file: file, line: line)
        XCTAssertTrue(!meetings.isEmpty && meetings.allSatisfy { $0.hasPrefix(met) }, "\(meetings)", file: file, line: line)
        XCTAssertTrue((page["tooltips"] as? [String] ?? []).contains { $0.hasPrefix(met + " · ") }, "a meeting's ring", file: file, line: line)
    }

    /// A course file whose names are markup: the course, its gates (in order) and its area.
    struct Course {
        let file: String
        let name: String
        let gates: [String]
        let area: String
    }

    /// The NK logbook's 2,000 m course (samples/nk-course.geojson) with every name marked.
    static func markedCourse(in work: URL) throws -> Course {
        let sample = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson"))
        var geojson = try XCTUnwrap(try JSONSerialization.jsonObject(with: sample) as? [String: Any])
        let name = marked("NK course")
        geojson["name"] = name
        let (features, names) = renamed(try XCTUnwrap(geojson["features"] as? [[String: Any]]))
        geojson["features"] = features
        let file = work.appendingPathComponent("nk-course-marked.geojson")
        try JSONSerialization.data(withJSONObject: geojson).write(to: file)
        return Course(file: file.path, name: name, gates: Array(names.dropLast()), area: try XCTUnwrap(names.last))
    }

    /// Each feature's name marked; the names in order.
    static func renamed(_ features: [[String: Any]]) -> ([[String: Any]], [String]) {
        var names: [String] = []
        let changed = features.map { feature -> [String: Any] in
            var f = feature
            var properties = f["properties"] as? [String: Any] ?? [:]
            let name = marked(properties["name"] as? String ?? "?")
            properties["name"] = name
            f["properties"] = properties
            names.append(name)
            return f
        }
        return (changed, names)
    }

    /// A coach's launch and the names its boats gave themselves.
    struct Fleet {
        let server: ServerProcess
        let boats: [String]
        let course: Course
    }

    /// A real mosquitto, `serve --coach` with a 200 m course whose names are markup, and two boats
    /// with markup names side by side (10 m apart: they meet) publishing a minute's row at 10×.
    func startFleet(in work: URL) throws -> Fleet {
        let broker = try MosquittoBroker()
        try broker.start()
        self.broker = broker
        let start = (lat: 51.4873, lon: -0.2241), metresPerDegree = 111_320.0
        let lonPerMetre = 1 / (metresPerDegree * cos(start.lat * .pi / 180))
        let file = work.appendingPathComponent("lanes.geojson")
        let name = Self.marked("Lanes")
        let made = try oarlogCLI(["fences", "make-course", "--start", "\(start.lat),\(start.lon + 20 * lonPerMetre)", "--heading", "90",
                                  "--length", "200", "--markers", "100", "--width", "60", "--name", name, "-o", file.path], dataDirectory: work)
        XCTAssertEqual(made.status, 0, made.err)
        var geojson = try XCTUnwrap(try JSONSerialization.jsonObject(with: try Data(contentsOf: file)) as? [String: Any])
        let (features, gates) = Self.renamed(try XCTUnwrap(geojson["features"] as? [[String: Any]]))
        geojson["features"] = features
        try JSONSerialization.data(withJSONObject: geojson).write(to: file)
        let server = try ServerProcess(arguments: ["--coach", "--subscribe", "mqtt://127.0.0.1:\(broker.port)", "--course", file.path,
                                                   "--meeting-distance", "20"], dataDirectory: work.appendingPathComponent("coach"))
        let subscribed = Date().addingTimeInterval(30)
        while ((try jsonObject(try server.request("GET", "/api/fleet").body) as? [String: Any])?["broker"] as? [String: Any])?["subscribed"] as? Bool != true {
            guard Date() < subscribed else { throw ServerTestError("the coach did not subscribe: \(server.log)") }
            usleep(100_000)
        }
        let names = [Self.marked("Alpha's \"A\""), Self.marked("Bravo")]
        for (n, boat) in names.enumerated() {
            let trace = work.appendingPathComponent("boat\(n).csv").path
            let simulated = try oarlogCLI(["simulate", "--minutes", "1.2", "--rate", "30", "--heading", "90", "--gps-dropouts", "0",
                                           "--start", "\(start.lat + Double(n) * 10 / metresPerDegree),\(start.lon)",
                                           "--start-utc", "2026-05-02T07:00:00Z", "--seed", "\(n + 1)", "-o", trace], dataDirectory: work)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            boats.append(try ChildProcess(try Binaries.oarlog(),
                                          ["replay", trace, "--publish", "mqtt://127.0.0.1:\(broker.port)", "--boat", boat, "--speed", "10"],
                                          environment: ["OARLOG_DATA_DIR": work.appendingPathComponent("boat\(n)").path]))
        }
        return Fleet(server: server, boats: names, course: Course(file: file.path, name: name, gates: gates, area: ""))
    }
}
