import Foundation
import OarlogAPI
@testable import OarlogApp
import OarlogCore
import OarlogFences
import OarlogSimulator
import OarlogTestSupport
import OarlogTrace
import XCTest

/// Two simulated outings of known constant rate (no sensor noise, no GPS outage) compared, cut
/// every 500 m of each one's GPS distance: each segment's time is the simulator's true time over
/// that distance, the gap grows by the true difference every 500 m, the rate is the rate rowed;
/// pieces of one session against each other; no accelerometer, no strokes (nil, never 0).
///
/// The simulator places its fixes on the WGS 84 ellipsoid Oarlog measures on, so Oarlog's metres
/// are the simulator's (the test checks the trail's length against the truth's). A time at a
/// mark is within 0.05 % of the truth plus 0.1 s (a fix a second: the mark's time interpolated
/// between two fixes), and so is a gap.
final class SessionComparisonTests: XCTestCase {
    let sessions = TemporarySessions()
    override func tearDown() { sessions.remove() }

    /// Oarlog's distance over the simulator's: 1, both on the WGS 84 ellipsoid (see the class comment).
    let scale = 1.0

    /// The simulator's truth: the boat's distance along the course at every accelerometer sample.
    struct Truth {
        var times: [Seconds] = []
        var distances: [Metres] = []
        var catches: [Seconds] = []

        /// The time the boat reached `d` metres along the course.
        func time(at d: Metres) -> Seconds {
            let j = distances.firstIndex { $0 >= d }!
            if j == 0 { return times[0] }
            let (t0, t1, d0, d1) = (times[j - 1], times[j], distances[j - 1], distances[j])
            return t0 + (d - d0) / (d1 - d0) * (t1 - t0)
        }

        /// The distance at time `t`.
        func distance(at t: Seconds) -> Metres {
            let j = times.firstIndex { $0 >= t }!
            if j == 0 { return distances[0] }
            let (t0, t1, d0, d1) = (times[j - 1], times[j], distances[j - 1], distances[j])
            return d0 + (t - t0) / (t1 - t0) * (d1 - d0)
        }
    }

    /// A simulated outing saved as a session: constant `rate` (or a `profile`), no noise, no GPS
    /// outage, 1 Hz GPS, 50 Hz accelerometer (none with `accelerometer: false`).
    @discardableResult
    func outing(_ title: String, minutes: Double, rate: Double = 24, profile: String? = nil, day: Int, seed: UInt64,
                accelerometer: Bool = true, gps: Bool = true) throws -> Truth {
        var configuration = try SimulationConfiguration.fromOptions(minutes: minutes, rate: rate, accelHz: 50, gpsHz: 1, profile: profile,
                                                                    seed: seed, noise: "none", startUTC: "2026-05-\(String(format: "%02d", day))T07:00:00Z",
                                                                    dropoutsPerHour: 0)
        configuration.gpsDropoutsPerHour = 0
        var simulator = try BoatSimulator(configuration: configuration)
        let trace = sessions.path("\(seed).csv")
        var writer = try TraceWriter(path: trace, metadata: [])
        var truth = Truth()
        while let record = try simulator.next() {
            switch record {
            case .accel:
                if let frame = simulator.lastBoatFrame {
                    truth.times.append(frame.time)
                    truth.distances.append(frame.distance)
                }
                if !accelerometer { continue }
            case .fix:
                if !gps { continue }
            default: break
            }
            try writer.write(record)
        }
        try writer.close()
        truth.catches = simulator.groundTruth.strokes.map(\.catchTime)
        var replay = try TraceReplay(path: trace)
        let saver = try SessionSaving.replayWriter(for: replay.input, title: title, settings: .defaults, directory: sessions.directory)
        _ = try replay.run(sinks: [], saveTo: saver)
        return truth
    }

    func compare(_ a: String, _ b: String, fences: FenceFile? = nil) throws -> SessionComparison {
        let lookup = SessionStore(directory: sessions.directory)
        return try SessionComparison(try CompareReference(a), try CompareReference(b), fences: fences) { try lookup.path(of: $0) }
    }

    func testTwoOutingsEvery500Metres() throws {
        let slow = try outing("At 22", minutes: 9, rate: 22, day: 2, seed: 22)
        let fast = try outing("At 30", minutes: 8, rate: 30, day: 9, seed: 30)
        let c = try compare("2026-05-02", "2026-05-09")
        XCTAssertEqual(c.a.title, "At 22")
        XCTAssertEqual(c.b.title, "At 30")
        XCTAssertNil(c.a.piece)
        XCTAssertEqual(c.segmentLength, 500)
        // To the shorter side's end: whole 500 m segments, then one partial segment to its end.
        let shorter = min(c.a.distance, c.b.distance)
        XCTAssertEqual(c.segments.count, Int((shorter / 500).rounded(.up)))
        XCTAssertEqual(c.segments.last?.to ?? 0, shorter, accuracy: 1e-6)
        XCTAssertEqual(c.segments.filter(\.partial).map(\.number), [c.segments.count])
        XCTAssertEqual(c.segments.first?.label, "0–500 m")
        XCTAssertEqual(c.segments[2].label, "1,000–1,500 m")

        // Each side's time at a mark is the truth's: from its first GPS point, that distance on.
        func truthElapsed(_ truth: Truth, _ side: SessionComparison.Side, _ mark: Metres) -> Seconds {
            truth.time(at: truth.distance(at: side.from) + mark / scale) - side.from
        }
        // Each trail's length is the truth's over the same times, in Oarlog's metres.
        for (truth, side) in [(slow, c.a), (fast, c.b)] {
            let metres = (truth.distance(at: side.to) - truth.distance(at: side.from)) * scale
            XCTAssertEqual(side.distance, metres, accuracy: metres * 0.0005)
            print(String(format: "compare: %@ %.2f m, the truth %.2f m × %.5f", side.title, side.distance, metres, scale))
        }
        let whole = c.segments.filter { !$0.partial }
        XCTAssertGreaterThanOrEqual(whole.count, 4)
        var worst = 0.0
        for s in whole {
            let ta = truthElapsed(slow, c.a, s.to), tb = truthElapsed(fast, c.b, s.to)
            let ea = try XCTUnwrap(s.a.elapsed), eb = try XCTUnwrap(s.b.elapsed)
            XCTAssertEqual(ea, ta, accuracy: ta * 0.0005 + 0.1, "A at \(s.to) m")
            XCTAssertEqual(eb, tb, accuracy: tb * 0.0005 + 0.1, "B at \(s.to) m")
            // The gap at the mark is the true difference (B is faster: A behind, the gap negative).
            let gap = try XCTUnwrap(s.gap)
            XCTAssertEqual(gap, tb - ta, accuracy: max(ta, tb) * 0.0005 + 0.1, "gap at \(s.to) m")
            XCTAssertLessThan(gap, 0)
            // A segment of 500 m: its time is its split.
            XCTAssertEqual(try XCTUnwrap(s.a.split), try XCTUnwrap(s.a.time), accuracy: 1e-9)
            worst = max(worst, abs(ea - ta), abs(eb - tb))
            print(String(format: "compare: %@  A %.2f s (truth %.2f)  B %.2f s (truth %.2f)  gap %.2f s (truth %.2f)  A gained %.2f s, rate %.2f / %.2f spm, strokes %d / %d",
                         s.label, ea, ta, eb, tb, gap, tb - ta, s.gained ?? .nan, s.a.rate ?? .nan, s.b.rate ?? .nan, s.a.strokes ?? -1, s.b.strokes ?? -1))
        }
        print(String(format: "compare: the largest difference from the truth at a mark: %.3f s", worst))
        // The gap grows every 500 m by what the faster boat took off the slower there, as the truth has it.
        for s in whole {
            let truthGain = (truthElapsed(fast, c.b, s.to) - truthElapsed(fast, c.b, s.from)) - (truthElapsed(slow, c.a, s.to) - truthElapsed(slow, c.a, s.from))
            XCTAssertEqual(try XCTUnwrap(s.gained), truthGain, accuracy: 0.15, s.label)
            XCTAssertLessThan(try XCTUnwrap(s.gained), -15, "B a good 15 s faster every 500 m: \(s.label)")
        }
        XCTAssertEqual(try XCTUnwrap(whole.last?.gap), whole.reduce(0) { $0 + ($1.gained ?? .nan) }, accuracy: 1e-6, "the gap is the sum of the gains")

        // Strokes and rate: the rates rowed (22 and 30 spm, ±0.3), the catches the truth has in the
        // segment (±1: the detected catch is not the truth's instant).
        for s in whole {
            XCTAssertEqual(try XCTUnwrap(s.a.rate), 22, accuracy: 0.3, s.label)
            XCTAssertEqual(try XCTUnwrap(s.b.rate), 30, accuracy: 0.3, s.label)
            for (leg, truth, side) in [(s.a, slow, c.a), (s.b, fast, c.b)] {
                let t0 = side.from + (leg.elapsed ?? 0) - (leg.time ?? 0), t1 = side.from + (leg.elapsed ?? 0)
                let truthCount = truth.catches.filter { $0 >= t0 && $0 < t1 }.count
                XCTAssertEqual(Double(try XCTUnwrap(leg.strokes)), Double(truthCount), accuracy: 1, s.label)
            }
        }
        // The JSON: the same figures, units in the names.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(c.json().utf8)) as? [String: Any])
        XCTAssertEqual((json["a"] as? [String: Any])?["id"] as? String, c.a.id)
        XCTAssertEqual((json["b"] as? [String: Any])?["start_utc"] as? String, "2026-05-09T07:00:00Z")
        let segments = try XCTUnwrap(json["segments"] as? [[String: Any]])
        XCTAssertEqual(segments.count, c.segments.count)
        XCTAssertEqual(segments[1]["gap_s"] as? Double ?? 0, try XCTUnwrap(c.segments[1].gap), accuracy: 0.005)
        XCTAssertEqual((segments[1]["b"] as? [String: Any])?["rate_spm"] as? Double ?? 0, try XCTUnwrap(c.segments[1].b.rate), accuracy: 0.005)
        XCTAssertEqual((segments[1]["a"] as? [String: Any])?["strokes"] as? Int, c.segments[1].a.strokes)
        XCTAssertNil(json["trail"])
        // The table: a row per segment, the gap as "B by …" (B is ahead).
        let table = c.table()
        let row = try XCTUnwrap(table.split(separator: "\n").first { $0.hasPrefix("500–1,000 m") })
        XCTAssertTrue(row.contains(SessionComparison.gapText(c.segments[1].gap)), String(row))
        XCTAssertTrue(SessionComparison.gapText(c.segments[1].gap).hasPrefix("B by "))
    }

    /// Two pieces of one session against each other (its runs of rowing between rests, from 1).
    func testPiecesOfOneSession() throws {
        let truth = try outing("Pieces", minutes: 8.5, profile: "180:20,60:rest,210:28", day: 3, seed: 7)
        let c = try compare("last:1", "last:2")
        XCTAssertEqual(c.a.piece, 1)
        XCTAssertEqual(c.b.piece, 2)
        XCTAssertEqual(c.a.pieceLabel, "Piece 1")
        XCTAssertEqual(c.a.id, c.b.id)
        // Piece 1 is 3 minutes at 20, piece 2 three and a half at 28: from the first catch to a
        // stroke after the last (SessionPieces), within a stroke of the profile's.
        XCTAssertEqual(c.a.time, 180, accuracy: 3)
        XCTAssertEqual(c.b.time, 210, accuracy: 3)
        XCTAssertGreaterThanOrEqual(c.b.from, 240 - 3)
        // The piece's distance is the truth's over the same times.
        let trueA = (truth.distance(at: c.a.to) - truth.distance(at: c.a.from)) * scale
        XCTAssertEqual(c.a.distance, trueA, accuracy: trueA * 0.0005 + 1.5)
        XCTAssertEqual(c.segments.count, Int((min(c.a.distance, c.b.distance) / 500).rounded(.up)))
        let first = try XCTUnwrap(c.segments.first)
        XCTAssertEqual(try XCTUnwrap(first.a.rate), 20, accuracy: 0.5)
        XCTAssertEqual(try XCTUnwrap(first.b.rate), 28, accuracy: 0.5)
        // The faster piece gains from the first segment on.
        XCTAssertLessThan(try XCTUnwrap(first.gap), 0)
        let ta = truth.time(at: truth.distance(at: c.a.from) + 500 / scale) - c.a.from
        let tb = truth.time(at: truth.distance(at: c.b.from) + 500 / scale) - c.b.from
        // From a standing start the distance accumulator credits the metre or so the boat drifted
        // within its hold radius during the rest when it moves off again (seen: 1.46 m in the
        // first second of piece 2, where the boat moved 0.02 m), so a piece after a rest reaches
        // its marks up to 0.3 s early.
        XCTAssertEqual(try XCTUnwrap(first.a.elapsed), ta, accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(first.b.elapsed), tb, accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(first.gap), tb - ta, accuracy: 0.4)
        print(String(format: "compare pieces: 0–500 m  piece 1 %.2f s (truth %.2f), piece 2 %.2f s (truth %.2f), rates %.2f / %.2f spm",
                     first.a.elapsed ?? .nan, ta, first.b.elapsed ?? .nan, tb, first.a.rate ?? .nan, first.b.rate ?? .nan))
        // A piece it does not have, a session that is not there, a malformed piece.
        XCTAssertThrowsError(try compare("last:1", "last:3")) { error in
            XCTAssertEqual((error as? SessionComparison.Failure)?.kind, .notFound)
            XCTAssertTrue("\(error)".contains("has 2 pieces"), "\(error)")
            XCTAssertTrue("\(error)".contains("no piece 3"), "\(error)")
        }
        XCTAssertThrowsError(try compare("last", "2027-01")) { error in
            XCTAssertEqual((error as? SessionComparison.Failure)?.kind, .notFound)
            XCTAssertTrue("\(error)".contains("no session 2027-01"), "\(error)")
        }
        XCTAssertThrowsError(try CompareReference("last:0"))
        XCTAssertThrowsError(try CompareReference("last:x"))
        XCTAssertThrowsError(try CompareReference(":2"))
        XCTAssertEqual(try CompareReference("2026-05-02T07-00-00Z_at-24:12"), CompareReference(session: "2026-05-02T07-00-00Z_at-24", piece: 12))
    }

    /// No accelerometer: strokes and rate are nil (null in the JSON, "—" in the table), never 0;
    /// the times are there. No GPS: no comparison, said so.
    func testNoAccelerometerGivesNoStrokesAndNoGPSNoComparison() throws {
        try outing("With", minutes: 4, rate: 24, day: 4, seed: 4)
        try outing("GPS only", minutes: 4, rate: 26, day: 5, seed: 5, accelerometer: false)
        let c = try compare("2026-05-04", "2026-05-05")
        XCTAssertEqual(c.b.title, "GPS only")
        XCTAssertFalse(c.b.strokesKnown)
        for s in c.segments {
            XCTAssertNil(s.b.strokes)
            XCTAssertNil(s.b.rate)
            XCTAssertNotNil(s.b.time)
            XCTAssertNotNil(s.gap)
            XCTAssertEqual(try XCTUnwrap(s.a.rate), 24, accuracy: 0.3, s.label)
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(c.json(trailPoints: 50).utf8)) as? [String: Any])
        let segments = try XCTUnwrap(json["segments"] as? [[String: Any]])
        XCTAssertTrue((segments[0]["b"] as? [String: Any])?["strokes"] is NSNull)
        XCTAssertTrue((segments[0]["b"] as? [String: Any])?["rate_spm"] is NSNull)
        XCTAssertTrue((json["b"] as? [String: Any])?["strokes"] is NSNull)
        XCTAssertEqual((segments[0]["a"] as? [String: Any])?["strokes"] as? Int, c.segments[0].a.strokes)
        // With trail points: each side's trail, thinned to 50, starting at 0 m and 0 s.
        let trail = try XCTUnwrap((json["a"] as? [String: Any])?["trail"] as? [String: Any])
        XCTAssertEqual(trail["points"] as? Int, 50)
        XCTAssertEqual((trail["distance_m"] as? [Double])?.first, 0)
        XCTAssertEqual((trail["t_s"] as? [Double])?.first, 0)
        XCTAssertEqual((trail["distance_m"] as? [Double])?.last ?? 0, c.a.distance, accuracy: 0.05)
        let row = try XCTUnwrap(c.table().split(separator: "\n").first { $0.hasPrefix("0–500 m") })
        let cells = row.split(separator: " ", omittingEmptySubsequences: true)
        XCTAssertEqual(cells.filter { $0 == "—" }.count, 2, "B's rate and strokes: \(row)")

        try outing("No GPS", minutes: 2, rate: 24, day: 6, seed: 6, gps: false)
        XCTAssertThrowsError(try compare("2026-05-04", "2026-05-06")) { error in
            XCTAssertEqual((error as? SessionComparison.Failure)?.kind, .unusable)
            XCTAssertTrue("\(error)".contains("has no GPS track"), "\(error)")
        }
    }

    /// With a course: the legs between its gates, each side's time from its own crossings.
    func testCourseLegs() throws {
        let slow = try outing("At 20", minutes: 7, rate: 20, day: 12, seed: 12)
        let fast = try outing("At 28", minutes: 6, rate: 28, day: 13, seed: 13)
        // A straight 1,000 m course along the simulator's heading, its start 100 m from where both start.
        let start = Geodesy.destination(from: GeoPoint(latitude: 51.4873, longitude: -0.2241), distance: 100, bearing: 92.5)
        let course = StraightCourse(start: start, heading: 92.5, length: 1000, markerInterval: 250, name: "Test lane")
        let file = try FenceFile.parse(course.geoJSON())
        let c = try compare("2026-05-12", "2026-05-13", fences: file)
        XCTAssertNil(c.segmentLength)
        XCTAssertEqual(c.courseName, "Test lane")
        XCTAssertEqual(c.segments.map(\.label), ["Start → 250 m", "250 m → 500 m", "500 m → 750 m", "750 m → Finish"])
        XCTAssertEqual(c.segments.map(\.distance), [250, 250, 250, 250])
        // Each side's start is its start-line crossing: the truth's time at 100 m (the gate placed
        // 100 m along).
        func truthTime(_ truth: Truth, _ metres: Metres) -> Seconds { truth.time(at: metres / scale) }
        XCTAssertEqual(c.a.from, truthTime(slow, 100), accuracy: 0.1)
        XCTAssertEqual(c.b.from, truthTime(fast, 100), accuracy: 0.1)
        for s in c.segments {
            let ta = truthTime(slow, 100 + s.to) - truthTime(slow, 100), tb = truthTime(fast, 100 + s.to) - truthTime(fast, 100)
            XCTAssertEqual(try XCTUnwrap(s.a.elapsed), ta, accuracy: ta * 0.0005 + 0.1, s.label)
            XCTAssertEqual(try XCTUnwrap(s.b.elapsed), tb, accuracy: tb * 0.0005 + 0.1, s.label)
            XCTAssertEqual(try XCTUnwrap(s.gap), tb - ta, accuracy: ta * 0.0005 + 0.1, s.label)
            XCTAssertEqual(try XCTUnwrap(s.a.rate), 20, accuracy: 0.3)
            XCTAssertEqual(try XCTUnwrap(s.b.rate), 28, accuracy: 0.3)
            print(String(format: "compare course: %@  A %.2f s (truth %.2f)  B %.2f s (truth %.2f)", s.label, s.a.elapsed ?? .nan, ta, s.b.elapsed ?? .nan, tb))
        }
        XCTAssertEqual(c.a.to - c.a.from, try XCTUnwrap(c.segments.last?.a.elapsed), accuracy: 1e-9)
        // A course never rowed: the NK logbook's, in the Netherlands.
        let nk = try FenceFile.load(path: try samplePath("nk-course.geojson"))
        XCTAssertThrowsError(try compare("2026-05-12", "2026-05-13", fences: nk)) { error in
            XCTAssertEqual((error as? SessionComparison.Failure)?.kind, .unusable)
            XCTAssertTrue("\(error)".contains("never rowed the course"), "\(error)")
        }
    }

    /// A whole session runs from when the boat moves off to when it stops: the wait at the
    /// landing stage before and after is not part of the row.
    func testAWholeSessionFromMovingOffToStopping() throws {
        let truth = try outing("Wait first", minutes: 6, profile: "90:rest,180:24,90:rest", day: 20, seed: 20)
        let c = try compare("last", "last")
        let firstCatch = try XCTUnwrap(truth.catches.first), lastCatch = try XCTUnwrap(truth.catches.last)
        // Off within a fix of the first catch; stopped after the last stroke's glide, well before the end (360 s).
        XCTAssertEqual(c.a.from, firstCatch, accuracy: 1.5)
        XCTAssertGreaterThan(c.a.to, lastCatch)
        XCTAssertLessThan(c.a.to, lastCatch + 45)
        print(String(format: "compare: moving off at %.1f s (first catch %.2f), stopped at %.1f s (last catch %.2f)", c.a.from, firstCatch, c.a.to, lastCatch))
        // The same side twice: level at every mark.
        XCTAssertEqual(c.segments.compactMap(\.gap), Array(repeating: 0, count: c.segments.count))
        XCTAssertEqual(try XCTUnwrap(c.segments.first?.a.elapsed), try XCTUnwrap(c.segments.first?.a.time))
        XCTAssertEqual(SessionComparison.gapText(c.segments.first?.gap), "level")
    }

    /// The stroke count at a time: whole cycles, the one under way as a fraction.
    func testStrokesRowed() {
        let catches: [Seconds] = [10, 12, 14, 16, 40, 43]
        XCTAssertEqual(SessionComparison.strokesRowed(catches, by: 5), 0)
        XCTAssertEqual(SessionComparison.strokesRowed(catches, by: 11), 0.5, accuracy: 1e-9)
        XCTAssertEqual(SessionComparison.strokesRowed(catches, by: 12), 1, accuracy: 1e-9)
        XCTAssertEqual(SessionComparison.strokesRowed(catches, by: 17), 3.5, accuracy: 1e-9, "the last of a run lasts as the one before")
        XCTAssertEqual(SessionComparison.strokesRowed(catches, by: 30), 4, accuracy: 1e-9, "a rest is not a stroke")
        XCTAssertEqual(SessionComparison.strokesRowed(catches, by: 41.5), 4.5, accuracy: 1e-9)
        XCTAssertEqual(SessionComparison.catches(catches, before: 16), 3)
        XCTAssertEqual(SessionComparison.catches(catches, before: 16.01), 4)
    }
}
