import OarlogArchive
import OarlogCore
import OarlogReport
import OarlogSession

extension ArchivedSession {
    /// What the index keeps of a session file: its listing's figures (as `oarlog sessions` has
    /// always shown them), its notes, the courses and places in its events, where it started and
    /// the box around its track, its pieces and its bests. A file that cannot be read at all is
    /// kept with why; one damaged further in keeps what was read before the damage and says so.
    init(reading file: SessionArchive.SessionFile) {
        self.init(id: file.id, path: file.path, sizeBytes: file.sizeBytes, modifiedNanoseconds: file.modifiedNanoseconds)
        let listing = SessionListing(path: file.path)
        guard let metadata = listing.metadata else {
            damage = listing.error ?? "unreadable"
            return
        }
        title = metadata.title
        boat = metadata.boat
        startUTC = metadata.startUTC
        closed = listing.isComplete
        let analysis = listing.summary?.analysis
        elapsed = analysis?.elapsed ?? listing.summary?.statistics.duration
        distance = analysis?.distance
        strokes = SessionList.strokesKnown(listing) ? analysis?.strokes : nil
        averageRate = analysis?.averageStrokeRate
        averageSplit = analysis?.averageSplit
        do {
            let reader = try SessionReader(path: file.path)
            notes = try reader.notes(onDamage: .skipDamagedChunks).map(\.text)
            let events = try reader.events()
            courses = Self.distinct(events.filter { $0.name == "course.piece" }.compactMap { $0.field("course") })
            places = Self.distinct(events.compactMap { e in
                e.name == "fence.enter" ? e.field("fence") : e.name == "fence.cross" ? e.field("gate") : nil
            })
            if let place = try reader.startPlace() { start = GeoPoint(latitude: place.latitude, longitude: place.longitude) }
            let points = try SessionTrail(reader).points
            bounds = GeoBounds(around: points.lazy.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) })
            bests = PersonalBests.standardEvents.compactMap { event in
                PersonalBests.best(event, in: points).map {
                    ArchivedBest(event: event.key, time: $0.time, metres: $0.metres, start: $0.start)
                }
            }
            let pieces = SessionPieces(strokes: try reader.strokes(onDamage: .skipDamagedChunks), events: events)
            pieceCount = pieces.pieces.count
            piecesJSON = pieces.json()
        } catch {
            damage = "\(error)"
        }
    }

    static func distinct(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
