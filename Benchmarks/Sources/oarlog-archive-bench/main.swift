// The archive at scale: `oarlog-archive-bench DIR [N]` fills DIR/sessions with N small simulated
// sessions (once; kept for later runs), then measures, in this process:
//   - the index built from nothing (deleted first), and its peak RSS;
//   - a re-sync when nothing changed (what every `oarlog sessions` pays first);
//   - searches and filters (each the median and the slowest of 20 runs), and the bests;
//   - beside them, the same answers without an index: every file's header and footer read
//     (`SessionDirectory.list`, what `oarlog sessions` did before) and every trail read for the bests.
#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import OarlogApp
import OarlogArchive
import OarlogCore
import OarlogSession
import OarlogSimulator
import OarlogTrace

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: oarlog-archive-bench DIR [SESSIONS]")
    exit(64)
}
let root = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
let directory = SessionDirectory(path: root + "/sessions")
try directory.createIfNeeded()

func now() -> Double { BenchProcess.now() }
func peakRSSMegabytes() -> Double { BenchProcess.peakRSSMegabytes() }
func resetPeakRSS() { BenchProcess.resetPeakRSS() }

// MARK: The sessions (made once)

let places = [("Putney", 51.4873, -0.2241), ("Henley", 51.5450, -0.9020), ("Cambridge", 52.2167, 0.1330),
              ("Twente", 52.2246, 6.8522), ("Lucerne", 47.0336, 8.3167)]
let words = ["bridge", "crab", "catch", "finish", "square", "ratio", "timing", "sprint", "steady", "drills"]
let boats = ["Eight", "Four", "Pair", "Single"]
let existing = try SessionArchive.sessionFileCount(directory)
if existing < count {
    let start = now()
    let scratch = root + "/trace.csv"
    for k in existing..<count {
        let place = places[k % places.count]
        var c = SimulationConfiguration(minutes: 1 + Double(k % 3), rate: 18 + Double(k % 17)).withNoise(scale: 0.5)
        c.accelRate = 25
        c.gpsDropoutsPerHour = 0
        c.seed = UInt64(k + 1)
        c.startLatitude = place.1 + Double(k % 7) * 0.001
        c.startLongitude = place.2
        c.heading = Double(k * 37 % 360)
        c.startUTC = UTCTime.epochSeconds(year: 2024, month: 1, day: 1) + Double(k) * 6 * 3600
        var simulator = try BoatSimulator(configuration: c, truthRetention: .recent(4))
        var trace = try TraceWriter(path: scratch, metadata: [])
        _ = try simulator.run { try trace.write($0) }
        try trace.close()
        var replay = try TraceReplay(path: scratch)
        let writer = try SessionSaving.replayWriter(for: replay.input, title: "\(place.0) \(words[k % words.count]) \(k)",
                                                    boat: boats[k % boats.count], settings: .defaults, directory: directory)
        let path = writer.path
        _ = try replay.run(sinks: [], saveTo: writer)
        if k % 3 == 0 {
            _ = try SessionAppend.append(notes: [Note(time: 30, text: "\(words[(k / 3) % words.count]) at the \(place.0) end")], to: path)
        }
        if k % 500 == 499 { print("made \(k + 1) sessions (\(String(format: "%.0f", now() - start)) s)") }
    }
    unlink(scratch)
}

// MARK: The index

func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let t0 = now()
    let value = try body()
    return (value, now() - t0)
}

func summary(_ label: String, runs: Int = 20, _ body: () throws -> Int) rethrows {
    var times: [Double] = []
    var found = 0
    for _ in 0..<runs {
        let (n, t) = try timed(body)
        times.append(t * 1000)
        found = n
    }
    times.sort()
    print("\(label): \(found) found, median \(String(format: "%.1f", times[times.count / 2])) ms, slowest \(String(format: "%.1f", times.last!)) ms")
}

let indexPath = directory.path + "/" + SessionArchive.indexFileName
for suffix in ["", "-wal", "-shm"] { unlink(indexPath + suffix) }
resetPeakRSS()
let rssBefore = peakRSSMegabytes()
let (built, buildSeconds) = try timed { try SessionArchive(directory) }
print("index built from nothing: \(built.lastSync.read) sessions in \(String(format: "%.1f", buildSeconds)) s, peak RSS \(String(format: "%.0f", peakRSSMegabytes())) MB (\(String(format: "%.0f", rssBefore)) MB before)")
let (_, resyncSeconds) = try timed { try SessionArchive(directory) }
print("re-sync, nothing changed: \(String(format: "%.0f", resyncSeconds * 1000)) ms")

let archive = built
func q(search: String? = nil, from: String? = nil, to: String? = nil, near: String? = nil, min: String? = nil, rate: String? = nil,
       boat: String? = nil, sort: String? = nil) throws -> SessionQuery {
    try SessionQuery(search: search, from: from, to: to, near: near, minimumDistance: min, rate: rate, boat: boat, sort: sort)
}
try summary("all, newest first") { try archive.sessions().count }
try summary("--search bridge") { try archive.sessions(q(search: "bridge")).count }
try summary("--search \"henley sprint\"") { try archive.sessions(q(search: "henley sprint")).count }
try summary("--from 2024-03-01 --to 2024-03-31") { try archive.sessions(q(from: "2024-03-01", to: "2024-03-31")).count }
try summary("--near 51.5450,-0.9020,2000") { try archive.sessions(q(near: "51.5450,-0.9020,2000")).count }
try summary("--min-distance 800 --sort split") { try archive.sessions(q(min: "800", sort: "split")).count }
try summary("--rate 28-32 --boat eight --sort distance") { try archive.sessions(q(rate: "28-32", boat: "eight", sort: "distance")).count }
try summary("the table of all (SessionList rows)") { try SessionList(archive: archive).rows().count }
try summary("bests (all events, progression)") {
    let bests = try PersonalBests(archive: archive)
    return PersonalBests.standardEvents.reduce(0) { $0 + bests.progression($1).count }
}
try summary("bests JSON") { try PersonalBests(archive: archive).json().utf8.count }

// MARK: Without an index

try summary("no index: every file's header and footer (SessionDirectory.list)", runs: 3) { try directory.list().count }
let (trailBests, scanSeconds) = try timed { () -> Int in
    var n = 0
    for listing in try directory.list() {
        let points = try SessionTrail(SessionReader(path: listing.path)).points
        n += PersonalBests.standardEvents.compactMap { PersonalBests.best($0, in: points) }.count
    }
    return n
}
print("no index: bests by reading every trail: \(trailBests) found, \(String(format: "%.1f", scanSeconds)) s")
