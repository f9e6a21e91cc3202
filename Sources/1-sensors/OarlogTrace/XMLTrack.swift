import OarlogCore

/// One point of a track as a TCX or GPX file gives it, held compactly until the file is read.
struct XMLTrackPoint {
    /// Seconds since 1970 (UTC).
    var utc: Double
    /// Both nil when the point has no (usable) position.
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var speed: Double?
    var heartRate: Double?
    var satellites: Int?
    var mode: FixMode = .unknown
    /// The device's own cumulative distance at the point (TCX `DistanceMeters`), metres.
    var distance: Double? = nil
    /// The lap (TCX) or track segment (GPX) the point belongs to, from 0.
    var part: Int
    /// The line of the point's start tag.
    var line: Int
}

/// Bounds of the XML track readers beyond the scanner's.
enum XMLTrackLimits {
    /// Most track points kept from one file: 1,000,000 (11 days at one a second; a week of
    /// recording at 1 Hz is 604,800), about 100 MB held.
    static let maxPoints = 1_000_000
    /// Longest text of one element the readers keep: 4 KiB (a number, a time, a name, a note).
    static let maxTextBytes = 4096
    /// Longest lap note carried into a `.note`: 200 characters.
    static let maxNoteCharacters = 200
    /// Points further apart than this, seconds, are a `.gap` of the GPS: the recording paused
    /// (an auto-pause, the rest an interval app cut out, the break between laps). Receivers and
    /// "smart recording" store a point at least every few seconds while moving.
    static let gapSeconds = 30.0
}

/// Text values as TCX and GPX write them.
enum XMLValues {
    /// A number (decimal, optionally with an exponent), surrounded by white space or not; nil
    /// for anything else, NaN or an infinity.
    static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64,
              trimmed.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 45 || $0 == 43 || $0 == 101 || $0 == 69 }),
              let v = Double(trimmed), v.isFinite else { return nil }
        return v
    }

    /// An `xsd:dateTime` (`2016-04-02T10:15:08+02:00`, `…Z`, `2015-10-17T12:45:55`, with any
    /// fraction of a second) as seconds since 1970 in UTC, and whether the text named its zone
    /// (a time without one is read as UTC, as Garmin's schema has it). nil if it is no time.
    static func time(_ text: String) -> (utc: Double, zoned: Bool)? {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.utf8.count <= 64, let utc = UTCTime.parseISO8601(trimmed), utc.isFinite else { return nil }
        let tail = trimmed.utf8.dropFirst(19).drop { ($0 >= 48 && $0 <= 57) || $0 == 46 }
        return (utc, !tail.isEmpty)
    }
}

/// Turns the points of a TCX or GPX file into trace records, in time order: the metadata, then
/// per point a `.note` where a new lap or segment starts (when there are several), a `.gap` of
/// the GPS where the points are more than `XMLTrackLimits.gapSeconds` apart, a `.fix` when the
/// point has a position, and a `.heartRate` when it has a plausible one. Times are seconds since
/// `origin` (seconds since 1970); a point more than 7 days after it is skipped
/// (`implausibleValue`).
struct XMLTrackReplay {
    private var metadata: [TraceRecord]
    private var metadataIndex = 0
    private let points: [XMLTrackPoint]
    private var pointIndex = 0
    private let origin: Double
    /// The note text at the start of a part, or nil for no notes.
    private let partNote: ((Int) -> String)?
    private var pending: [TraceRecord] = []
    private var pendingIndex = 0
    private var lastTime: Double?
    private var lastPart: Int?
    /// The device's own distance at the last point that had one.
    private var lastDistance: Double?

    init(metadata: [TraceRecord], points: [XMLTrackPoint], origin: Double, partNote: ((Int) -> String)?) {
        self.metadata = metadata
        self.points = points
        self.origin = origin
        self.partNote = partNote
    }

    mutating func next(counting counts: inout TraceReadStatistics) -> TraceRecord? {
        if metadataIndex < metadata.count {
            metadataIndex += 1
            counts.metadataRecords += 1
            return metadata[metadataIndex - 1]
        }
        while pendingIndex >= pending.count {
            guard pointIndex < points.count else { return nil }
            var out = pending
            out.removeAll(keepingCapacity: true)
            pending = []
            pendingIndex = 0
            records(of: points[pointIndex], into: &out, counting: &counts)
            pending = out
            pointIndex += 1
        }
        pendingIndex += 1
        let record = pending[pendingIndex - 1]
        counts.count(record)
        return record
    }

    private mutating func records(of p: XMLTrackPoint, into out: inout [TraceRecord], counting counts: inout TraceReadStatistics) {
        let t = p.utc - origin
        guard TraceLimits.plausibleSessionTime(t) else {
            counts.recordSkip(.implausibleValue, line: p.line)
            return
        }
        // The gap starts at the last point, before the note at this one: records stay in time order.
        if let last = lastTime, t - last > XMLTrackLimits.gapSeconds {
            // An app writes a track point every second or so while it records: a silence this long
            // is a pause (a rest between pieces, the app's auto-pause), and the boat moved in it
            // unrecorded, so the track is not joined across it.
            // What the device itself counted across it (its distance from the last point to this
            // one: the start of a piece before its first point) is kept.
            let across = p.distance.flatMap { d in lastDistance.map { d - $0 } }.flatMap { $0 >= 0 && $0 <= 1_000 ? $0 : nil }
            out.append(.gap(Gap(sensor: .gps, start: last, end: t,
                                reason: "no track points for \(Int((t - last).rounded())) s: the recording paused",
                                breaksTrack: true, deviceDistance: across)))
        }
        if let partNote, p.part != lastPart {
            out.append(.note(Note(time: t, text: partNote(p.part))))
        }
        lastPart = p.part
        lastTime = t
        if let d = p.distance { lastDistance = d }
        if let lat = p.latitude, let lon = p.longitude {
            out.append(.fix(GPSFix(time: t, utc: p.utc, latitude: lat, longitude: lon, speed: p.speed,
                                   altitude: p.altitude, mode: p.mode, satellitesUsed: p.satellites)))
        } else {
            counts.recordSkip(.noPosition, line: p.line)
        }
        if let bpm = p.heartRate { out.append(.heartRate(HeartRateSample(time: t, bpm: bpm))) }
    }
}

/// What the readers keep of an element's text while it is open: bounded.
struct XMLTextCollector {
    private(set) var text = ""

    mutating func reset() { text = "" }

    mutating func append(_ more: String) {
        guard text.utf8.count < XMLTrackLimits.maxTextBytes else { return }
        text += more
    }
}

/// Keeps a track's points in time order, within bounds: a point without a usable time or
/// earlier than the one before it is skipped and counted.
struct XMLPointCollector {
    private(set) var points: [XMLTrackPoint] = []
    let path: String

    init(path: String) { self.path = path }

    mutating func add(_ point: XMLTrackPoint, counts: inout TraceReadStatistics) throws {
        if let last = points.last, point.utc < last.utc {
            counts.recordSkip(.timeWentBackward, line: point.line)
            return
        }
        guard points.count < XMLTrackLimits.maxPoints else {
            throw TraceError(.tooLarge, file: path, line: point.line,
                             "more than \(XMLTrackLimits.maxPoints) track points, the most this reader holds: split the file")
        }
        points.append(point)
    }
}

extension PlausibleValues {
    /// A latitude and longitude both within range and not the 0,0 placeholder, else nil (and
    /// counted when present but out of range).
    mutating func position(_ lat: Double?, _ lon: Double?) -> (Double, Double)? {
        guard let lat, let lon else { return nil }
        guard let la = within(lat, -90...90), let lo = within(lon, -180...180), !(la == 0 && lo == 0) else { return nil }
        return (la, lo)
    }
}
