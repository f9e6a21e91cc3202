#if canImport(Glibc)
import Glibc
#endif
import OarlogCore
import OarlogDSP
import OarlogPipeline

/// Writes the session as a Garmin Training Center (TCX v2) activity: one `Lap` per lap with its
/// totals (time, distance, maximum speed, average stroke rate as cadence, trigger), its track
/// points (time, position, distance, heart rate, stroke rate as cadence, speed and power in the
/// ActivityExtension v2 `TPX`), and the lap's average and maximum heart rate. TCX has no rowing sport: the activity is `Other`, with the notes saying rowing. With a
/// workout plan the laps are its steps: `Intensity` `Resting` for a rest (and the wait before the
/// plan starts), `Active` for the rest; `TriggerMethod` `Time` or `Distance` by the step's length.
///
/// The schema puts a lap's totals before its points, so each lap's points are spooled to a
/// temporary file beside the output and copied in when the lap ends: memory stays bounded.
public final class TCXExporter: AssembledExporter {
    let output: ExportOutput
    private let spoolPath: String
    private var spool: ExportFile?
    private var copyBuffer: [UInt8] = []

    public init(path: String, configuration: ExportConfiguration = ExportConfiguration()) throws {
        spoolPath = path + ".lap-spool"
        output = try ExportOutput(path: path, configuration: configuration)
    }

    deinit {
        if spool != nil { unlink(spoolPath) }
    }

    func write(_ item: ExportItem) throws {
        switch item {
        case .start(let start):
            try file.write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" \
                xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
                xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" \
                xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd">
                 <Activities>
                  <Activity Sport="Other">
                   <Id>\(ExportText.iso8601(start.startUTC))</Id>

                """)
        case .lapStart:
            spool = try ExportFile(path: spoolPath)
        case .point(let p):
            guard let spool else { return }
            var s = "     <Trackpoint><Time>\(ExportText.iso8601(p.utc))</Time>"
            s += "<Position><LatitudeDegrees>\(ExportText.fixed(p.latitude, 7))</LatitudeDegrees>"
            s += "<LongitudeDegrees>\(ExportText.fixed(p.longitude, 7))</LongitudeDegrees></Position>"
            if let a = p.altitude { s += "<AltitudeMeters>\(ExportText.fixed(a, 1))</AltitudeMeters>" }
            s += "<DistanceMeters>\(ExportText.fixed(p.distance, 2))</DistanceMeters>"
            if let b = Self.beats(p.heartRate) { s += "<HeartRateBpm><Value>\(b)</Value></HeartRateBpm>" }
            if let r = p.strokeRate { s += "<Cadence>\(Self.cadence(r))</Cadence>" }
            let watts = p.power.flatMap { $0.isFinite && $0 >= 0 ? Int(min(65_535, $0.rounded())) : nil }
            if p.speed != nil || watts != nil {
                s += "<Extensions><ns3:TPX>"
                if let v = p.speed { s += "<ns3:Speed>\(ExportText.fixed(v, 3))</ns3:Speed>" }
                if let w = watts { s += "<ns3:Watts>\(w)</ns3:Watts>" }
                s += "</ns3:TPX></Extensions>"
            }
            try spool.write(s + "</Trackpoint>\n")
        case .stroke:
            break
        case .lapEnd(let lap):
            try file.write("   <Lap StartTime=\"\(ExportText.iso8601(lap.startUTC))\">\n")
            try file.write("    <TotalTimeSeconds>\(ExportText.fixed(lap.elapsed, 3))</TotalTimeSeconds>\n")
            try file.write("    <DistanceMeters>\(ExportText.fixed(lap.distance, 2))</DistanceMeters>\n")
            if let v = lap.maxSpeed { try file.write("    <MaximumSpeed>\(ExportText.fixed(v, 3))</MaximumSpeed>\n") }
            try file.write("    <Calories>0</Calories>\n")
            if let b = Self.beats(lap.figures.averageHeartRate) {
                try file.write("    <AverageHeartRateBpm><Value>\(b)</Value></AverageHeartRateBpm>\n")
            }
            if let b = Self.beats(lap.figures.maxHeartRate) {
                try file.write("    <MaximumHeartRateBpm><Value>\(b)</Value></MaximumHeartRateBpm>\n")
            }
            try file.write("    <Intensity>\(lap.intensity == .rest ? "Resting" : "Active")</Intensity>\n")
            if let r = lap.averageStrokeRate { try file.write("    <Cadence>\(Self.cadence(r))</Cadence>\n") }
            try file.write("    <TriggerMethod>\(Self.triggerMethod(lap.trigger))</TriggerMethod>\n")
            if let spool {
                self.spool = nil
                if spool.offset > 0 {
                    try file.write("    <Track>\n")
                    try copy(spool)
                    try file.write("    </Track>\n")
                }
                try spool.close()
                unlink(spoolPath)
            }
            try file.write("   </Lap>\n")
        case .end(let totals):
            var notes = "Rowing"
            if let t = totals.start.title { notes += ": " + t }
            notes += " (\(totals.summary.strokes) strokes)"
            try file.write("   <Notes>\(ExportText.xmlEscaped(notes))</Notes>\n  </Activity>\n </Activities>\n</TrainingCenterDatabase>\n")
        }
    }

    /// A lap's `TriggerMethod` (the schema's Manual, Distance, Location, Time, HeartRate).
    static func triggerMethod(_ trigger: LapTrigger) -> String {
        switch trigger {
        case .distance: return "Distance"
        case .time: return "Time"
        case .rest, .sessionEnd, .workoutStart: return "Manual"
        }
    }

    /// A heart rate as TCX writes it: whole beats per minute, 1–255 (the schema's `positiveByte`).
    static func beats(_ bpm: BeatsPerMinute?) -> Int? {
        bpm.flatMap { $0.isFinite && $0 >= 0.5 ? Int(min(255, $0.rounded())) : nil }
    }

    /// Stroke rate as a TCX cadence (a whole number 0–254).
    static func cadence(_ rate: StrokesPerMinute) -> Int { Int(min(254, max(0, rate.rounded()))) }

    private func copy(_ spool: ExportFile) throws {
        let chunk = 1 << 16
        var position = 0
        while position < spool.offset {
            let n = min(chunk, spool.offset - position)
            try spool.read(at: position, count: n, into: &copyBuffer)
            try file.write(copyBuffer)
            position += n
        }
    }
}
