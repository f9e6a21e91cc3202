import OarlogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The general path's data rows of the native trace (docs/TRACE_FORMAT.md): every row kind with
/// full checks and messages, field by field through a `RowScanner`. `NativeTraceReader` sends
/// here every data row its accelerometer fast path (`FastAccelRow`) declines.
enum NativeDataRow {
    /// A data row parsed: the record (nil for an unknown kind), whether every value that must be
    /// finite is, and whether the required values other than `t` are within their bounds.
    typealias Parsed = (record: TraceRecord?, finite: Bool, plausible: Bool)

    /// Parses `t,kind,...`. Returns nil for an unknown kind; `finite` is false when a value that
    /// must be finite is NaN or infinite; `plausible` is false when a required value other than
    /// `t` is beyond its physical bound (`TraceLimits`: an acceleration, a gap's end). Optional
    /// values beyond their bounds become unknown and are counted in `values`. Out of line, so that
    /// the reader's loop around it stays small.
    @inline(never)
    static func parse(_ row: inout RowScanner, _ values: inout PlausibleValues) throws -> Parsed {
        let (t, tFinite) = try row.double("t")
        try row.comma(before: "the row kind")
        switch try Self.rowKind(&row) {
        case .accel:
            return try Self.accelRow(&row, t: t, tFinite: tFinite)
        case .gps:
            return try Self.gpsRow(&row, &values, t: t, tFinite: tFinite)
        case .note:
            try row.comma(before: "the note text")
            let text = try row.restOfLineText("the note text")
            return (.note(Note(time: t, text: text)), tFinite, true)
        case .gap:
            return try Self.gapRow(&row, t: t, tFinite: tFinite)
        case .ref:
            return try Self.referenceRow(&row, &values, t: t, tFinite: tFinite)
        case .hr:
            return try Self.heartRateRow(&row, t: t, tFinite: tFinite)
        case .oar:
            return try Self.oarlockRow(&row, &values, t: t, tFinite: tFinite)
        case .unknown:
            return (nil, tFinite, true)
        }
    }

    /// The row kind: a lowercase word of letters, digits and `_` (an unknown one is skipped).
    @inline(always)
    private static func rowKind(_ row: inout RowScanner) throws -> RowKind {
        let kindStart = row.i
        let kind = row.word()
        guard let first = kind.first, first >= 0x61 && first <= 0x7A,
              kind.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 &- ASCII.zero) <= 9 || $0 == 0x5F })
        else {
            throw row.error(at: kindStart, "expected a row kind (accel, gps, note, gap, ref, hr, oar), found \(row.found(at: kindStart))")
        }
        return RowKind(kind)
    }

    /// `ax,ay,az` (an accel row the fast path declined).
    @inline(always)
    private static func accelRow(_ row: inout RowScanner, t: Double, tFinite: Bool) throws -> Parsed {
        let (x, fx) = try row.nextFloat("ax")
        let (y, fy) = try row.nextFloat("ay")
        let (z, fz) = try row.nextFloat("az")
        try row.endOfLine(after: "az")
        return (.accel(AccelSample(time: t, x: x, y: y, z: z)), tFinite && fx && fy && fz,
                TraceLimits.plausibleAcceleration(x, y, z))
    }

    /// `lat,lon,speed_mps,course_deg,hacc_m[,alt_m[,utc_s]]`.
    @inline(always)
    private static func gpsRow(_ row: inout RowScanner, _ values: inout PlausibleValues,
                               t: Double, tFinite: Bool) throws -> Parsed {
        try row.comma(before: "lat")
        let latStart = row.i
        let (lat, fLat) = try row.double("lat")
        try row.comma(before: "lon")
        let lonStart = row.i
        let (lon, fLon) = try row.double("lon")
        if fLat && !(-90...90).contains(lat) {
            throw row.error(at: latStart, "expected a latitude in [-90, 90]°, found \(row.found(at: latStart))")
        }
        if fLon && !(-180...180).contains(lon) {
            throw row.error(at: lonStart, "expected a longitude in [-180, 180]°, found \(row.found(at: lonStart))")
        }
        let speed = try row.nextOptionalDouble("speed_mps")
        let course = try row.nextOptionalDouble("course_deg")
        let hacc = try row.nextOptionalDouble("hacc_m")
        var alt: Double? = nil
        var utc: Double? = nil
        if !row.atLineEnd {
            alt = try row.nextOptionalDouble("alt_m")
            if !row.atLineEnd {
                utc = try row.nextOptionalDouble("utc_s")
                try row.endOfLine(after: "utc_s")
            }
        }
        let fix = GPSFix(time: t, utc: values.utc(utc), latitude: lat, longitude: lon, speed: values.speed(speed),
                         course: values.course(course), horizontalAccuracy: values.horizontalAccuracy(hacc),
                         altitude: values.altitude(alt))
        return (.fix(fix), tFinite && fLat && fLon, true)
    }

    /// `sensor,end_t[,reason]`.
    @inline(always)
    private static func gapRow(_ row: inout RowScanner, t: Double, tFinite: Bool) throws -> Parsed {
        try row.comma(before: "sensor")
        let sensorStart = row.i
        let sensorWord = row.word()
        guard let sensor = SensorKind(rawValue: String(decoding: sensorWord, as: UTF8.self)) else {
            throw row.error(at: sensorStart, "expected a sensor (accelerometer or gps), found \(row.found(at: sensorStart))")
        }
        try row.comma(before: "end_t")
        let endStart = row.i
        let (endTime, fEnd) = try row.double("end_t")
        if tFinite && fEnd && endTime < t {
            throw row.error(at: endStart, "expected end_t ≥ t (\(t)), found \(row.found(at: endStart))")
        }
        var reason = ""
        if !row.atLineEnd {
            try row.comma(before: "reason")
            reason = try row.restOfLineText("reason")
        }
        return (.gap(Gap(sensor: sensor, start: t, end: endTime, reason: reason)), tFinite && fEnd,
                endTime <= TraceLimits.maxSessionSeconds)
    }

    /// `distance_m,split_s_per_500m,rate_spm,speed_mps,stroke_count[,distance_per_stroke_m]`.
    @inline(always)
    private static func referenceRow(_ row: inout RowScanner, _ values: inout PlausibleValues,
                                     t: Double, tFinite: Bool) throws -> Parsed {
        let distance = try row.nextOptionalDouble("distance_m")
        let split = try row.nextOptionalDouble("split_s_per_500m")
        let rate = try row.nextOptionalDouble("rate_spm")
        let speed = try row.nextOptionalDouble("speed_mps")
        try row.comma(before: "stroke_count")
        let count = try row.optionalCount("stroke_count")
        var perStroke: Double? = nil
        var power: Double? = nil
        if !row.atLineEnd {
            perStroke = try row.nextOptionalDouble("distance_per_stroke_m")
            if !row.atLineEnd {
                power = try row.nextOptionalDouble("power_w")
                try row.endOfLine(after: "power_w")
            }
            try row.endOfLine(after: "distance_per_stroke_m")
        }
        try row.endOfLine(after: "stroke_count")
        let stroke = ReferenceStroke(time: t, distance: values.distance(distance), split: values.split(split),
                                     strokeRate: values.strokeRate(rate), speed: values.speed(speed),
                                     strokeCount: values.strokeCount(count),
                                     distancePerStroke: values.distancePerStroke(perStroke), power: values.power(power))
        return (.reference(stroke), tFinite, true)
    }

    /// `bpm[,sensor]`: a heart rate (a beat rate outside 20–250 bpm is implausible: the row is
    /// skipped and counted).
    @inline(always)
    private static func heartRateRow(_ row: inout RowScanner, t: Double, tFinite: Bool) throws -> Parsed {
        try row.comma(before: "bpm")
        let (bpm, fBpm) = try row.double("bpm")
        var sensor: String? = nil
        if !row.atLineEnd {
            try row.comma(before: "sensor")
            let text = try row.restOfLineText("sensor")
            if !text.isEmpty { sensor = text }
        }
        return (.heartRate(HeartRateSample(time: t, bpm: bpm, sensor: sensor)), tFinite && fBpm,
                TraceLimits.plausibleHeartRate.contains(bpm))
    }
}

extension NativeDataRow {
    /// `power_w,catch_deg,finish_deg,slip_deg,wash_deg,effective_deg,avg_force_n,max_force_n,
    /// max_force_angle_deg,work_j[,seat]`: an instrumented oarlock's stroke, as `TraceWriter`
    /// writes it. Every figure may be empty (unknown); one beyond its bound (`TraceLimits`: power
    /// 0–5,000 W, angles within ±120°, forces 0–3,000 N, work 0–5,000 J) is unknown and counted.
    @inline(never)
    static func oarlockRow(_ row: inout RowScanner, _ values: inout PlausibleValues,
                           t: Double, tFinite: Bool) throws -> Parsed {
        let power = values.power(try row.nextOptionalDouble("power_w"))
        let catchAngle = values.oarAngle(try row.nextOptionalDouble("catch_deg"))
        let finishAngle = values.oarAngle(try row.nextOptionalDouble("finish_deg"))
        let slip = values.oarAngle(try row.nextOptionalDouble("slip_deg"))
        let wash = values.oarAngle(try row.nextOptionalDouble("wash_deg"))
        let effective = values.oarAngle(try row.nextOptionalDouble("effective_deg"))
        let averageForce = values.handleForce(try row.nextOptionalDouble("avg_force_n"))
        let maxForce = values.handleForce(try row.nextOptionalDouble("max_force_n"))
        let maxForceAngle = values.oarAngle(try row.nextOptionalDouble("max_force_angle_deg"))
        let work = values.strokeWork(try row.nextOptionalDouble("work_j"))
        var seat: String? = nil
        if !row.atLineEnd {
            try row.comma(before: "seat")
            let text = try row.restOfLineText("seat")
            if !text.isEmpty { seat = text }
        }
        let stroke = OarlockStroke(time: t, seat: seat, power: power, catchAngle: catchAngle, finishAngle: finishAngle,
                                   slip: slip, wash: wash, effectiveLength: effective, averageForce: averageForce,
                                   maxForce: maxForce, maxForceAngle: maxForceAngle, work: work)
        return (.oarlock(stroke), tFinite, true)
    }
}

/// The row kinds of the native format.
enum RowKind {
    case accel, gps, note, gap, ref, hr, oar, unknown

    init(_ word: UnsafeBufferPointer<UInt8>) {
        func equals(_ s: StaticString) -> Bool {
            s.utf8CodeUnitCount == word.count && memcmp(s.utf8Start, word.baseAddress!, word.count) == 0
        }
        if equals("accel") { self = .accel }
        else if equals("gps") { self = .gps }
        else if equals("note") { self = .note }
        else if equals("gap") { self = .gap }
        else if equals("ref") { self = .ref }
        else if equals("hr") { self = .hr }
        else if equals("oar") { self = .oar }
        else { self = .unknown }
    }
}
