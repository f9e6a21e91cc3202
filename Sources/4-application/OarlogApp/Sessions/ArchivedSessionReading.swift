import OarlogArchive
import OarlogCore
import OarlogSession

extension ArchivedSession {
    /// What the index keeps of a session file: its listing's figures (as `oarlog sessions` has
    /// always shown them), its notes, the courses and places in its events, where it started and
    /// the box around its track, its pieces (a plan's intervals, a course's legs or the runs
    /// between rests) and its bests. A file that cannot be read at all is kept with why; one
    /// damaged further in keeps what was read before the damage and says so.
    init(reading file: SessionArchive.SessionFile) {
        self.init(id: file.id, path: file.path, sizeBytes: file.sizeBytes, modifiedNanoseconds: file.modifiedNanoseconds)
        let reader: SessionReader
        do { reader = try SessionReader(path: file.path) } catch {
            damage = "\(error)"
            return
        }
        let metadata = reader.metadata
        title = metadata.title
        boat = metadata.boat
        importKey = metadata.settings.last(where: { $0.key == ArchiveImport.keySetting })?.value
        startUTC = metadata.startUTC
        closed = reader.isComplete
        let analysis = reader.summary?.analysis
        elapsed = analysis?.elapsed ?? reader.summary?.statistics.duration
        distance = analysis?.distance
        strokes = Self.strokesKnown(reader.summary) ? analysis?.strokes : nil
        averageRate = analysis?.averageStrokeRate
        averageSplit = analysis?.averageSplit
        do {
            notes = try reader.notes(onDamage: .skipDamagedChunks).map(\.text)
            let events = try reader.events()
            courses = Self.distinct(events.filter { $0.name == "course.piece" }.compactMap { $0.field("course") })
            places = Self.distinct(events.compactMap { e in
                e.name == "fence.enter" ? e.field("fence") : e.name == "fence.cross" ? e.field("gate") : nil
            })
            start = try reader.startPlace()
            let points = try SessionTrail(reader).points
            bounds = GeoBounds(around: points.lazy.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) })
            bests = PersonalBests.standardEvents.compactMap { event in
                PersonalBests.best(event, in: points).map {
                    ArchivedBest(event: event.key, time: $0.time, metres: $0.metres, start: $0.start)
                }
            }
            let pieces = try SessionPieces.read(reader, strokes: try reader.strokes(onDamage: .skipDamagedChunks), events: events)
            pieceCount = pieces.pieces.count
            piecesJSON = pieces.json()
        } catch {
            damage = "\(error)"
        }
    }

    /// Strokes are "no data" when the session had neither an accelerometer nor a device's strokes.
    static func strokesKnown(_ summary: RecordedSummary?) -> Bool {
        guard let s = summary else { return false }
        return RowingFormat.strokesKnown(strokes: s.analysis?.strokes ?? 0, accelerometerSamples: s.statistics.accelerometerSamples,
                                         referenceStrokes: s.statistics.referenceStrokes)
    }

    static func distinct(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
