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
    }

    public let path: String
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }
    private var metadata: [TraceRecord] = []
    private var records: [Record] = []
    /// Lap starts (trace seconds) for notes, in time order.
    private var lapNotes: [Note] = []
    private var metadataIndex = 0, recordIndex = 0, noteIndex = 0
    private var pendingHeartRate: TraceRecord?

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
        keepRecords(activity.records, clock)
        lapNotes = activity.lapNotes(time: clock.time)
        metadata = activity.metadata(startUTC: firstUTC)
        counts.metadataRecords = metadata.count
    }

    /// The records in time order on `clock` (a record earlier than the one before it, or more
    /// than 7 days in, is skipped and counted); values beyond their physical bounds are unknown.
    private mutating func keepRecords(_ raw: [FITActivity.RawRecord], _ clock: FITPauseClock) {
        records.reserveCapacity(raw.count)
        var last = 0.0
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
            records.append(Record(time: time, utc: utc, latitude: latitude, longitude: longitude,
                                  speed: bounds.speed(r.speed), altitude: bounds.altitude(r.altitude),
                                  heartRate: bounds.heartRate(r.heartRate)))
            counts.recordDroppedValues(bounds.dropped, line: r.message)
            if latitude == nil { counts.recordSkip(.noPosition, line: r.message) }
        }
    }

    public mutating func next() throws -> TraceRecord? {
        if metadataIndex < metadata.count {
            metadataIndex += 1
            return metadata[metadataIndex - 1]
        }
        if let hr = pendingHeartRate {
            pendingHeartRate = nil
            counts.heartRateRows += 1
            return hr
        }
        while recordIndex < records.count || noteIndex < lapNotes.count {
            if noteIndex < lapNotes.count, recordIndex >= records.count || lapNotes[noteIndex].time <= records[recordIndex].time {
                noteIndex += 1
                counts.noteRows += 1
                return .note(lapNotes[noteIndex - 1])
            }
            let r = records[recordIndex]
            recordIndex += 1
            let heartRate = r.heartRate.map { TraceRecord.heartRate(HeartRateSample(time: r.time, bpm: $0)) }
            if let lat = r.latitude, let lon = r.longitude {
                pendingHeartRate = heartRate
                counts.fixRows += 1
                return .fix(GPSFix(time: r.time, utc: r.utc, latitude: lat, longitude: lon, speed: r.speed, altitude: r.altitude))
            }
            if let heartRate {
                counts.heartRateRows += 1
                return heartRate
            }
        }
        return nil
    }

    /// Unused for FIT (a binary file is recognised by its header, `TraceOpener.isFIT`).
    static func recognises(lines: [String]) -> Bool {
        false
    }
}
