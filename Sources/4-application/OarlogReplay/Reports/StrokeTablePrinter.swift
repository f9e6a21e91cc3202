import OarlogCore
import OarlogDSP
import OarlogPipeline

/// Prints one row per stroke as strokes complete (streaming: nothing is held).
public final class StrokeTablePrinter: PipelineSink {

    /// The boat speed's events (ten a second) carry nothing this sink keeps.
    public var wantsBoatSpeed: Bool { false }
    private let output: (String) -> Void
    private var printedHeader = false
    private let facts: SessionFacts?
    /// Whether the rows have the heart rate and power columns (decided at the header: the
    /// session had a heart rate or an oarlock stroke by its first stroke).
    private var deviceColumns = false

    /// `facts`, when given, adds the heart rate (bpm) and the oarlock's power (W) to each row
    /// when the session has them.
    public init(facts: SessionFacts? = nil, output: @escaping (String) -> Void) {
        self.output = output
        self.facts = facts
    }

    public static let header = "stroke      time   rate  smoothed   split /500m   dist/stroke   distance   d:r   check   swing"
    /// The heart rate and power columns' header, after `header`.
    public static let deviceHeader = "    HR      W"

    public func receive(_ event: PipelineEvent) {
        guard case .analysis(.stroke(let metrics)) = event else { return }
        if !printedHeader {
            deviceColumns = facts.map { $0.strokeFigures.heartRates > 0 || $0.strokeFigures.oarlockStrokes > 0 } ?? false
            output(Self.header + (deviceColumns ? Self.deviceHeader : ""))
            printedHeader = true
        }
        if deviceColumns, let facts {
            output(Self.row(metrics) + Self.deviceColumns(facts.strokeFigures.at(metrics)))
        } else {
            output(Self.row(metrics))
        }
    }

    /// The heart rate and power columns of a row ("—" where none).
    public static func deviceColumns(_ f: StrokeDeviceFigures.AtStroke) -> String {
        TextTable.padLeft(RowingFormat.decimal(f.heartRate, places: 0), 6)
            + TextTable.padLeft(RowingFormat.decimal(f.oarlock?.power, places: 0), 7)
    }

    public static func row(_ m: StrokeMetrics) -> String {
        let right = TextTable.padLeft
        return right(String(m.stroke.index), 6)
            + right(RowingFormat.duration(m.stroke.catchTime), 10)
            + right(RowingFormat.decimal(m.stroke.strokeRate), 7)
            + right(RowingFormat.decimal(m.smoothedRate), 10)
            + right(RowingFormat.split(m.split), 14)
            + right(RowingFormat.decimal(m.distancePerStroke, unit: "m"), 14)
            + right(RowingFormat.distance(m.distance), 11)
            // Stroke quality: drive : recovery as 1 : x, the check (m/s²), the speed fluctuation
            // (% of the mean speed, or m/s without GPS).
            + right(m.stroke.driveRecoveryRatio.map { "1:" + RowingFormat.decimal(1 / $0, places: 1) } ?? RowingFormat.noData, 6)
            + right(RowingFormat.decimal(m.quality.map { Double($0.check) }, places: 2), 8)
            + right(m.quality.map { q in q.speedFluctuationPercent.map { RowingFormat.decimal($0, places: 1) + "%" }
                        ?? RowingFormat.decimal(q.speedFluctuation, places: 2) + "m/s" } ?? RowingFormat.noData, 8)
    }
}

/// Writes the `--json` report as one JSON object, streaming the stroke list (when asked) as
/// strokes complete and the summary fields at the end.
public final class JSONReportSink: PipelineSink {

    /// The boat speed's events (ten a second) carry nothing this sink keeps.
    public var wantsBoatSpeed: Bool { false }
    private let output: (String) -> Void
    private let includeStrokes: Bool
    private let facts: SessionFacts
    private let source: String
    private var writer = JSONWriter()

    /// `workout` and `ghost` gather the plan's intervals and the ghost's race for the report: the
    /// caller's own (the replay's tables read the same ones), or this sink's.
    public init(source: String, includeStrokes: Bool, facts: SessionFacts, workout: WorkoutCollector = WorkoutCollector(),
                ghost: GhostCollector = GhostCollector(), output: @escaping (String) -> Void) {
        self.workout = workout
        self.ghost = ghost
        self.output = output
        self.includeStrokes = includeStrokes
        self.facts = facts
        self.source = source
        writer.beginObject()
        writer.field("source", source)
        if includeStrokes { writer.beginArray(key: "stroke_list") }
    }

    private let workout: WorkoutCollector
    private let ghost: GhostCollector

    /// The heart rates and oarlock strokes, for each interval's figures (the stroke list's come
    /// from `facts`).
    public var wantsRawRecords: Bool { true }

    /// Accelerometer samples: nothing to keep.
    public func receive(accel samples: UnsafeBufferPointer<AccelSample>) {}

    public func receive(_ event: PipelineEvent) {
        workout.receive(event)
        ghost.receive(event)
        guard includeStrokes, case .analysis(.stroke(let m)) = event else { return }
        writer.beginObject()
        writer.strokeFields(m)
        // A session without heart rates or an oarlock keeps its strokes' keys as they were (as the
        // live stream and the fleet send them); the keys come with the first such record.
        if facts.strokeFigures.heartRates > 0 || facts.strokeFigures.oarlockStrokes > 0 {
            writer.deviceStrokeFields(facts.strokeFigures.at(m))
        }
        writer.endObject()
        if writer.text.utf8.count > 1 << 16 { output(writer.take()) }
    }

    public func finish(summary: SessionSummary) {
        if includeStrokes { writer.endArray() }
        writer.summaryFields(summary, counts: RecordCounts(facts), startUTC: facts.metadata("start_utc"))
        workout.write(into: &writer)
        ghost.write(into: &writer)
        if facts.hasDeviceFigures {
            writer.beginObject(key: "device")
            writer.deviceFields(facts)
            writer.endObject()
        }
        writer.endObject()
        output(writer.take())
    }
}

extension JSONWriter {
    /// The other device's own figures (the `device` object): what it recorded and reported, beside
    /// Oarlog's figures for the same outing.
    public mutating func deviceFields(_ facts: SessionFacts) {
        field("name", facts.metadata("device"))
        field("model", facts.metadata("device_model"))
        field("distance_m", facts.deviceDistance, places: 2)
        field("strokes", facts.deviceStrokes)
        field("elapsed_s", facts.deviceElapsed, places: 3)
        field("avg_split_s_per_500m", facts.deviceFigure("device_avg_split_s_per_500m"), places: 2)
        field("avg_stroke_rate_spm", facts.deviceFigure("device_avg_rate_spm"), places: 2)
        field("intervals", facts.deviceCount("device_intervals"))
        field("avg_heart_rate_bpm", facts.deviceFigure("device_avg_heart_rate_bpm"), places: 1)
        field("max_heart_rate_bpm", facts.deviceFigure("device_max_heart_rate_bpm"), places: 0)
        field("avg_power_w", facts.deviceFigure("device_avg_power_w"), places: 1)
    }

    /// One stroke of a `stroke_list`, with the keys every JSON report uses (`null` for no data).
    public mutating func stroke(_ m: StrokeMetrics) {
        beginObject()
        strokeFields(m)
        endObject()
    }

    /// The fields of one stroke, inside an object the caller opened (a live "stroke" message).
    public mutating func strokeFields(_ m: StrokeMetrics) {
        field("index", m.stroke.index)
        field("t_s", m.stroke.catchTime, places: 3)
        field("rate_spm", m.stroke.strokeRate, places: 2)
        field("smoothed_rate_spm", m.smoothedRate, places: 2)
        field("split_s_per_500m", m.split, places: 2)
        field("distance_per_stroke_m", m.distancePerStroke, places: 2)
        field("distance_m", m.distance, places: 2)
        field("drive_s", m.stroke.driveDuration, places: 3)
        field("recovery_s", m.stroke.recoveryDuration, places: 3)
        field("peak_accel_mps2", Double(m.stroke.peakAcceleration), places: 3)
        // Stroke quality (null without accelerometer data covering the stroke).
        let q = m.quality
        field("drive_recovery_ratio", m.stroke.driveRecoveryRatio, places: 3)
        field("check_mps2", q.map { Double($0.check) }, places: 3)
        field("drive_peak_accel_mps2", q.map { Double($0.peakDriveAcceleration) }, places: 3)
        field("drive_mean_accel_mps2", q.map { Double($0.meanDriveAcceleration) }, places: 3)
        field("speed_fluctuation_mps", q?.speedFluctuation, places: 3)
        field("speed_fluctuation_pct", q?.speedFluctuationPercent, places: 2)
        field("speed_min_mps", q?.minimumSpeed, places: 3)
        field("speed_max_mps", q?.maximumSpeed, places: 3)
    }
}

extension JSONWriter {
    /// A stroke's heart rate and oarlock figures (`null` for none): `heart_rate_bpm` (the first
    /// strap's latest within 5 s at or before the catch), `heart_rates` ({strap: bpm}, only when
    /// two or more straps have one), `power_w`, `catch_angle_deg`, `finish_angle_deg`, `slip_deg`,
    /// `wash_deg`, `effective_length_deg`, `avg_force_n`, `max_force_n`, `max_force_angle_deg`,
    /// `work_j` (the oarlock stroke nearest the catch, within half a stroke).
    public mutating func deviceStrokeFields(_ f: StrokeDeviceFigures.AtStroke) {
        field("heart_rate_bpm", f.heartRate, places: 1)
        if !f.heartRates.isEmpty {
            beginObject(key: "heart_rates")
            for (sensor, bpm) in f.heartRates { field(sensor, bpm, places: 1) }
            endObject()
        }
        let o = f.oarlock
        field("power_w", o?.power, places: 1)
        field("catch_angle_deg", o?.catchAngle, places: 1)
        field("finish_angle_deg", o?.finishAngle, places: 1)
        field("slip_deg", o?.slip, places: 1)
        field("wash_deg", o?.wash, places: 1)
        field("effective_length_deg", o?.effectiveLength, places: 1)
        field("avg_force_n", o?.averageForce, places: 1)
        field("max_force_n", o?.maxForce, places: 1)
        field("max_force_angle_deg", o?.maxForceAngle, places: 1)
        field("work_j", o?.work, places: 1)
    }
}
