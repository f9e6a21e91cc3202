import ArgumentParser
import OarlogAPI
import OarlogApp
import OarlogCore
import OarlogFences
import OarlogTerminal

/// `oarlog compare A B [--interval K] [--course FILE] [--json]`: two outings, or two pieces, on
/// the same water side by side per 500 m (or per leg of a course), with the gap between them.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Two outings or pieces side by side per 500 m (or per course leg): time, split, rate, strokes and the gap.",
        discussion: """
            Each side — a whole session from when the boat moves off to when it stops, or one \
            of its pieces — is cut at every 500 m of its own GPS distance (the time at a mark \
            placed between the two fixes around it) up to the shorter side's end; the last segment may be \
            shorter (marked *). GAP is who is ahead at the segment's end and by how much (B's time \
            there minus A's); IN LEG is who gained in the segment. With --course, the segments are \
            the course's gate-to-gate legs, timed from each side's gate crossings (its first \
            complete passage from the start gate). "—" means no data (no accelerometer: no strokes \
            or rate).
            Examples:
              oarlog compare 2026-05-02T07 last
              oarlog compare last:2 last:3          (pieces 2 and 3 of the newest session)
              oarlog compare 2026-05-02T07 last --interval 3   (interval 3 of each one's plan)
              oarlog compare 2026-05-02T07 2026-05-09T07 --course henley.geojson --json
            """
    )

    @Argument(help: "Side A: a path, an id (or the start of one) in the data directory, or `last`; ID:K for its K-th piece (from 1, as on its page).")
    var a: String

    @Argument(help: "Side B, named as A.")
    var b: String

    @Option(help: "The K-th interval (from 1, pieces and rests as on the session page) of the plan each side rowed, for a side that names no piece of its own.")
    var interval: Int?

    @Option(help: "A GeoJSON course (as `oarlog course --fences` takes): compare leg by leg between its gates.")
    var course: String?

    @Flag(help: "Print one JSON object: `a`, `b` and `segments` (null where a side has no data).")
    var json = false

    func run() throws {
        let references: [CompareReference]
        if let interval, interval < 1 { throw ValidationError("--interval \(interval): intervals are counted from 1") }
        do {
            references = [try CompareReference(a), try CompareReference(b)].map { $0.defaultingToInterval(interval) }
        } catch { throw ValidationError("\(error)") }
        var fences: FenceFile?
        if let course {
            do { fences = try FenceFile.load(path: course) } catch { throw CommandFailure("\(error)") }
        }
        let comparison = try SessionStore.default.compare(references[0], references[1], fences: fences, exactIDs: false)
        StandardStreams.write(json ? comparison.json() + "\n" : comparison.table())
    }
}
