import OarlogCore
import OarlogDSP

/// How much of each kind a session holds, and the time it covers.
public struct SessionStatistics: Sendable, Equatable {
    public var chunks = 0
    public var accelerometerSamples = 0
    public var fixes = 0
    public var notes = 0
    public var gaps = 0
    public var referenceStrokes = 0
    public var traceMetadata = 0
    public var strokes = 0
    public var events = 0
    /// Strokes recorded at their catch (less those withdrawn): the strokes a display counted.
    public var strokeCatches = 0
    /// The boat's fused speed samples (minor version 6).
    public var boatSpeedSamples = 0
    /// Earliest and latest time of a raw record or event.
    public var firstTime: Seconds?
    public var lastTime: Seconds?
    public init() {}

    /// Session length on the data clock.
    public var duration: Seconds? {
        guard let firstTime, let lastTime else { return nil }
        return lastTime - firstTime
    }

    mutating func see(_ t: Seconds) {
        guard !t.isNaN else { return }
        if firstTime.map({ t < $0 }) ?? true { firstTime = t }
        if lastTime.map({ t > $0 }) ?? true { lastTime = t }
    }

    /// Adds a chunk's counts.
    mutating func add(_ other: SessionStatistics) {
        chunks += other.chunks
        accelerometerSamples += other.accelerometerSamples
        fixes += other.fixes
        notes += other.notes
        gaps += other.gaps
        referenceStrokes += other.referenceStrokes
        traceMetadata += other.traceMetadata
        strokes += other.strokes
        events += other.events
        strokeCatches += other.strokeCatches
        boatSpeedSamples += other.boatSpeedSamples
        if let t = other.firstTime { see(t) }
        if let t = other.lastTime { see(t) }
    }
}

/// The summary frame: record statistics, and the analyzer's totals when the session finished
/// normally (`analysis` is `nil` for a session that was cut short and recovered).
public struct RecordedSummary: Sendable, Equatable {
    public var statistics: SessionStatistics
    public var analysis: SessionSummary?
    public init(statistics: SessionStatistics, analysis: SessionSummary?) {
        self.statistics = statistics
        self.analysis = analysis
    }

    func encode(into w: inout ByteWriter) {
        var pairs: [(String, String)] = []
        let s = statistics
        pairs += [("chunks", "\(s.chunks)"), ("accelerometer_samples", "\(s.accelerometerSamples)"),
                  ("fixes", "\(s.fixes)"), ("notes", "\(s.notes)"), ("gaps", "\(s.gaps)"),
                  ("reference_strokes", "\(s.referenceStrokes)"), ("trace_metadata", "\(s.traceMetadata)"),
                  ("strokes", "\(s.strokes)"), ("events", "\(s.events)"), ("stroke_catches", "\(s.strokeCatches)")]
        if s.boatSpeedSamples != 0 { pairs.append(("boat_speed_samples", "\(s.boatSpeedSamples)")) }
        if let t = s.firstTime { pairs.append(("first_time", "\(t)")) }
        if let t = s.lastTime { pairs.append(("last_time", "\(t)")) }
        if let a = analysis {
            pairs.append(("analysis.strokes", "\(a.strokes)"))
            pairs.append(("analysis.rejected_fixes", "\(a.rejectedFixes)"))
            pairs.append(("analysis.reanchors", "\(a.reanchors)"))
            pairs.append(("analysis.gps_gaps", "\(a.gpsGaps)"))
            pairs.append(("analysis.accelerometer_gaps", "\(a.accelerometerGaps)"))
            let optionals: [(String, Double?)] = [
                ("elapsed", a.elapsed), ("distance", a.distance), ("average_stroke_rate", a.averageStrokeRate),
                ("max_stroke_rate", a.maxStrokeRate), ("average_split", a.averageSplit), ("best_split", a.bestSplit),
                ("distance_per_stroke", a.distancePerStroke), ("moving_time", a.movingTime),
                ("drive_recovery_ratio", a.averageDriveRecoveryRatio), ("check", a.averageCheck.map(Double.init)),
                ("speed_fluctuation", a.averageSpeedFluctuation), ("speed_fluctuation_percent", a.averageSpeedFluctuationPercent),
                ("average_heart_rate", a.averageHeartRate), ("max_heart_rate", a.maxHeartRate), ("average_power", a.averagePower),
            ]
            for (k, v) in optionals { if let v { pairs.append(("analysis." + k, "\(v)")) } }
            pairs += Self.extraPairs(a)
        }
        w.varint(UInt64(pairs.count))
        for (k, v) in pairs {
            w.string(k)
            w.string(v)
        }
    }

    static func decode(_ r: inout ByteReader) throws -> RecordedSummary {
        var s = SessionStatistics()
        var a = SessionSummary()
        var hasAnalysis = false
        var sensors: [(Int, HeartRateBySensor.Sensor)] = [], ignored = 0
        let n = try r.length(limit: r.remaining)
        for _ in 0..<n {
            let key = try r.string()
            let value = try r.string()
            let int = Int(value) ?? 0
            let double = Double(value)
            switch key {
            case "chunks": s.chunks = int
            case "accelerometer_samples": s.accelerometerSamples = int
            case "fixes": s.fixes = int
            case "notes": s.notes = int
            case "gaps": s.gaps = int
            case "reference_strokes": s.referenceStrokes = int
            case "trace_metadata": s.traceMetadata = int
            case "strokes": s.strokes = int
            case "events": s.events = int
            case "stroke_catches": s.strokeCatches = int
            case "boat_speed_samples": s.boatSpeedSamples = int
            case "first_time": s.firstTime = double
            case "last_time": s.lastTime = double
            case "analysis.strokes": a.strokes = int; hasAnalysis = true
            case "analysis.rejected_fixes": a.rejectedFixes = int
            case "analysis.reanchors": a.reanchors = int
            case "analysis.gps_gaps": a.gpsGaps = int
            case "analysis.accelerometer_gaps": a.accelerometerGaps = int
            case "analysis.elapsed": a.elapsed = double
            case "analysis.distance": a.distance = double
            case "analysis.average_stroke_rate": a.averageStrokeRate = double
            case "analysis.max_stroke_rate": a.maxStrokeRate = double
            case "analysis.average_split": a.averageSplit = double
            case "analysis.best_split": a.bestSplit = double
            case "analysis.distance_per_stroke": a.distancePerStroke = double
            case "analysis.moving_time": a.movingTime = double
            case "analysis.drive_recovery_ratio": a.averageDriveRecoveryRatio = double
            case "analysis.check": a.averageCheck = double.map { MetresPerSecondSquared($0) }
            case "analysis.speed_fluctuation": a.averageSpeedFluctuation = double
            case "analysis.speed_fluctuation_percent": a.averageSpeedFluctuationPercent = double
            case "analysis.average_heart_rate": a.averageHeartRate = double
            case "analysis.max_heart_rate": a.maxHeartRate = double
            case "analysis.average_power": a.averagePower = double
            default:
                _ = decodeExtra(key: key, value: value, into: &a, sensors: &sensors, ignored: &ignored)
                // else a newer writer's key
            }
        }
        if !sensors.isEmpty || ignored > 0 {
            a.heartRateSensors = HeartRateBySensor(sensors: sensors.sorted { $0.0 < $1.0 }.map(\.1), ignoredSamples: ignored)
        }
        return RecordedSummary(statistics: s, analysis: hasAnalysis ? a : nil)
    }
}

/// The footer frame's payload: where the index and summary frames are, and where data ends.
struct Footer: Equatable {
    var indexOffset: UInt64
    var summaryOffset: UInt64
    var dataEnd: UInt64

    func encode(into w: inout ByteWriter) {
        w.u64(indexOffset)
        w.u64(summaryOffset)
        w.u64(dataEnd)
    }

    static func decode(_ r: inout ByteReader) throws -> Footer {
        Footer(indexOffset: try r.u64(), summaryOffset: try r.u64(), dataEnd: try r.u64())
    }
}
