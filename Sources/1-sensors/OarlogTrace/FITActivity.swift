import OarlogCore

/// What `FITReader` keeps of a FIT activity's messages while decoding it: the records (compact),
/// the laps and sessions (the device's own totals), the device and the sports the file names.
struct FITActivity {
    typealias M = FITProfile.Message

    /// A record as read (UTC seconds since 1970), with its message number for the statistics.
    struct RawRecord {
        var message: Int
        var utc: Double
        var latitude: Double?, longitude: Double?
        var speed: Double?, altitude: Double?, heartRate: Double?
        /// The device's running stroke count (`total_cycles`), cumulative distance, stroke rate
        /// (`cadence`) and power, where it gives them.
        var cycles: Int64? = nil, distance: Double? = nil, cadence: Double? = nil, power: Double? = nil
    }

    /// The device's running stroke count (records' `total_cycles`, which NK restarts at each
    /// lap): the last count of each run, a run ending where the count goes down.
    var strokeRuns: [Int64] = []

    /// A lap's or session's figures, as the device gives them.
    struct Totals {
        var message: Int
        var startUTC: Double?, endUTC: Double?
        var distance: Double?, elapsed: Double?, strokes: Int64?
        var averageSpeed: Double?, averageRate: Double?
        /// Where the lap started and ended (a lap's fields 3–6), degrees.
        var startPosition: (latitude: Double, longitude: Double)?, endPosition: (latitude: Double, longitude: Double)?
    }

    var records: [RawRecord] = []
    var laps: [Totals] = []
    var sessions: [Totals] = []
    /// (sport, sub-sport) of the `sport` messages and the sessions, in file order.
    var sports: [(sport: Int64, subSport: Int64?)] = []
    var fileIDSeen = false
    var manufacturer: Int64?, product: Int64?, productName: String?, serial: Int64?, firmware: Double?

    /// Most laps kept: 10,000 (a lap every minute for a week); as many sessions and sports.
    static let maxLaps = 10_000
    static let semicircleDegrees = 180.0 / 2_147_483_648.0

    /// FIT `date_time` (seconds since 1989-12-31T00:00:00Z) → seconds since 1970.
    static func utc(_ fitSeconds: Int64?) -> Double? {
        fitSeconds.map { Double($0) + FITDecoder.epochSeconds1970 }
    }

    /// Takes one data message (the `index`-th of the file).
    mutating func take(_ m: FITMessage, index: Int, path: String) throws {
        switch m.globalNumber {
        case M.record: try takeRecord(m, index: index, path: path)
        case M.lap where laps.count < Self.maxLaps: laps.append(totals(m, index: index, lap: true))
        case M.session where sessions.count < Self.maxLaps:
            sessions.append(totals(m, index: index, lap: false))
            if let sport = m.integer(5) { sports.append((sport, m.integer(6))) }
        case M.sport where sports.count < Self.maxLaps:
            if let sport = m.integer(0) { sports.append((sport, m.integer(1))) }
        case M.fileID where !fileIDSeen:
            fileIDSeen = true
            if let type = m.integer(0), type != 4 {
                throw TraceError(.unsupportedFormat, file: path,
                                 "this FIT file is a \(FITProfile.fileTypeName(type)) file, not an activity: it holds no trace")
            }
            manufacturer = m.integer(1)
            product = m.integer(2)
            serial = m.integer(3)
            productName = m[8]?.text
        case M.deviceInfo where m.integer(0) == 0 && firmware == nil:
            firmware = m.value(5, scale: 100)
        default: break
        }
    }

    private mutating func takeRecord(_ m: FITMessage, index: Int, path: String) throws {
        guard let utc = Self.utc(m.integer(253)) else { return }
        guard records.count < FITReader.maxRecords else {
            throw TraceError(.tooLarge, file: path, "more than \(FITReader.maxRecords) records, the most this reader holds: split the file")
        }
        var latitude = m.value(0).map { $0 * Self.semicircleDegrees }
        var longitude = m.value(1).map { $0 * Self.semicircleDegrees }
        if latitude == nil || longitude == nil { latitude = nil; longitude = nil }
        records.append(RawRecord(message: index, utc: utc, latitude: latitude, longitude: longitude,
                                 speed: m.value(73, scale: 1000) ?? m.value(6, scale: 1000),
                                 altitude: m.value(78, scale: 5, offset: 500) ?? m.value(2, scale: 5, offset: 500),
                                 heartRate: m.value(3), cycles: m.integer(19), distance: m.value(5, scale: 100),
                                 cadence: m.value(4), power: m.value(7)))
        if let cycles = m.integer(19), cycles >= 0, cycles < Int64(UInt32.max) {
            if let last = strokeRuns.last, cycles >= last {
                strokeRuns[strokeRuns.count - 1] = cycles
            } else if strokeRuns.count < Self.maxLaps {
                strokeRuns.append(cycles)
            }
        }
    }

    /// A lap's (`lap: true`) or session's figures: start time (2), elapsed (7, ms), distance (9,
    /// cm), cycles (10), average speed (enhanced, else plain; mm/s) and cadence.
    private func totals(_ m: FITMessage, index: Int, lap: Bool) -> Totals {
        func position(_ latitude: UInt8, _ longitude: UInt8) -> (latitude: Double, longitude: Double)? {
            guard lap, let a = m.value(latitude), let b = m.value(longitude) else { return nil }
            return (a * Self.semicircleDegrees, b * Self.semicircleDegrees)
        }
        return Totals(message: index, startUTC: Self.utc(m.integer(2)), endUTC: Self.utc(m.integer(253)), distance: m.value(9, scale: 100),
                      elapsed: m.value(7, scale: 1000), strokes: m.integer(10),
                      averageSpeed: m.value(lap ? 110 : 124, scale: 1000) ?? m.value(lap ? 13 : 14, scale: 1000),
                      averageRate: m.value(lap ? 17 : 18), startPosition: position(3, 4), endPosition: position(5, 6))
    }

    /// The records with each lap's start and end positions put in as fixes at the lap's start and
    /// end times: a device that records once a stroke (NK) starts its lap's distance at the start,
    /// before its first record, and ends it after its last; the track then covers the whole lap.
    /// A lap end already recorded (a record with a position within half a second of it, as in
    /// Oarlog's own exports) is not added again.
    func recordsWithLapEnds() -> [RawRecord] {
        var all = records
        let placed = records.filter { $0.latitude != nil }.map(\.utc)   // in time order
        func recorded(_ t: Double) -> Bool {
            var low = 0, high = placed.count
            while low < high { let mid = (low + high) / 2; if placed[mid] < t - 0.5 { low = mid + 1 } else { high = mid } }
            return low < placed.count && placed[low] <= t + 0.5
        }
        for lap in laps {
            if let p = lap.startPosition, let t = lap.startUTC, !recorded(t) {
                all.append(RawRecord(message: lap.message, utc: t, latitude: p.latitude, longitude: p.longitude))
            }
            if let p = lap.endPosition, let t = lap.endUTC ?? lap.startUTC.flatMap({ s in lap.elapsed.map { s + $0 } }), !recorded(t) {
                all.append(RawRecord(message: lap.message, utc: t, latitude: p.latitude, longitude: p.longitude))
            }
        }
        guard all.count > records.count else { return records }
        return all.enumerated().sorted { ($0.element.utc, $0.offset) < ($1.element.utc, $1.offset) }.map(\.element)
    }

    /// One line refusing a file whose sport is not rowing, or nil: rowing (15), generic (0, what
    /// NK writes), all (254), or the sub-sport indoor rowing (14) are taken; no sport at all too.
    func sportRefusal() -> String? {
        if sports.contains(where: { Self.isRowing($0.sport, $0.subSport) }) { return nil }
        guard let other = sports.first(where: { $0.sport != 0 && $0.sport != 254 }) else { return nil }
        return "not a rowing activity (sport \(FITProfile.sportName(other.sport))); pass --any-sport to read it anyway"
    }

    static func isRowing(_ sport: Int64, _ subSport: Int64?) -> Bool {
        sport == 15 || subSport == 14
    }

    /// The session's start: its `start_time` when that is at most an hour before the first
    /// record (the device's timer start; Oarlog's own export writes the trace's start there),
    /// else the first record's time.
    func startUTC(firstRecord: Double) -> Double {
        guard let start = sessions.first?.startUTC, start <= firstRecord, firstRecord - start <= 3600 else { return firstRecord }
        return start
    }

    /// The pauses between laps in which the device recorded nothing (an NK SpeedCoach's rests:
    /// its timer runs only in the pieces): from a lap's end to the next lap's start, over 2 s, with
    /// no record in between. As for a SpeedCoach's interval export, they are cut out of the trace
    /// time, so that the trace is the work the device measured (the boat's moves while resting,
    /// unrecorded, would otherwise count as a straight line across the gap).
    func unrecordedPauses() -> [(start: Double, end: Double)] {
        let ordered = laps.compactMap { lap -> (start: Double, end: Double)? in
            guard let s = lap.startUTC, let e = lap.endUTC ?? lap.elapsed.map({ s + $0 }), e >= s else { return nil }
            return (s, e)
        }.sorted { $0.start < $1.start }
        var pauses: [(start: Double, end: Double)] = []
        var k = 0
        for (a, b) in zip(ordered, ordered.dropFirst()) where b.start - a.end > 2 {
            while k < records.count && records[k].utc <= a.end { k += 1 }
            if k < records.count && records[k].utc < b.start { continue }
            pauses.append((a.end, b.start))
        }
        return pauses
    }

    /// A note at each lap's start (`time` maps UTC to trace time), when there are several laps.
    func lapNotes(time: (Double) -> Double) -> [Note] {
        guard laps.count > 1 else { return [] }
        var notes: [Note] = []
        for (n, lap) in laps.enumerated() {
            guard let t = lap.startUTC.map(time), t.isFinite, t <= TraceLimits.maxSessionSeconds else { continue }
            notes.append(Note(time: max(0, t), text: "FIT lap \(n + 1)"))
        }
        return notes.sorted { $0.time < $1.time }
    }

    /// The metadata records: format, start, device, the session's totals, the laps.
    func metadata(startUTC: Double) -> [TraceRecord] {
        var out: [TraceRecord] = [.metadata(key: "source_format", value: "FIT"),
                                  .metadata(key: "start_utc", value: UTCTime.iso8601(startUTC))]
        func add(_ key: String, _ value: String?) {
            if let value { out.append(.metadata(key: key, value: value)) }
        }
        add("device", manufacturer.map(FITProfile.manufacturerName))
        add("device_model", productName ?? product.map { "product \($0)" })
        add("device_serial", serial.map(String.init))
        add("device_firmware", firmware.map { $0.description })
        var bounds = PlausibleValues()
        let session = sessionTotals()
        let distance = bounds.distance(session?.distance)
        // The session's total_cycles, else the records' running count (summed over its runs).
        let runStrokes = strokeRuns.isEmpty ? nil : strokeRuns.reduce(0, +)
        let strokes = bounds.strokeCount((session?.strokes ?? runStrokes).flatMap { Int(exactly: $0) })
        add("device_total_distance_m", distance?.description)
        add("device_elapsed_s", bounds.within(session?.elapsed, 0...TraceLimits.maxSessionSeconds)?.description)
        add("device_total_strokes", strokes.map(String.init))
        if let speed = bounds.speed(session?.averageSpeed), speed > 0 {
            add("device_avg_speed_mps", speed.description)
            add("device_avg_split_s_per_500m", (500 / speed).description)
        }
        add("device_avg_rate_spm", bounds.strokeRate(session?.averageRate)?.description)
        if let distance, let strokes, strokes > 0 {
            add("device_distance_per_stroke_m", (distance / Double(strokes)).description)
        }
        if !laps.isEmpty { add("device_intervals", String(laps.count)) }
        for (n, lap) in laps.enumerated() {
            add("device_interval_\(n + 1)_distance_m", bounds.distance(lap.distance)?.description)
            add("device_interval_\(n + 1)_elapsed_s", bounds.within(lap.elapsed, 0...TraceLimits.maxSessionSeconds)?.description)
            // The lap's total_cycles, else its run of the records' count (one run a lap).
            let run = strokeRuns.count == laps.count ? strokeRuns[n] : nil
            add("device_interval_\(n + 1)_strokes", bounds.strokeCount((lap.strokes ?? run).flatMap { Int(exactly: $0) }).map(String.init))
        }
        return out
    }

    /// The session's totals: the one session's, or the sums over several (no averages then).
    func sessionTotals() -> Totals? {
        guard let first = sessions.first else { return nil }
        guard sessions.count > 1 else { return first }
        func sum<T: AdditiveArithmetic>(_ key: KeyPath<Totals, T?>) -> T? {
            let values = sessions.compactMap { $0[keyPath: key] }
            return values.count == sessions.count ? values.reduce(.zero, +) : nil
        }
        let strokes = sessions.compactMap(\.strokes)
        let strokeSum = strokes.count == sessions.count && strokes.allSatisfy({ $0 < Int64(UInt32.max) })
            ? strokes.reduce(0, +) : nil
        return Totals(message: first.message, startUTC: first.startUTC, endUTC: sessions.last?.endUTC, distance: sum(\.distance),
                      elapsed: sum(\.elapsed), strokes: strokeSum, averageSpeed: nil, averageRate: nil)
    }
}

/// Trace time from UTC: seconds from the start, less the unrecorded pauses before (a time within
/// a pause counts the part of it already past).
struct FITPauseClock {
    let start: Double
    let pauses: [(start: Double, end: Double)]
    /// Seconds removed by the pauses up to and including each.
    let removed: [Double]

    /// Seconds of each pause kept, so that a lap's end and the next lap's start (positions the
    /// laps give) stay two moments of the trace.
    static let keptOfEachPause = 1.0

    init(start: Double, pauses: [(start: Double, end: Double)]) {
        self.start = start
        self.pauses = pauses.map { ($0.start, max($0.start, $0.end - Self.keptOfEachPause)) }
        var total = 0.0
        removed = self.pauses.map { total += $0.end - $0.start; return total }
    }

    func time(_ utc: Double) -> Double {
        // The pauses that began before `utc` (binary search: they are in time order).
        var low = 0, high = pauses.count
        while low < high {
            let mid = (low + high) / 2
            if pauses[mid].start < utc { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return utc - start }
        let last = pauses[low - 1]
        let before = low > 1 ? removed[low - 2] : 0
        return utc - start - before - (min(utc, last.end) - last.start)
    }
}
