import Foundation
@testable import OarlogApp
import OarlogArchive
import OarlogCore
import OarlogFences
import OarlogSession
import OarlogSimulator
import OarlogTrace
import XCTest

/// The archive's index against a directory of simulated sessions with known titles, notes,
/// places, boats and dates: exact result sets for every filter and order, and the same answers
/// after the index is deleted, corrupted, or the files change behind its back.
final class SessionArchiveTests: XCTestCase {
    static let putney = GeoPoint(latitude: 51.4873, longitude: -0.2241)
    static let henley = GeoPoint(latitude: 51.5450, longitude: -0.9020)

    struct Outing {
        var title: String
        var date: String
        var place: GeoPoint
        var minutes: Double
        var rate: Double
        var boat: String = ""
        var notes: [String] = []
        /// A circular fence around the start with this name (its `fence.enter` is a place name).
        var area: String?
    }

    static let outings = [
        Outing(title: "Morning outing", date: "2026-05-02T07:00:00Z", place: putney, minutes: 4, rate: 20, boat: "Eight",
               notes: ["Rate up at the bridge"]),
        Outing(title: "Head race practice", date: "2026-05-05T08:00:00Z", place: henley, minutes: 6, rate: 30, boat: "Four",
               area: "Temple Island"),
        Outing(title: "Technical paddle", date: "2026-05-09T17:30:00Z", place: putney, minutes: 2, rate: 18, boat: "Eight",
               notes: ["Square blades", "Under Hammersmith Bridge again"]),
        Outing(title: "Sprint", date: "2026-06-01T06:15:00Z", place: henley, minutes: 3, rate: 34, boat: "Four"),
    ]

    /// Simulates and saves the outing (a real replay through the pipeline into a session file).
    static func save(_ o: Outing, in directory: SessionDirectory, scratch: String) throws -> String {
        var c = SimulationConfiguration(minutes: o.minutes, rate: o.rate).withNoise(scale: 0)
        c.accelRate = 25
        c.gpsRate = 1
        c.gpsDropoutsPerHour = 0
        c.startLatitude = o.place.latitude
        c.startLongitude = o.place.longitude
        c.startUTC = try XCTUnwrap(UTCTime.parseTypedUTC(o.date))
        var simulator = try BoatSimulator(configuration: c, truthRetention: .recent(8))
        let trace = scratch + "/\(o.title).csv"
        var writer = try TraceWriter(path: trace, metadata: [])
        _ = try simulator.run { try writer.write($0) }
        try writer.close()
        let fences = try o.area.map { name in
            try FenceFile.parse("""
                {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "\(name)", "radius_m": 300},
                 "geometry": {"type": "Point", "coordinates": [\(o.place.longitude), \(o.place.latitude)]}}]}
                """)
        }
        var replay = try TraceReplay(path: trace, fences: fences)
        let session = try SessionSaving.replayWriter(for: replay.input, title: o.title, boat: o.boat, settings: .defaults,
                                                     fences: fences, directory: directory)
        let path = session.path
        _ = try replay.run(sinks: [], saveTo: session)
        if !o.notes.isEmpty {
            _ = try SessionAppend.append(notes: o.notes.enumerated().map { Note(time: Double($0.offset * 30 + 20), text: $0.element) }, to: path)
        }
        return path
    }

    var temp: TemporarySessions!
    var ids: [String] = []

    override func setUpWithError() throws {
        temp = TemporarySessions()
        try temp.directory.createIfNeeded()
        ids = try Self.outings.map { try Self.save($0, in: temp.directory, scratch: temp.url.path) }
            .map { String($0.split(separator: "/").last!.dropLast(".oarlog".count)) }
    }

    override func tearDown() { temp.remove() }

    /// The titles the query finds, in its order.
    func titles(_ query: SessionQuery, _ archive: SessionArchive? = nil) throws -> [String] {
        try (archive ?? SessionArchive(temp.directory)).sessions(query).map(\.title)
    }

    func q(search: String? = nil, from: String? = nil, to: String? = nil, near: String? = nil, min: String? = nil, rate: String? = nil,
           boat: String? = nil, sort: String? = nil) throws -> SessionQuery {
        try SessionQuery(search: search, from: from, to: to, near: near, minimumDistance: min, rate: rate, boat: boat, sort: sort)
    }

    /// Every filter and order, as exact lists (newest first unless sorted otherwise).
    func answers(_ archive: SessionArchive) throws -> [String: [String]] {
        let distances = try archive.sessions().reduce(into: [String: Double]()) { $0[$1.title] = $1.distance }
        // A threshold between the two longest outings (6 min at 30 spm and whichever is next).
        let sorted = distances.values.sorted(by: >)
        let between = (sorted[0] + sorted[1]) / 2
        return [
            "all": try titles(SessionQuery(), archive),
            "bridge": try titles(q(search: "bridge"), archive),
            "BRIDGE hammer": try titles(q(search: "BRIDGE hammer"), archive),
            "temple": try titles(q(search: "temple"), archive),
            "head prac": try titles(q(search: "head prac"), archive),
            "May 3-31": try titles(q(from: "2026-05-03", to: "2026-05-31"), archive),
            "to May 9": try titles(q(to: "2026-05-09"), archive),
            "near Henley": try titles(q(near: "51.5450,-0.9020,1000"), archive),
            "near Putney 10 km": try titles(q(near: "51.4873,-0.2241,10000"), archive),
            "near nowhere": try titles(q(near: "52.0,1.0"), archive),
            "min distance": try titles(q(min: String(between)), archive),
            "rate 28-36": try titles(q(rate: "28-36"), archive),
            "rate 20": try titles(q(rate: "20"), archive),
            "boat eight": try titles(q(boat: "eight"), archive),
            "bridge since May 5": try titles(q(search: "bridge", from: "2026-05-05"), archive),
            "by distance": try titles(q(sort: "distance"), archive),
            "by split": try titles(q(sort: "split"), archive),
        ]
    }

    func testFiltersAndOrdersGiveExactSets() throws {
        let archive = try SessionArchive(temp.directory)
        XCTAssertEqual(archive.lastSync.read, 4)
        let all = try archive.sessions()
        for s in all { print("archive: \(s.title): \(s.distance ?? -1) m, rate \(s.averageRate ?? -1), split \(s.averageSplit ?? -1), places \(s.places)") }
        let a = try answers(archive)
        XCTAssertEqual(a["all"], ["Sprint", "Technical paddle", "Head race practice", "Morning outing"])
        XCTAssertEqual(a["bridge"], ["Technical paddle", "Morning outing"])
        XCTAssertEqual(a["BRIDGE hammer"], ["Technical paddle"], "every word, any case, word starts")
        XCTAssertEqual(a["temple"], ["Head race practice"], "a fence it entered is a place name")
        XCTAssertEqual(a["head prac"], ["Head race practice"])
        XCTAssertEqual(a["May 3-31"], ["Technical paddle", "Head race practice"])
        XCTAssertEqual(a["to May 9"], ["Technical paddle", "Head race practice", "Morning outing"], "--to includes its day")
        XCTAssertEqual(a["near Henley"], ["Sprint", "Head race practice"])
        XCTAssertEqual(a["near Putney 10 km"], ["Technical paddle", "Morning outing"])
        XCTAssertEqual(a["near nowhere"], [])
        XCTAssertEqual(a["min distance"], ["Head race practice"])
        XCTAssertEqual(a["rate 28-36"], ["Sprint", "Head race practice"])
        XCTAssertEqual(a["rate 20"], ["Morning outing"])
        XCTAssertEqual(a["boat eight"], ["Technical paddle", "Morning outing"])
        XCTAssertEqual(a["bridge since May 5"], ["Technical paddle"])
        XCTAssertEqual(a["by distance"]?.first, "Head race practice")
        XCTAssertEqual(a["by distance"]?.last, "Technical paddle")
        XCTAssertEqual(a["by split"]?.first, "Sprint", "34 spm is the fastest")
        XCTAssertEqual(a["by split"]?.last, "Technical paddle", "18 spm the slowest")
        // The orders hold along the whole list, not only at the ends.
        let byDistance = try archive.sessions(q(sort: "distance")).compactMap(\.distance)
        XCTAssertEqual(byDistance, byDistance.sorted(by: >))
        let bySplit = try archive.sessions(q(sort: "split")).compactMap(\.averageSplit)
        XCTAssertEqual(bySplit, bySplit.sorted())
        // The figures are those of the files (`oarlog show`).
        for s in all {
            let reader = try SessionReader(path: s.path)
            XCTAssertEqual(s.distance, reader.summary?.analysis?.distance)
            XCTAssertEqual(s.averageRate, reader.summary?.analysis?.averageStrokeRate)
            XCTAssertEqual(s.startUTC, reader.metadata.startUTC)
            XCTAssertEqual(s.boat, reader.metadata.boat)
        }
    }

    func testBadOptionsAreNamed() {
        func message(_ make: () throws -> SessionQuery) -> String {
            do { _ = try make(); return "accepted" } catch { return "\(error)" }
        }
        XCTAssertEqual(message { try self.q(from: "2026-13-01") }, "--from '2026-13-01': give a date YYYY-MM-DD or a UTC time YYYY-MM-DDTHH:MMZ")
        XCTAssertEqual(message { try self.q(from: "2026-05-10", to: "2026-05-01") }, "--to '2026-05-01': it is not after --from")
        XCTAssertTrue(message { try self.q(near: "51.5") }.hasPrefix("--near '51.5': give LAT,LON[,METRES]"))
        XCTAssertTrue(message { try self.q(near: "91,0") }.hasPrefix("--near '91,0'"))
        XCTAssertTrue(message { try self.q(near: "51,0,-5") }.hasPrefix("--near '51,0,-5': the radius"))
        XCTAssertTrue(message { try self.q(rate: "30-20") }.hasPrefix("--rate '30-20'"))
        XCTAssertTrue(message { try self.q(min: "far") }.hasPrefix("--min-distance 'far'"))
        XCTAssertEqual(message { try self.q(sort: "speed") }, "--sort 'speed': give date, distance or split")
        XCTAssertEqual(message { try self.q(search: "  ", sort: "SPLIT") }, "accepted")
    }

    /// Deleted, corrupted, or out of step with the files: the index answers as before.
    func testTheIndexIsRebuiltFromTheFiles() throws {
        let first = try answers(SessionArchive(temp.directory))
        let indexPath = temp.directory.path + "/" + SessionArchive.indexFileName
        XCTAssertTrue(FileManager.default.fileExists(atPath: indexPath))

        // Deleted: rebuilt, the same answers.
        try FileManager.default.removeItem(atPath: indexPath)
        var archive = try SessionArchive(temp.directory)
        XCTAssertEqual(archive.lastSync.read, 4)
        XCTAssertEqual(try answers(archive), first)

        // Nothing changed: nothing read again.
        archive = try SessionArchive(temp.directory)
        XCTAssertEqual(archive.lastSync, SessionArchive.SyncReport(read: 0, removed: 0, unchanged: 4))

        // Overwritten with garbage: started again, the same answers.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: indexPath + suffix) }
        try Data(repeating: 0x5A, count: 5000).write(to: URL(fileURLWithPath: indexPath))
        archive = try SessionArchive(temp.directory)
        XCTAssertEqual(archive.lastSync.read, 4)
        XCTAssertEqual(try answers(archive), first)

        // A corrupt session file appears: listed as damaged, the rest unchanged.
        let damaged = temp.directory.path + "/2026-05-20T07-00-00Z_damaged.oarlog"
        try Data("OARLOG but not really a session file".utf8).write(to: URL(fileURLWithPath: damaged))
        archive = try SessionArchive(temp.directory)
        XCTAssertEqual(archive.lastSync.read, 1)
        let listed = try archive.sessions()
        XCTAssertEqual(listed.count, 5)
        let bad = try XCTUnwrap(listed.first { $0.id == "2026-05-20T07-00-00Z_damaged" })
        XCTAssertNotNil(bad.damage)
        XCTAssertTrue(SessionList(sessions: listed).table().contains("oarlog recover 2026-05-20T07-00-00Z_damaged"))
        XCTAssertEqual(try titles(q(search: "bridge"), archive), first["bridge"])
        XCTAssertEqual(try titles(q(sort: "split"), archive).filter { !$0.isEmpty }, first["by split"])
        try FileManager.default.removeItem(atPath: damaged)

        // A file removed behind its back: gone from every answer.
        let morning = temp.directory.path + "/" + ids[0] + ".oarlog"
        let kept = temp.path("kept.oarlog")
        try FileManager.default.moveItem(atPath: morning, toPath: kept)
        archive = try SessionArchive(temp.directory)
        XCTAssertEqual(archive.lastSync.removed, 2, "the damaged file and the morning outing")
        XCTAssertEqual(try titles(q(search: "bridge"), archive), ["Technical paddle"])
        XCTAssertEqual(try titles(q(boat: "eight"), archive), ["Technical paddle"])

        // … and added back: the first answers again.
        try FileManager.default.moveItem(atPath: kept, toPath: morning)
        archive = try SessionArchive(temp.directory)
        XCTAssertEqual(try answers(archive), first)

        // A note added and a title changed (by any process): found at once.
        _ = try SessionAppend.append(notes: [Note(time: 100, text: "Crab at the boathouse")], to: morning)
        XCTAssertEqual(try titles(q(search: "crab")), ["Morning outing"])
        let sprint = temp.directory.path + "/" + ids[3] + ".oarlog"
        try SessionRetitle.retitle(sprint, to: "Final sprint 500m")
        XCTAssertEqual(try titles(q(search: "final")), ["Final sprint 500m"])
        XCTAssertEqual(try titles(q(search: "sprint")), ["Final sprint 500m"])
    }

    /// Personal bests come from the index: the same as computed from the files' trails.
    func testBestsFromTheIndexEqualTheTrails() throws {
        let bests = try PersonalBests(temp.directory)
        let best500 = try XCTUnwrap(bests.best(.distance(500)))
        var fastest = Double.infinity
        var fastestSession = ""
        for s in try SessionArchive(temp.directory).sessions() {
            let points = try SessionTrail(SessionReader(path: s.path)).points
            if let p = PersonalBests.best(.distance(500), in: points), p.time < fastest { (fastest, fastestSession) = (p.time, s.id) }
        }
        XCTAssertEqual(best500.performance.time, fastest, accuracy: 1e-9)
        XCTAssertEqual(best500.session, fastestSession)
        XCTAssertEqual(best500.session, ids[3], "the sprint at 34 spm")
        // One boat's bests: the Eight's fastest 500 m is the morning outing at 20 spm (the
        // technical paddle is 2 minutes at 18 spm: slower, if it reaches 500 m at all).
        let eight = try PersonalBests(temp.directory, boat: "Eight")
        XCTAssertEqual(eight.best(.distance(500))?.session, ids[0])
        XCTAssertTrue(eight.results.allSatisfy { $0.session == ids[0] || $0.session == ids[2] })
        XCTAssertNil(try PersonalBests(temp.directory, boat: "Single").best(.distance(500)))
    }
}
