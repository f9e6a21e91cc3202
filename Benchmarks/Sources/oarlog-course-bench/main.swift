// Course attempts at scale: `oarlog-course-bench DIR [N]` fills DIR/sessions with N simulated
// outings (once; kept for later runs) — a third rowing up a 2 km course from 150 m before its
// start, a third rowing down it from beyond its finish (the wrong way), a third elsewhere on the
// same water — then, in this process:
//   - adds the course (a new geometry key each run: nothing searched before) and times the search
//     of every kept session (`SessionStore.addCourse`), and its peak RSS;
//   - asks the leaderboard again (everything searched: the index answers);
//   - beside them, the peers: every file read and searched without the index's box test, and the
//     whole pipeline replayed over a sample of sessions (what `oarlog course` over each costs).
#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import OarlogApp
import OarlogCore
import OarlogFences
import OarlogPipeline
import OarlogSession
import OarlogSimulator
import OarlogTrace

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: oarlog-course-bench DIR [SESSIONS]")
    exit(64)
}
let root = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
let directory = SessionDirectory(path: root + "/sessions")
try directory.createIfNeeded()

func now() -> Double { BenchProcess.now() }
func peakRSSMegabytes() -> Double { BenchProcess.peakRSSMegabytes() }
func resetPeakRSS() { BenchProcess.resetPeakRSS() }

func f1(_ x: Double) -> String { DecimalText.fixed(x, places: 1, nonFinite: "-") }

// The course: 2 km on the Twente canal's line (north-west), gates 30 m wide every 500 m.
let courseStart = GeoPoint(latitude: 52.2246, longitude: 6.8522)
let heading: Degrees = 315
let boats = ["Eight", "Four", "Pair", "Single"]

// MARK: The sessions (made once)

let existing = try SessionArchive.sessionFileCount(directory)
if existing < count {
    let start = now()
    let scratch = root + "/trace.csv"
    for k in existing..<count {
        // 12–20 minutes at 20–31 spm, 50 Hz, 1 Hz GPS, a little noise.
        var c = SimulationConfiguration(minutes: 12 + Double(k % 9), rate: 20 + Double(k % 12)).withNoise(scale: 0.5)
        c.accelRate = 50
        c.gpsDropoutsPerHour = 0
        c.seed = UInt64(k + 1)
        c.startUTC = UTCTime.epochSeconds(year: 2025, month: 1, day: 1) + Double(k) * 8 * 3600
        switch k % 3 {
        case 0:  // up the course from 150 m before the start
            let p = Geodesy.destination(from: courseStart, distance: 150, bearing: heading + 180)
            (c.startLatitude, c.startLongitude, c.heading) = (p.latitude, p.longitude, heading)
        case 1:  // down it from 150 m beyond the finish: the wrong way
            let p = Geodesy.destination(from: courseStart, distance: 2150, bearing: heading)
            (c.startLatitude, c.startLongitude, c.heading) = (p.latitude, p.longitude, heading + 180)
        default:  // elsewhere on the water, 3 km south-east
            let p = Geodesy.destination(from: courseStart, distance: 3000 + Double(k % 5) * 200, bearing: 135)
            (c.startLatitude, c.startLongitude, c.heading) = (p.latitude, p.longitude, Double(k * 37 % 360))
        }
        var simulator = try BoatSimulator(configuration: c, truthRetention: .recent(4))
        var trace = try TraceWriter(path: scratch, metadata: [])
        _ = try simulator.run { try trace.write($0) }
        try trace.close()
        var replay = try TraceReplay(path: scratch)
        let writer = try SessionSaving.replayWriter(for: replay.input, title: "outing \(k)", boat: boats[k % boats.count],
                                                    settings: .defaults, directory: directory)
        _ = try replay.run(sinks: [], saveTo: writer)
        if k % 100 == 99 { print("made \(k + 1) sessions (\(String(format: "%.0f", now() - start)) s)") }
    }
    unlink(scratch)
}

// MARK: The search

let store = SessionStore(sessionsPath: directory.path)
var archive = try SessionArchive(directory)  // the index up to date first: not part of the search
print("sessions: \(try archive.index.count()), index synced")
for course in try store.courses.list() { try store.removeCourse(name: course.name) }
// A fresh geometry key each run (the course nudged by a millimetre), so nothing was searched before.
let nudge = Double(Int(now()) % 1000) * 1e-9
let text = StraightCourse(start: GeoPoint(latitude: courseStart.latitude + nudge, longitude: courseStart.longitude), heading: heading,
                          length: 2000, name: "bench 2k").geoJSON()
resetPeakRSS()
let t0 = now()
let added = try store.addCourse(name: "bench 2k", geoJSON: text)
let searchSeconds = now() - t0
print("new course searched in \(count) sessions: \(added.sessionsSearched) read, \(added.attempts.count) attempts, "
      + "\(String(format: "%.2f", searchSeconds)) s, peak RSS \(f1(peakRSSMegabytes())) MB")
let t1 = now()
let board = try store.attempts(course: "bench 2k")
print("leaderboard again (all searched): \(board.count) attempts in \(String(format: "%.1f", (now() - t1) * 1000)) ms; "
      + "fastest \(RowingFormat.duration(board.first?.time ?? 0)), slowest \(RowingFormat.duration(board.last?.time ?? 0))")

// MARK: Peers

let file = try FenceFile.parse(text)
let listing = try directory.list()
let t2 = now()
var scanned = 0
for entry in listing {
    let reader = try SessionReader(path: entry.path)
    let strokes = try reader.strokes(onDamage: .skipDamagedChunks).map {
        CourseSearch.Stroke(catchTime: $0.stroke.catchTime, rate: $0.stroke.strokeRate ?? $0.smoothedRate)
    }
    scanned += CourseSearch.passages(of: file, fixes: try reader.fixes(), strokes: strokes).count
}
print("peer: every file read and searched (no box test): \(scanned) attempts, \(String(format: "%.2f", now() - t2)) s")
let sample = Array(listing.prefix(30))
let t3 = now()
var replayed = 0
for entry in sample {
    let replay = SessionReplay(try SessionReader(path: entry.path))
    let table = CourseTable { _ in }
    var pipeline = try RowingPipeline.make(settings: replay.settings, sinks: [table], fences: file)
    var source = try replay.records()
    _ = try pipeline.run(&source)
    replayed += table.pieces.count
}
let perSession = (now() - t3) / Double(sample.count)
print("peer: the whole pipeline replayed (oarlog course over a session): \(replayed) pieces in \(sample.count) sessions, "
      + "\(String(format: "%.0f", perSession * 1000)) ms a session, \(String(format: "%.0f", perSession * Double(count))) s for \(count)")
