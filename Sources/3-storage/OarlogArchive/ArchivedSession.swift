import OarlogCore

/// One session file as the archive's index holds it: what `oarlog sessions` lists and filters
/// on, read from the file once and kept until the file changes (its size or modification time).
/// The file stays the source of truth; this is a copy of what it says.
public struct ArchivedSession: Sendable, Equatable {
    /// The file name without `.oarlog`.
    public var id: String
    public var path: String
    /// The file's identity when it was read: a different size or modification time means read it again.
    public var sizeBytes: Int
    public var modifiedNanoseconds: Int64
    /// Why the file (or part of it) could not be read; nil for a sound file. A damaged file is
    /// still listed, with what could be read.
    public var damage: String?

    public var title: String
    /// The boat, when the recording named one (metadata `boat`); empty otherwise.
    public var boat: String
    public var startUTC: Double?
    public var elapsed: Seconds?
    public var distance: Metres?
    /// Nil when the session had neither an accelerometer nor a device's strokes ("no data", not 0).
    public var strokes: Int?
    public var averageRate: StrokesPerMinute?
    public var averageSplit: SecondsPer500m?
    /// The file has its index and footer (it was closed normally).
    public var closed: Bool

    /// The notes' texts, in time order (edits applied).
    public var notes: [String]
    /// The courses timed in it (the `course.piece` events' course names).
    public var courses: [String]
    /// The names of the places it went: the geofences it entered and the gates it crossed.
    public var places: [String]
    /// Its first GPS fix; nil without GPS.
    public var start: GeoPoint?
    /// The box around its GPS track; nil without GPS.
    public var bounds: GeoBounds?
    /// How many pieces (course legs, or runs of rowing between rests) and the pieces' JSON.
    public var pieceCount: Int
    public var piecesJSON: String?
    /// Its best performance of each standard event (see `ArchivedBest`).
    public var bests: [ArchivedBest]
    /// What identifies the file it was imported from (`oarlog import`: the device and its start,
    /// or the file's content); nil for a session not imported.
    public var importKey: String?

    public init(id: String, path: String, sizeBytes: Int, modifiedNanoseconds: Int64, damage: String? = nil, title: String = "",
                boat: String = "", startUTC: Double? = nil, elapsed: Seconds? = nil, distance: Metres? = nil, strokes: Int? = nil,
                averageRate: StrokesPerMinute? = nil, averageSplit: SecondsPer500m? = nil, closed: Bool = false,
                notes: [String] = [], courses: [String] = [], places: [String] = [], start: GeoPoint? = nil,
                bounds: GeoBounds? = nil, pieceCount: Int = 0, piecesJSON: String? = nil, bests: [ArchivedBest] = [],
                importKey: String? = nil) {
        self.id = id
        self.path = path
        self.sizeBytes = sizeBytes
        self.modifiedNanoseconds = modifiedNanoseconds
        self.damage = damage
        self.title = title
        self.boat = boat
        self.startUTC = startUTC
        self.elapsed = elapsed
        self.distance = distance
        self.strokes = strokes
        self.averageRate = averageRate
        self.averageSplit = averageSplit
        self.closed = closed
        self.notes = notes
        self.courses = courses
        self.places = places
        self.start = start
        self.bounds = bounds
        self.pieceCount = pieceCount
        self.piecesJSON = piecesJSON
        self.bests = bests
        self.importKey = importKey
    }
}

/// A latitude/longitude box.
public struct GeoBounds: Sendable, Equatable {
    public var south: Degrees
    public var north: Degrees
    public var west: Degrees
    public var east: Degrees

    public init(south: Degrees, north: Degrees, west: Degrees, east: Degrees) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
    }

    /// The smallest box holding every point; nil for none.
    public init?(around points: some Sequence<GeoPoint>) {
        var box: GeoBounds?
        for p in points {
            guard var b = box else {
                box = GeoBounds(south: p.latitude, north: p.latitude, west: p.longitude, east: p.longitude)
                continue
            }
            b.south = min(b.south, p.latitude)
            b.north = max(b.north, p.latitude)
            b.west = min(b.west, p.longitude)
            b.east = max(b.east, p.longitude)
            box = b
        }
        guard let box else { return nil }
        self = box
    }

    /// The point of the box nearest to `p` (`p` itself when inside).
    public func nearestPoint(to p: GeoPoint) -> GeoPoint {
        GeoPoint(latitude: min(max(p.latitude, south), north), longitude: min(max(p.longitude, west), east))
    }
}

/// One session's best performance of one standard event (`PersonalBests` finds them): the
/// fastest time over a distance or the most metres in a time, and where in the session it began.
public struct ArchivedBest: Sendable, Equatable {
    /// `distance:500` … `distance:6000`, `duration:60` … `duration:1800`.
    public var event: String
    public var time: Seconds
    public var metres: Metres
    /// Seconds into the session where the window began.
    public var start: Seconds

    public init(event: String, time: Seconds, metres: Metres, start: Seconds) {
        self.event = event
        self.time = time
        self.metres = metres
        self.start = start
    }
}

/// A best with the session it belongs to, as the index answers "every session's bests".
public struct SessionBest: Sendable, Equatable {
    public var best: ArchivedBest
    public var session: String
    public var sessionStartUTC: Double
    public var boat: String
}
