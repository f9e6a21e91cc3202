import Foundation
@testable import OarlogApp
import OarlogCore
import OarlogSession
import XCTest

/// The single-file HTML report (`oarlog export ID --format html`) of simulated sessions saved
/// through the pipeline: its figures are `oarlog show --json`'s, stored text is escaped, "—"
/// stands for no data, nothing in it points outside the file, and a 2-hour outing's report
/// stays small. The thinning of the track is checked against the indexes it keeps.
final class SessionReportTests: XCTestCase {
    var temp: TemporarySessions!

    override func setUpWithError() throws {
        temp = TemporarySessions()
        try temp.directory.createIfNeeded()
    }

    override func tearDown() { temp.remove() }

    /// Saves a simulated outing and answers its id and its report, made through the store's door.
    func report(_ outing: SessionArchiveTests.Outing) throws -> (id: String, html: String, bytes: Int) {
        let path = try SessionArchiveTests.save(outing, in: temp.directory, scratch: temp.url.path)
        let id = SessionText.id(of: path)
        let store = SessionStore(sessionsPath: temp.directory.path)
        let bytes = try store.exportBytes(id: id, format: .html)
        return (id, try XCTUnwrap(String(bytes: bytes, encoding: .utf8)), bytes.count)
    }

    /// What `oarlog show ID --json` prints, as an object.
    func shown(_ id: String) throws -> [String: Any] {
        let store = SessionStore(sessionsPath: temp.directory.path)
        let json = try store.report(id, includeStrokes: false).json()
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// The text of the figure tile `key` (its value and unit, tags removed).
    func tile(_ key: String, in html: String) throws -> String {
        let start = try XCTUnwrap(html.range(of: "data-key=\"\(key)\"><div class=\"value\">"), "no tile \(key)")
        let rest = html[start.upperBound...]
        let end = try XCTUnwrap(rest.range(of: "</div>"))
        return String(rest[..<end.lowerBound]).replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
    }

    /// `4,950 m`, written here, not by the code under test.
    static func metres(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out + " m"
    }

    /// `12:00.0` (below an hour), `2:00:00.0` (from an hour), to the tenth.
    static func clock(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let (h, m, s, t) = (tenths / 36_000, tenths / 600 % 60, tenths / 10 % 60, tenths % 10)
        let ss = (s < 10 ? "0" : "") + "\(s).\(t)"
        return h > 0 ? "\(h):" + (m < 10 ? "0" : "") + "\(m):" + ss : "\(m):" + ss
    }

    func testTheReportShowsTheSessionsFiguresAndEscapesItsText() throws {
        let hostile = "<script>alert('oar')</script> & \"quotes\""
        let outing = SessionArchiveTests.Outing(title: "Crew <img src=x onerror=alert(1)>", date: "2026-05-02T07:00:00Z",
                                                place: SessionArchiveTests.putney, minutes: 6, rate: 24, boat: "Eight",
                                                notes: [hostile, "Rate up at the bridge"], area: "Temple <Island>")
        let (id, html, _) = try report(outing)
        let show = try shown(id)

        // The figures are show's, written independently here.
        let distance = try XCTUnwrap(show["distance_m"] as? Double)
        let elapsed = try XCTUnwrap(show["elapsed_s"] as? Double)
        let strokes = try XCTUnwrap(show["strokes"] as? Int)
        XCTAssertGreaterThan(distance, 1_000, "6 minutes at 24 spm")
        XCTAssertGreaterThan(strokes, 100)
        XCTAssertEqual(try tile("distance_m", in: html), Self.metres(distance))
        XCTAssertEqual(try tile("elapsed_s", in: html), Self.clock(elapsed))
        XCTAssertEqual(try tile("strokes", in: html), String(strokes))
        let rate = try XCTUnwrap(show["avg_stroke_rate_spm"] as? Double)
        XCTAssertEqual(Double(try tile("stroke_rate_spm", in: html).replacingOccurrences(of: " spm", with: "")) ?? -1, rate, accuracy: 0.05)
        // No heart-rate strap in the simulation: show has none, the report says "—".
        XCTAssertTrue(show["avg_heart_rate_bpm"] is NSNull, "\(show["avg_heart_rate_bpm"] ?? "absent")")
        XCTAssertEqual(try tile("heart_rate_bpm", in: html), "—")

        // Stored text is text: no markup of the note's or the title's gets through.
        XCTAssertNil(html.range(of: "<script", options: .caseInsensitive), "no script element at all")
        XCTAssertNil(html.range(of: "<img", options: .caseInsensitive))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(&apos;oar&apos;)&lt;/script&gt; &amp; &quot;quotes&quot;"))
        XCTAssertTrue(html.contains("Crew &lt;img src=x onerror=alert(1)&gt;"))
        XCTAssertTrue(html.contains("Rate up at the bridge"))
        // Nothing points outside the file; the page's own rule forbids fetching anything.
        XCTAssertNil(html.range(of: #"https?:"#, options: .regularExpression), "no http(s) address anywhere")
        XCTAssertNil(html.range(of: #"(src|href)\s*=\s*["']?\s*(https?:)?//"#, options: [.regularExpression, .caseInsensitive]))
        XCTAssertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"))

        // The track: every fix of a 6-minute outing at 1 Hz (fewer than the limit), drawn.
        let drawn = try XCTUnwrap(html.firstMatch(#"class="route" data-points="(\d+)""#).flatMap { Int($0) })
        let trail = try SessionTrail(try SessionReader(path: try XCTUnwrap(temp.directory.sessionFile(id: id)))).points.count
        XCTAssertEqual(drawn, trail)
        XCTAssertGreaterThan(drawn, 300)
        // The area recorded with the session is drawn, its name as text.
        XCTAssertEqual(html.components(separatedBy: "<circle class=\"area\"").count - 1, 1)
        XCTAssertTrue(html.contains(">Temple &lt;Island&gt;</text>"))
        XCTAssertTrue(html.contains("<g class=\"pin start\">") && html.contains("<g class=\"pin finish\">"))
        // The pieces are the session page's, one row each.
        let pieces = try JSONSerialization.jsonObject(with: Data(SessionStore(sessionsPath: temp.directory.path).piecesJSON(id: id).utf8)) as? [String: Any]
        let rows = try XCTUnwrap(html.components(separatedBy: "<section id=\"pieces\"").last).components(separatedBy: "<tr").count - 2
        XCTAssertEqual(rows, (pieces?["pieces"] as? [Any])?.count)
        XCTAssertGreaterThanOrEqual(rows, 1)
    }

    func testATwoHourOutingsReportIsSmall() throws {
        let outing = SessionArchiveTests.Outing(title: "Long steady state", date: "2026-05-03T06:00:00Z",
                                                place: SessionArchiveTests.putney, minutes: 120, rate: 20)
        let (id, html, bytes) = try report(outing)
        print("report of a 2-hour session: \(bytes) bytes")
        XCTAssertLessThan(bytes, 2_000_000)
        XCTAssertLessThan(bytes, 300_000, "aimed well under 2 MB")
        // 2 hours of 1 Hz fixes, thinned to the limit as they were read.
        let drawn = try XCTUnwrap(html.firstMatch(#"class="route" data-points="(\d+)""#).flatMap { Int($0) })
        XCTAssertLessThanOrEqual(drawn, SessionReport.trackPointLimit)
        XCTAssertGreaterThan(drawn, SessionReport.trackPointLimit / 2)
        let show = try shown(id)
        XCTAssertGreaterThan(try XCTUnwrap(show["gps_fixes"] as? Int), 7_000)
        XCTAssertTrue(html.contains("\(drawn) drawn"), "the caption says how many were drawn")
        XCTAssertEqual(try tile("strokes", in: html), String(try XCTUnwrap(show["strokes"] as? Int)))
        XCTAssertEqual(try tile("distance_m", in: html), Self.metres(try XCTUnwrap(show["distance_m"] as? Double)))
    }

    func testTheThinnerKeepsTheEndsEvenlyWithinItsLimit() {
        for (count, limit) in [(0, 10), (1, 10), (9, 10), (10, 10), (11, 10), (1_000, 10), (7_201, 1_500), (100_003, 1_500)] {
            var thinner = StreamingThinner<Int>(limit: limit)
            for i in 0..<count { thinner.add(i) }
            let kept = thinner.points
            XCTAssertEqual(kept.count, min(count, kept.count), "\(count)")
            XCTAssertLessThanOrEqual(kept.count, limit, "\(count) into \(limit)")
            guard count > 0 else { XCTAssertEqual(kept, []); continue }
            XCTAssertEqual(kept.first, 0)
            XCTAssertEqual(kept.last, count - 1)
            XCTAssertEqual(kept, kept.sorted())
            if count > limit { XCTAssertGreaterThan(kept.count, limit / 2, "at least half the room is used") } else { XCTAssertEqual(kept.count, count) }
            // Evenly: every gap but the last is the same stride.
            let gaps = zip(kept.dropFirst(), kept).map { $0 - $1 }
            XCTAssertEqual(Set(gaps.dropLast()).count, gaps.count > 1 ? 1 : 0, "\(count) into \(limit): \(Set(gaps))")
        }
    }
}

private extension String {
    /// The first capture of `pattern`, if it matches.
    func firstMatch(_ pattern: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let m = regex.firstMatch(in: self, range: NSRange(startIndex..., in: self)), m.numberOfRanges > 1,
              let r = Range(m.range(at: 1), in: self) else { return nil }
        return String(self[r])
    }
}
