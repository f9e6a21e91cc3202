import OarlogCore
import OarlogDSP

/// A named moment with free-form fields: a geofence crossing ("fence.enter", fields "fence": "500m
/// mark"), a marker, or any later kind of conclusion, recorded without a format change.
public struct SessionEvent: Sendable, Equatable {
    public var time: Seconds
    /// Dotted name, e.g. "fence.enter", "fence.exit".
    public var name: String
    public var fields: [SessionMetadata.Setting]
    public init(time: Seconds, name: String, fields: [SessionMetadata.Setting] = []) {
        self.time = time
        self.name = name
        self.fields = fields
    }
}

/// One thing a session file holds, in the order the pipeline produced it.
public enum SessionEntry: Sendable, Equatable {
    /// A raw record as it arrived (accelerometer sample, fix, note, gap, reference stroke, trace metadata).
    case record(TraceRecord)
    /// A stroke and its figures (split, distance per stroke, …) as the analyzer concluded them.
    case stroke(StrokeMetrics)
    /// A stroke at its catch (`AnalyzerEvent.caught`): its `stroke` entry follows later.
    case caught(StrokeMetrics)
    /// A catch that was no stroke (`AnalyzerEvent.withdrawn`).
    case withdrawn(StrokeEvent)
    case event(SessionEvent)
}

/// Encoding of the records other than accelerometer blocks. Optional values are marked by a
/// presence bitmask; every Double is stored as its bit pattern (bit-exact).
enum RecordCoding {
    static func encodeFix(_ f: GPSFix, into w: inout ByteWriter) {
        var present: UInt8 = 0
        if f.utc != nil { present |= 1 }
        if f.speed != nil { present |= 2 }
        if f.course != nil { present |= 4 }
        if f.horizontalAccuracy != nil { present |= 8 }
        if f.altitude != nil { present |= 16 }
        if f.satellitesUsed != nil { present |= 32 }
        w.f64(f.time)
        w.u8(present)
        w.f64(f.latitude)
        w.f64(f.longitude)
        w.u8(UInt8(truncatingIfNeeded: f.mode.rawValue))
        if let v = f.utc { w.f64(v) }
        if let v = f.speed { w.f64(v) }
        if let v = f.course { w.f64(v) }
        if let v = f.horizontalAccuracy { w.f64(v) }
        if let v = f.altitude { w.f64(v) }
        if let v = f.satellitesUsed { w.zigzag(Int64(v)) }
    }

    static func decodeFix(_ r: inout ByteReader) throws -> GPSFix {
        let time = try r.f64()
        let present = try r.u8()
        var f = GPSFix(time: time, latitude: try r.f64(), longitude: try r.f64())
        f.mode = FixMode(rawValue: Int(try r.u8())) ?? .unknown
        if present & 1 != 0 { f.utc = try r.f64() }
        if present & 2 != 0 { f.speed = try r.f64() }
        if present & 4 != 0 { f.course = try r.f64() }
        if present & 8 != 0 { f.horizontalAccuracy = try r.f64() }
        if present & 16 != 0 { f.altitude = try r.f64() }
        if present & 32 != 0 { f.satellitesUsed = Int(truncatingIfNeeded: try r.zigzag()) }
        return f
    }

    static func encodeReference(_ s: ReferenceStroke, into w: inout ByteWriter) {
        var present: UInt8 = 0
        if s.distance != nil { present |= 1 }
        if s.split != nil { present |= 2 }
        if s.strokeRate != nil { present |= 4 }
        if s.speed != nil { present |= 8 }
        if s.strokeCount != nil { present |= 16 }
        if s.distancePerStroke != nil { present |= 32 }
        if s.power != nil { present |= 64 }
        w.f64(s.time)
        w.u8(present)
        if let v = s.distance { w.f64(v) }
        if let v = s.split { w.f64(v) }
        if let v = s.strokeRate { w.f64(v) }
        if let v = s.speed { w.f64(v) }
        if let v = s.strokeCount { w.zigzag(Int64(v)) }
        if let v = s.distancePerStroke { w.f64(v) }
        if let v = s.power { w.f64(v) }   // minor version 3: appended, older readers stop before it
    }

    /// A heart rate (minor version 3): time, bpm, the sensor (empty: one strap without a name).
    static func decodeHeartRate(_ r: inout ByteReader) throws -> HeartRateSample {
        let time = try r.f64(), bpm = try r.f64(), sensor = try r.string()
        return HeartRateSample(time: time, bpm: bpm, sensor: sensor.isEmpty ? nil : sensor)
    }

    static func decodeReference(_ r: inout ByteReader) throws -> ReferenceStroke {
        var s = ReferenceStroke(time: try r.f64())
        let present = try r.u8()
        if present & 1 != 0 { s.distance = try r.f64() }
        if present & 2 != 0 { s.split = try r.f64() }
        if present & 4 != 0 { s.strokeRate = try r.f64() }
        if present & 8 != 0 { s.speed = try r.f64() }
        if present & 16 != 0 { s.strokeCount = Int(truncatingIfNeeded: try r.zigzag()) }
        if present & 32 != 0 { s.distancePerStroke = try r.f64() }
        if present & 64 != 0 { s.power = try r.f64() }
        return s
    }

    static func encodeStroke(_ m: StrokeMetrics, into w: inout ByteWriter) {
        let s = m.stroke
        var present: UInt8 = 0
        if s.recoveryDuration != nil { present |= 1 }
        if s.strokeRate != nil { present |= 2 }
        if m.smoothedRate != nil { present |= 4 }
        if m.split != nil { present |= 8 }
        if m.distancePerStroke != nil { present |= 16 }
        if m.distance != nil { present |= 32 }
        w.zigzag(Int64(s.index))
        w.f64(s.catchTime)
        w.f64(s.driveDuration)
        w.f32(s.peakAcceleration)
        w.u8(present)
        if let v = s.recoveryDuration { w.f64(v) }
        if let v = s.strokeRate { w.f64(v) }
        if let v = m.smoothedRate { w.f64(v) }
        if let v = m.split { w.f64(v) }
        if let v = m.distancePerStroke { w.f64(v) }
        if let v = m.distance { w.f64(v) }
        // Minor version 1: the stroke's quality, appended (older readers ignore it; a stroke
        // without one writes nothing more, as before).
        if let q = m.quality {
            w.u8(q.meanSpeed != nil ? 1 : 0)
            w.f32(q.check)
            w.f32(q.peakDriveAcceleration)
            w.f32(q.meanDriveAcceleration)
            w.f64(q.speedBelowMean)
            w.f64(q.speedAboveMean)
            if let v = q.meanSpeed { w.f64(v) }
        }
    }

    static func decodeStroke(_ r: inout ByteReader, stage: StrokeEvent.Stage = .complete) throws -> StrokeMetrics {
        let index = Int(truncatingIfNeeded: try r.zigzag())
        let catchTime = try r.f64()
        let drive = try r.f64()
        let peak = try r.f32()
        let present = try r.u8()
        let recovery = present & 1 != 0 ? try r.f64() : nil
        let rate = present & 2 != 0 ? try r.f64() : nil
        var m = StrokeMetrics(stroke: StrokeEvent(index: index, catchTime: catchTime, driveDuration: drive,
                                                  recoveryDuration: recovery, peakAcceleration: peak, strokeRate: rate,
                                                  stage: stage))
        if present & 4 != 0 { m.smoothedRate = try r.f64() }
        if present & 8 != 0 { m.split = try r.f64() }
        if present & 16 != 0 { m.distancePerStroke = try r.f64() }
        if present & 32 != 0 { m.distance = try r.f64() }
        if r.remaining > 0 {
            let qualityPresent = try r.u8()
            var q = StrokeQuality(check: try r.f32(), peakDriveAcceleration: try r.f32(), meanDriveAcceleration: try r.f32(),
                                  speedBelowMean: try r.f64(), speedAboveMean: try r.f64())
            if qualityPresent & 1 != 0 { q.meanSpeed = try r.f64() }
            m.quality = q
        }
        return m
    }

    static func encodeEvent(_ e: SessionEvent, into w: inout ByteWriter) {
        w.f64(e.time)
        w.string(e.name)
        w.varint(UInt64(e.fields.count))
        for f in e.fields {
            w.string(f.key)
            w.string(f.value)
        }
    }

    static func decodeEvent(_ r: inout ByteReader) throws -> SessionEvent {
        var e = SessionEvent(time: try r.f64(), name: try r.string())
        let n = try r.length(limit: r.remaining)
        for _ in 0..<n { e.fields.append(SessionMetadata.Setting(try r.string(), try r.string())) }
        return e
    }

    static func encodeGap(_ g: Gap, into w: inout ByteWriter) {
        w.f64(g.start)
        w.f64(g.end)
        w.string(g.sensor.rawValue)
        w.string(g.reason)
        // Minor version 3, appended (older readers stop before it): bit 0 breaks the track, bit 1
        // a device distance follows.
        if g.breaksTrack || g.deviceDistance != nil {
            w.u8((g.breaksTrack ? 1 : 0) | (g.deviceDistance != nil ? 2 : 0))
            if let d = g.deviceDistance { w.f64(d) }
        }
    }

    /// `nil` for a sensor kind this build does not know (a newer writer's): skipped like an unknown record.
    static func decodeGap(_ r: inout ByteReader) throws -> Gap? {
        let start = try r.f64()
        let end = try r.f64()
        let sensorName = try r.string()
        let reason = try r.string()
        let flags = r.remaining > 0 ? try r.u8() : 0
        let deviceDistance = flags & 2 != 0 ? try r.f64() : nil
        return SensorKind(rawValue: sensorName).map {
            Gap(sensor: $0, start: start, end: end, reason: reason, breaksTrack: flags & 1 != 0, deviceDistance: deviceDistance)
        }
    }
}
