import OarlogCore

/// Reads a FIT activity file (a Garmin watch, an NK SpeedCoach's or CrewNerd's FIT export,
/// Oarlog's own): its records as GPS fixes and heart rates, its laps and session as the device's
/// own figures. The file is decoded whole by `FITDecoder` (at most 64 MiB; a damaged file — CRC
/// mismatch, truncated — is refused, naming the byte).
///
/// - `file_id` must say activity (type 4) when it says a type; its manufacturer, product and
///   serial number give `device`, `device_model`, `device_serial`; the creator's `device_info`
///   software version gives `device_firmware`.
/// - The sport (`sport` message, else the session's, else a lap's) must be rowing (15), generic
///   (0, as NK writes) or fitness equipment with sub-sport indoor rowing; another sport is refused
///   in one line unless `TraceOpenOptions.anySport`.
/// - `record`: the timestamp (seconds since 1989-12-31 UTC) gives the trace time from the first
///   session's start (`start_utc`: the session's `start_time`, else the first record's time),
///   position (semicircles → degrees), speed
///   (`enhanced_speed`, else `speed`) and altitude → `.fix`; `heart_rate` → `.heartRate`. A
///   record without a position gives no fix (counted: `noPosition`). Cadence, power and the
///   record's distance have no place in a fix and are not delivered (no `.reference` per record:
///   the pipeline would count each as a stroke).
/// - `lap` → `device_intervals`, `device_interval_<n>_distance_m`, `_elapsed_s`, `_strokes`
///   (`total_cycles`), and a `.note` at each lap's start when there are several;
///   `session` → `device_total_distance_m`, `device_elapsed_s`, `device_total_strokes`,
///   `device_avg_speed_mps`, `device_avg_split_s_per_500m`, `device_avg_rate_spm`,
///   `device_distance_per_stroke_m` (several sessions: their sums, no averages). Without
///   `total_cycles` in the laps and session (NK), the strokes are the records' running count
///   (`total_cycles`, restarting at each lap): the last of each run, summed.
/// - The pauses between laps in which the device recorded nothing (NK's rests) are cut out of the
///   trace time, as the SpeedCoach reader does with its intervals; the fixes keep their UTC.
///
/// "Lines" in the statistics are data messages (the reader's unit of input); a skipped record is
/// named by its message number.
public struct FITReader: RecordSource, TraceStatisticsReporting {
    /// Most records kept: 1,000,000 (11 days at 1 Hz; a session is at most 7 days).
    public static let maxRecords = 1_000_000

    /// One record, compact: what the reader keeps.
    struct Record {
        var time: Double
        var utc: Double
        var latitude: Double?, longitude: Double?
        var speed: Double?, altitude: Double?, heartRate: Double?
        /// The device's running stroke count over the session (nil for a record without one), with
        /// the record's distance, rate and power.
        var strokeCount: Int?, distance: Double?, rate: Double?, power: Double?
        /// The record's message number (the reader's "line").
        var message: Int
    }

    public let path: String
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }
    private var metadata: [TraceRecord] = []
    private var records: [Record] = []
    /// Lap starts (notes) and the breaks where an unrecorded pause was cut out (GPS gaps that
    /// break the track), in time order.
    private var lapMarks: [TraceRecord] = []
    /// For each mark, the UTC before which no record may follow it (a break goes after the
    /// records of the lap before the pause, which the cut puts at the same trace time).
    private var lapMarkUTC: [Double] = []
    private var metadataIndex = 0, recordIndex = 0, noteIndex = 0
    /// The records of the current FIT record still to deliver (fix, references, heart rate).
    private var pending: [TraceRecord] = []
    private var pendingIndex = 0
    /// The device's running count turned into one reference a stroke.
    private var strokeSteps = StrokeCountSteps()

    public init(path: String, options: TraceOpenOptions = TraceOpenOptions()) throws {
        self.path = path
        var decoder = try FITDecoder(path: path)
        var activity = FITActivity()
        while let message = try decoder.next() {
            try activity.take(message, index: decoder.messageCount, path: path)
        }
        counts.linesRead = decoder.messageCount
        if let refusal = activity.sportRefusal(), !options.anySport {
            throw TraceError(.unsupportedFormat, file: path, refusal)
        }
        guard let firstRecord = activity.records.first?.utc else {
            throw TraceError(.empty, file: path, "no record with a time: this FIT file holds no trace")
        }
        let firstUTC = activity.startUTC(firstRecord: firstRecord)
        let clock = FITPauseClock(start: firstUTC, pauses: activity.unrecordedPauses())
        keepRecords(activity.recordsWithLapEnds(), clock)
        (lapMarks, lapMarkUTC) = Self.marks(notes: activity.lapNotes(time: clock.time), pauses: clock)
        metadata = activity.metadata(startUTC: firstUTC)
        counts.metadataRecords = metadata.count
    }

    /// The records in time order on `clock` (a record earlier than the one before it, or more
    /// than 7 days in, is skipped and counted); values beyond their physical bounds are unknown.
    private mutating func keepRecords(_ raw: [FITActivity.RawRecord], _ clock: FITPauseClock) {
        records.reserveCapacity(raw.count)
        var last = 0.0
        var strokes = StrokeCounter()
        for r in raw {
            let time = clock.time(r.utc)
            guard time >= last else { counts.recordSkip(.timeWentBackward, line: r.message); continue }
            guard TraceLimits.plausibleSessionTime(time) else { counts.recordSkip(.implausibleValue, line: r.message); continue }
            last = time
            var bounds = PlausibleValues()
            var latitude = r.latitude, longitude = r.longitude
            if let lat = latitude, let lon = longitude, !((-90...90).contains(lat) && (-180...180).contains(lon)) {
                latitude = nil
                longitude = nil
                bounds.dropped += 1
            }
            let utc = bounds.utc(r.utc) ?? r.utc
            let counted = strokes.take(r.cycles) > 0
            records.append(Record(time: time, utc: utc, latitude: latitude, longitude: longitude,
                                  speed: bounds.speed(r.speed), altitude: bounds.altitude(r.altitude),
                                  heartRate: bounds.heartRate(r.heartRate),
                                  strokeCount: counted ? strokes.total : nil, distance: bounds.distance(r.distance),
                                  rate: bounds.strokeRate(r.cadence), power: bounds.power(r.power), message: r.message))
            counts.recordDroppedValues(bounds.dropped, line: r.message)
            if latitude == nil { counts.recordSkip(.noPosition, line: r.message) }
        }
    }

    public mutating func next() throws -> TraceRecord? {
        if metadataIndex < metadata.count {
            metadataIndex += 1
            return metadata[metadataIndex - 1]
        }
        if pendingIndex < pending.count {
            pendingIndex += 1
            counts.count(pending[pendingIndex - 1])
            return pending[pendingIndex - 1]
        }
        while recordIndex < records.count || noteIndex < lapMarks.count {
            if noteIndex < lapMarks.count, recordIndex >= records.count
                || ((lapMarks[noteIndex].time ?? 0) <= records[recordIndex].time && lapMarkUTC[noteIndex] <= records[recordIndex].utc) {
                noteIndex += 1
                counts.count(lapMarks[noteIndex - 1])
                return lapMarks[noteIndex - 1]
            }
            let r = records[recordIndex]
            recordIndex += 1
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if let lat = r.latitude, let lon = r.longitude {
                pending.append(.fix(GPSFix(time: r.time, utc: r.utc, latitude: lat, longitude: lon, speed: r.speed, altitude: r.altitude)))
            }
            // The device's strokes: one reference each, those it counted since the previous
            // record spread evenly up to this one (the last at this record, with its figures).
            var bounds = PlausibleValues()
            strokeSteps.add(time: r.time, distance: r.distance, count: r.strokeCount, rate: r.rate, split: nil, speed: r.speed,
                            power: r.power, into: &pending, bounds: &bounds)
            counts.recordDroppedValues(bounds.dropped, line: r.message)
            if let bpm = r.heartRate { pending.append(.heartRate(HeartRateSample(time: r.time, bpm: bpm))) }
            if !pending.isEmpty {
                pendingIndex = 1
                counts.count(pending[0])
                return pending[0]
            }
        }
        return nil
    }

    /// The lap notes and, at the end of each pause cut out of the trace time, a GPS gap that breaks
    /// the track (the boat moved in the pause, unrecorded: no distance is joined across it), in
    /// time order, a note before a break at the same time.
    static func marks(notes: [Note], pauses clock: FITPauseClock) -> (marks: [TraceRecord], utc: [Double]) {
        var marks = notes.map { TraceRecord.note($0) }
        var utc = notes.map { _ in -Double.infinity }
        for pause in clock.pauses {
            let t = clock.time(pause.end)
            guard t.isFinite, t >= 0, t <= TraceLimits.maxSessionSeconds else { continue }
            let seconds = Int((pause.end - pause.start).rounded())
            marks.append(.gap(Gap(sensor: .gps, start: t, end: t,
                                  reason: "not recorded between laps (\(seconds) s): the track is not joined across",
                                  breaksTrack: true)))
            utc.append(pause.end)
        }
        let order = marks.indices.sorted { a, b in
            let (ta, tb) = (marks[a].time ?? 0, marks[b].time ?? 0)
            return ta != tb ? ta < tb : a < b
        }
        return (order.map { marks[$0] }, order.map { utc[$0] })
    }

    /// The device's running stroke count over the records: it restarts at each lap (NK), so a count
    /// lower than the last starts a new run. A jump of more than 10 strokes between two records is
    /// taken as one (a glitch or a gap in the records, not 10 strokes in a second).
    struct StrokeCounter {
        private var last: Int64?
        private(set) var total = 0

        mutating func take(_ cycles: Int64?) -> Int {
            guard let cycles, cycles >= 0, cycles < Int64(UInt32.max) else { return 0 }
            defer { last = cycles }
            let advance = last.map { cycles >= $0 ? cycles - $0 : cycles } ?? cycles
            let strokes = Int(min(advance, 10))
            total += strokes
            return strokes
        }
    }

    /// Unused for FIT (a binary file is recognised by its header, `TraceOpener.isFIT`).
    static func recognises(lines: [String]) -> Bool {
        false
    }
}
