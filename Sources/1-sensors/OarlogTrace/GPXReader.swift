import OarlogCore

/// Reads a GPX 1.0/1.1 track as apps and devices write it (Strava, Garmin, Oarlog's own export):
/// the points of every track segment, with Garmin's TrackPointExtension (v1/v2: `hr`; v2:
/// `speed`), GPX 1.0's `speed`, `ele`, `sat` and `fix`.
///
/// - A track whose `type` is clearly another sport (`running`, `ride`, `cycling`, `hiking`, …)
///   is refused unless `TraceOpenOptions.anySport`; a number (older Strava files) or no type is
///   read.
/// - Metadata first: `source_format`, `start_utc`, `session_name` (`metadata/name`, else the
///   first track's name), `device` (the `creator` attribute), `activity_sport` (the first track
///   type). The start is `metadata/time` (GPX 1.0: `gpx/time`) when it is at most an hour before
///   the first point (Oarlog and Strava write the session's start there; the schema calls it the
///   file's creation time, which some apps write after the recording), else the first point's
///   time; the records' times are seconds from it.
/// - Then per track point: a `.note` ("Segment n", counting the segments with points) where a
///   segment starts when there are several, a `.gap` of the GPS where points are more than 30 s apart, a `.fix` (position,
///   UTC, altitude, speed, satellites, fix mode; `fix` "none" gives no fix) and a `.heartRate`.
///
/// Not delivered: `cad` (in a rowing file the stroke rate, a per-second figure, not strokes: a
/// `.reference` counts as a device stroke in a trace without an accelerometer), `hdop`,
/// routes and waypoints. A point without a position gives no fix (`noPosition`), without a
/// usable time it is skipped (`unusableRow`), earlier than the one before (`timeWentBackward`).
/// Values beyond their physical bound are unknown and counted (`droppedValues`). Bounds:
/// `XMLScanner.Limits` and `XMLTrackLimits`.
public struct GPXReader: RecordSource, TraceStatisticsReporting {
    public let path: String
    private var replay: XMLTrackReplay
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }

    /// How long before the first point `metadata/time` may be and still be the session's start.
    static let maxStartLead_s = 3600.0

    public init(path: String, options: TraceOpenOptions = TraceOpenOptions()) throws {
        self.path = path
        let document = try GPXDocument(path: path, options: options, counts: &counts)
        counts.linesRead = document.linesRead
        let points = document.points.points
        var origin = points[0].utc
        if let start = document.startUTC, start <= origin, origin - start <= Self.maxStartLead_s { origin = start }
        var metadata: [(String, String)] = [("source_format", "GPX " + (document.version ?? "")),
                                            ("start_utc", UTCTime.iso8601(origin))]
        if let name = document.name, !name.isEmpty { metadata.append(("session_name", name)) }
        if let creator = document.creator, !creator.isEmpty { metadata.append(("device", creator)) }
        if let type = document.firstType, !type.isEmpty { metadata.append(("activity_sport", type)) }
        let note: ((Int) -> String)? = document.segments > 1 ? { "Segment \($0 + 1)" } : nil
        replay = XMLTrackReplay(metadata: metadata.map { .metadata(key: $0.0, value: $0.1) }, points: points,
                                origin: origin, partNote: note)
    }

    public mutating func next() throws -> TraceRecord? { replay.next(counting: &counts) }

    /// An XML document whose root is `gpx`.
    static func recognises(lines: [String]) -> Bool {
        lines.prefix(40).contains { $0.contains("<gpx") }
    }
}
