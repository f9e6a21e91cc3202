import OarlogCore

/// What the reader takes of a GPX 1.0 or 1.1 file: its start time and name, who wrote it, each
/// track's type, and the track points of every track segment in order. Read whole at open;
/// bounded by the scanner's limits and `XMLTrackLimits`.
struct GPXDocument {
    var version: String?
    var creator: String?
    /// `metadata/time` (1.1) or `gpx/time` (1.0), seconds since 1970.
    var startUTC: Double?
    var name: String?
    /// The first track's type.
    var firstType: String?
    var points: XMLPointCollector
    /// Track segments with points (a point's `part` is its segment's index among them).
    var segments = 0
    /// A segment started and has no point yet.
    private var segmentOpen = true
    var linesRead = 0

    /// Track types that are clearly not rowing (compared in lower case without spaces, `_` or
    /// `-`): what Strava, Garmin and other apps write for runs, rides, walks and hikes.
    static let otherSports: Set<String> = [
        "running", "run", "trailrunning", "treadmillrunning", "virtualrun", "cycling", "ride", "biking",
        "roadbiking", "mountainbiking", "virtualride", "ebikeride", "walking", "walk", "hiking", "hike",
    ]

    /// One track point while its element is open.
    private struct Draft {
        var latitude: Double?, longitude: Double?
        var time: String?
        var altitude: Double?, speed: Double?, heartRate: Double?
        var satellites: Double?
        var fix: String?
        var line: Int
    }

    private var draft: Draft?
    private var values = PlausibleValues()

    init(path: String, options: TraceOpenOptions, counts: inout TraceReadStatistics) throws {
        points = XMLPointCollector(path: path)
        var scanner = try XMLScanner(path: path)
        var names: [String] = []
        var text = XMLTextCollector()
        while let event = try scanner.next() {
            switch event {
            case .start(let name, let attributes):
                names.append(String(name.xmlLocalName))
                text.reset()
                try start(names, attributes, scanner: scanner)
            case .text(let more):
                text.append(more)
            case .end:
                try end(names, text.text, scanner: scanner, options: options, counts: &counts)
                names.removeLast()
                text.reset()
            }
        }
        linesRead = scanner.linesRead
        guard !points.points.isEmpty else {
            throw TraceError(.empty, file: path,
                             "no track point with a time in this GPX file (routes and waypoints are not a recording)")
        }
    }

    private mutating func start(_ names: [String], _ attributes: [XMLAttribute], scanner: XMLScanner) throws {
        let local = names[names.count - 1]
        func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
        if names.count == 1 {
            guard local == "gpx" else {
                throw TraceError(.malformed, file: scanner.path, line: scanner.eventLine, column: scanner.eventColumn,
                                 "expected <gpx> as the root element of a GPX file, found <\(local)>")
            }
            version = attribute("version")
            creator = attribute("creator").map { String($0.prefix(XMLTrackLimits.maxNoteCharacters)) }
        } else if names.count == 3 && local == "trkseg" && names[1] == "trk" {
            segmentOpen = true
        } else if names.count == 4 && local == "trkpt" && names[2] == "trkseg" {
            draft = Draft(latitude: attribute("lat").flatMap(XMLValues.number),
                          longitude: attribute("lon").flatMap(XMLValues.number), line: scanner.eventLine)
        }
    }

    private mutating func end(_ names: [String], _ text: String, scanner: XMLScanner, options: TraceOpenOptions,
                              counts: inout TraceReadStatistics) throws {
        let n = names.count
        let local = names[n - 1]
        let parent = n >= 2 ? names[n - 2] : ""
        if draft != nil {
            try endInPoint(local, parent, text, counts: &counts)
            return
        }
        switch (n, parent, local) {
        case (2, "gpx", "time"), (3, "metadata", "time"):
            startUTC = XMLValues.time(text).map(\.utc)
        case (3, "metadata", "name"), (2, "gpx", "name"):
            name = String(text.trimmingWhitespace().prefix(XMLTrackLimits.maxNoteCharacters))
        case (3, "trk", "name") where name == nil || name?.isEmpty == true:
            name = String(text.trimmingWhitespace().prefix(XMLTrackLimits.maxNoteCharacters))
        case (3, "trk", "type"):
            let type = String(text.trimmingWhitespace().prefix(XMLTrackLimits.maxNoteCharacters))
            if firstType == nil { firstType = type }
            let key = String(type.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
            if !options.anySport && Self.otherSports.contains(key) {
                throw TraceError(.unsupportedFormat, file: scanner.path, line: scanner.line,
                                 "not a rowing activity (type \"\(type)\"); pass --any-sport to read it anyway")
            }
        default:
            break
        }
    }

    private mutating func endInPoint(_ local: String, _ parent: String, _ text: String,
                                     counts: inout TraceReadStatistics) throws {
        guard var d = draft else { return }
        switch (local, parent) {
        case ("time", "trkpt"): d.time = text
        case ("ele", "trkpt"): d.altitude = XMLValues.number(text)
        case ("sat", "trkpt"): d.satellites = XMLValues.number(text)
        case ("fix", "trkpt"): d.fix = text.trimmingWhitespace()
        // GPX 1.0's own speed, and Garmin's TrackPointExtension v2 (m/s).
        case ("speed", "trkpt"), ("speed", "TrackPointExtension"): d.speed = XMLValues.number(text)
        case ("hr", "TrackPointExtension"): d.heartRate = XMLValues.number(text)
        case ("trkpt", _):
            draft = nil
            try finish(d, counts: &counts)
            return
        default: return
        }
        draft = d
    }

    /// A track point complete: kept (in time order), or skipped without a usable time.
    private mutating func finish(_ d: Draft, counts: inout TraceReadStatistics) throws {
        guard let time = d.time.flatMap(XMLValues.time), TraceLimits.utcRange.contains(time.utc) else {
            counts.recordSkip(.unusableRow, line: d.line)
            return
        }
        let mode: FixMode
        switch d.fix {
        case "none": mode = .noFix
        case "2d": mode = .twoD
        case "3d", "dgps", "pps": mode = .threeD
        default: mode = .unknown
        }
        let position = mode == .noFix ? nil : values.position(d.latitude, d.longitude)
        let satellites = values.within(d.satellites, 0...255).flatMap { $0 == $0.rounded() ? Int($0) : nil }
        let before = points.points.count
        let point = XMLTrackPoint(utc: time.utc, latitude: position?.0, longitude: position?.1,
                                  altitude: values.altitude(d.altitude), speed: values.speed(d.speed),
                                  heartRate: values.heartRate(d.heartRate), satellites: satellites, mode: mode,
                                  part: segmentOpen ? segments : segments - 1, line: d.line)
        counts.recordDroppedValues(values.dropped, line: d.line)
        values.dropped = 0
        try points.add(point, counts: &counts)
        if segmentOpen && points.points.count > before {
            segments += 1
            segmentOpen = false
        }
    }
}
