import OarlogCore

/// A lap of a TCX activity as the device summed it up. Any figure the file lacks, or that is
/// beyond its physical bound, is nil.
struct TCXLap {
    var startTime: String?
    var totalTime_s: Double?
    var distance_m: Double?
    var cadence_spm: Double?
    var averageHeartRate_bpm: Double?
    var maximumHeartRate_bpm: Double?
    /// `LX/AvgSpeed` (CrewNerd: `ActivityLapExtension/AvgSpeed`), m/s.
    var averageSpeed_mps: Double?
    /// `LX/Steps`: CrewNerd writes the lap's strokes there.
    var strokes: Int?
    var notes: String?
    /// The line of the lap's start tag.
    var line = 0
}

/// What the reader takes of a TCX file: the first activity's sport, Id, laps and track points,
/// and who wrote it. Read whole at open (the session totals, which come lap by lap and with the
/// author at the end, go out first as metadata); bounded by the scanner's limits and
/// `XMLTrackLimits`.
struct TCXDocument {
    /// Most laps read: 10,000.
    static let maxLaps = 10_000

    var sport: String?
    var idText: String?
    var laps: [TCXLap] = []
    var points: XMLPointCollector
    var creatorName: String?, creatorUnitId: String?, authorName: String?
    var creatorVersion: [String] = [], authorVersion: [String] = []
    var linesRead = 0

    /// One trackpoint while its element is open.
    private struct Draft {
        var time: String?
        var latitude: Double?, longitude: Double?, altitude: Double?
        var heartRate: Double?, speed: Double?
        var distance: Double?
        var line: Int
    }

    private var draft: Draft?
    private var activities = 0
    private var inActivity = false
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
                try start(names, attributes, scanner: scanner, options: options, counts: &counts)
            case .text(let more):
                text.append(more)
            case .end:
                try end(names, text.text, counts: &counts)
                names.removeLast()
                text.reset()
            }
        }
        linesRead = scanner.linesRead
        guard activities > 0 else {
            throw TraceError(.empty, file: path, "no <Activity> in this TCX file (a course or a workout is not a recording)")
        }
        guard !points.points.isEmpty else {
            throw TraceError(.empty, file: path,
                             "no <Trackpoint> with a time in the activity: this TCX holds lap summaries only, not a trace")
        }
    }

    private mutating func start(_ names: [String], _ attributes: [XMLAttribute], scanner: XMLScanner,
                                options: TraceOpenOptions, counts: inout TraceReadStatistics) throws {
        let local = names[names.count - 1]
        if names.count == 1 && local != "TrainingCenterDatabase" {
            throw TraceError(.malformed, file: scanner.path, line: scanner.eventLine, column: scanner.eventColumn,
                             "expected <TrainingCenterDatabase> as the root element of a TCX file, found <\(local)>")
        }
        if local == "Activity" && names.count == 3 && names[1] == "Activities" {
            activities += 1
            guard activities == 1 else {
                counts.recordSkip(.otherRecordType, line: scanner.eventLine)  // only the first activity is read
                return
            }
            inActivity = true
            sport = attributes.first { $0.name.xmlLocalName == "Sport" }?.value
            if let sport, !options.anySport, sport == "Running" || sport == "Biking" {
                throw TraceError(.unsupportedFormat, file: scanner.path, line: scanner.eventLine,
                                 "not a rowing activity (Sport=\"\(sport)\"); pass --any-sport to read it anyway")
            }
        }
        guard inActivity else { return }
        if local == "Lap" && names.count == 4 {
            guard laps.count < Self.maxLaps else {
                throw TraceError(.tooLarge, file: scanner.path, line: scanner.eventLine,
                                 "more than \(Self.maxLaps) laps, the most this reader holds")
            }
            laps.append(TCXLap(startTime: attributes.first { $0.name.xmlLocalName == "StartTime" }?.value,
                              line: scanner.eventLine))
        } else if local == "Trackpoint" && !laps.isEmpty && names.contains("Track") {
            draft = Draft(line: scanner.eventLine)
        }
    }

    private mutating func end(_ names: [String], _ text: String, counts: inout TraceReadStatistics) throws {
        let n = names.count
        let local = names[n - 1]
        let parent = n >= 2 ? names[n - 2] : ""
        if local == "Activity" && n == 3 { inActivity = false }
        if n == 3 && parent == "Author" && local == "Name" { authorName = text.trimmingWhitespace() }
        if n == 5 && names[1] == "Author" && parent == "Version" { authorVersion.append(text.trimmingWhitespace()) }
        guard inActivity else { return }
        if draft != nil {
            try endInTrackpoint(local, parent, text, counts: &counts)
        } else if n == 4 && parent == "Activity" {
            if local == "Id" { idText = text.trimmingWhitespace() }
        } else if n == 5 && parent == "Creator" {
            if local == "Name" { creatorName = text.trimmingWhitespace() }
            if local == "UnitId" { creatorUnitId = text.trimmingWhitespace() }
        } else if n == 6 && names[3] == "Creator" && parent == "Version" {
            creatorVersion.append(text.trimmingWhitespace())
        } else if !laps.isEmpty && names.count >= 5 && names[3] == "Lap" && !names.contains("Track") {
            endInLap(local, parent, n, text)
            counts.recordDroppedValues(values.dropped, line: laps[laps.count - 1].line)
            values.dropped = 0
        }
    }

    private mutating func endInLap(_ local: String, _ parent: String, _ n: Int, _ text: String) {
        var lap = laps[laps.count - 1]
        let value = XMLValues.number(text)
        switch (local, parent) {
        case ("TotalTimeSeconds", "Lap"): lap.totalTime_s = values.within(value, 0...TraceLimits.maxSessionSeconds)
        case ("DistanceMeters", "Lap"): lap.distance_m = values.distance(value)
        case ("Cadence", "Lap"): lap.cadence_spm = values.strokeRate(value)
        case ("Value", "AverageHeartRateBpm") where n == 6: lap.averageHeartRate_bpm = values.heartRate(value)
        case ("Value", "MaximumHeartRateBpm") where n == 6: lap.maximumHeartRate_bpm = values.heartRate(value)
        case ("AvgSpeed", "LX"), ("AvgSpeed", "ActivityLapExtension"): lap.averageSpeed_mps = values.speed(value)
        case ("Steps", "LX"), ("Steps", "ActivityLapExtension"):
            lap.strokes = values.strokeCount(value.flatMap { $0 == $0.rounded() && abs($0) < 1e9 ? Int($0) : nil })
        case ("Notes", "Lap"):
            let note = text.trimmingWhitespace()
            lap.notes = note.isEmpty ? nil : String(note.prefix(XMLTrackLimits.maxNoteCharacters))
        default: return
        }
        laps[laps.count - 1] = lap
    }

    private mutating func endInTrackpoint(_ local: String, _ parent: String, _ text: String,
                                          counts: inout TraceReadStatistics) throws {
        guard var d = draft else { return }
        switch (local, parent) {
        case ("Time", "Trackpoint"): d.time = text
        case ("LatitudeDegrees", "Position"): d.latitude = XMLValues.number(text)
        case ("LongitudeDegrees", "Position"): d.longitude = XMLValues.number(text)
        case ("AltitudeMeters", "Trackpoint"): d.altitude = XMLValues.number(text)
        case ("DistanceMeters", "Trackpoint"): d.distance = XMLValues.number(text)
        case ("Value", "HeartRateBpm"): d.heartRate = XMLValues.number(text)
        // The standard extension's speed (m/s); CrewNerd's own nested <Extensions> are not read.
        case ("Speed", "TPX"): d.speed = XMLValues.number(text)
        case ("Trackpoint", _):
            draft = nil
            try finish(d, counts: &counts)
            return
        default: return
        }
        draft = d
    }

    /// A trackpoint complete: kept (in time order), or skipped without a usable time.
    private mutating func finish(_ d: Draft, counts: inout TraceReadStatistics) throws {
        guard let time = d.time.flatMap(XMLValues.time), TraceLimits.utcRange.contains(time.utc) else {
            counts.recordSkip(.unusableRow, line: d.line)
            return
        }
        let position = values.position(d.latitude, d.longitude)
        let point = XMLTrackPoint(utc: time.utc, latitude: position?.0, longitude: position?.1,
                                  altitude: values.altitude(d.altitude), speed: values.speed(d.speed),
                                  heartRate: values.heartRate(d.heartRate), distance: values.distance(d.distance),
                                  part: laps.count - 1, line: d.line)
        counts.recordDroppedValues(values.dropped, line: d.line)
        values.dropped = 0
        try points.add(point, counts: &counts)
    }
}
