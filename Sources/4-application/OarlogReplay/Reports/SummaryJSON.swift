import OarlogCore
import OarlogDSP

/// The counts behind a summary that decide what is "no data", and what every JSON report gives.
public struct RecordCounts: Sendable, Equatable {
    public var accelerometerSamples: Int
    public var fixes: Int
    public var notes: Int
    public var gaps: Int
    public var referenceStrokes: Int

    public init(accelerometerSamples: Int, fixes: Int, notes: Int, gaps: Int, referenceStrokes: Int) {
        self.accelerometerSamples = accelerometerSamples
        self.fixes = fixes
        self.notes = notes
        self.gaps = gaps
        self.referenceStrokes = referenceStrokes
    }

    /// The counts a run's `SessionFacts` gathered.
    public init(_ facts: SessionFacts) {
        self.init(accelerometerSamples: facts.accelSamples, fixes: facts.fixes, notes: facts.noteCount, gaps: facts.gapCount,
                  referenceStrokes: facts.referenceStrokes)
    }

    /// Strokes are "no data" when there was neither an accelerometer nor a device's strokes.
    public func strokesKnown(_ summary: SessionSummary) -> Bool {
        RowingFormat.strokesKnown(strokes: summary.strokes, accelerometerSamples: accelerometerSamples, referenceStrokes: referenceStrokes)
    }
}

extension JSONWriter {
    /// The summary keys every JSON report shares (`oarlog replay --json`, `oarlog show --json`,
    /// the web API), `null` for no data.
    public mutating func summaryFields(_ summary: SessionSummary, counts: RecordCounts, startUTC: String?) {
        field("elapsed_s", summary.elapsed, places: 3)
        field("distance_m", summary.distance, places: 2)
        field("strokes", counts.strokesKnown(summary) ? summary.strokes : nil)
        field("avg_stroke_rate_spm", summary.averageStrokeRate, places: 2)
        field("max_stroke_rate_spm", summary.maxStrokeRate, places: 2)
        field("avg_split_s_per_500m", summary.averageSplit, places: 2)
        field("best_split_s_per_500m", summary.bestSplit, places: 2)
        field("distance_per_stroke_m", summary.distancePerStroke, places: 2)
        field("avg_drive_recovery_ratio", summary.averageDriveRecoveryRatio, places: 3)
        field("avg_check_mps2", summary.averageCheck.map(Double.init), places: 3)
        field("avg_speed_fluctuation_mps", summary.averageSpeedFluctuation, places: 3)
        field("avg_speed_fluctuation_pct", summary.averageSpeedFluctuationPercent, places: 2)
        field("avg_heart_rate_bpm", summary.averageHeartRate, places: 1)
        field("max_heart_rate_bpm", summary.maxHeartRate, places: 0)
        field("avg_power_w", summary.averagePower, places: 1)
        heartRateSensorFields(summary.heartRateSensors)
        oarlockFields(summary.oarlock)
        field("start_utc", startUTC)
        field("accel_samples", counts.accelerometerSamples)
        field("gps_fixes", counts.fixes)
        field("notes", counts.notes)
        field("gaps", counts.gaps)
    }
}

extension JSONWriter {
    /// `heart_rate_sensors`: one object per named strap (`sensor`, `avg_bpm`, `max_bpm`), in the
    /// order they first gave a heart rate; `[]` when no heart rate named its sensor.
    public mutating func heartRateSensorFields(_ sensors: HeartRateBySensor) {
        beginArray(key: "heart_rate_sensors")
        for s in sensors.sensors {
            beginObject()
            field("sensor", s.name)
            field("avg_bpm", s.average, places: 1)
            field("max_bpm", s.max, places: 0)
            endObject()
        }
        endArray()
    }

    /// The instrumented oarlock's averages (`null` where no stroke gave the figure).
    public mutating func oarlockFields(_ o: OarlockAverages) {
        field("avg_catch_angle_deg", o.averageCatchAngle, places: 1)
        field("avg_finish_angle_deg", o.averageFinishAngle, places: 1)
        field("avg_slip_deg", o.averageSlip, places: 1)
        field("avg_wash_deg", o.averageWash, places: 1)
        field("avg_effective_length_deg", o.averageEffectiveLength, places: 1)
        field("avg_force_n", o.averageForceMean, places: 1)
        field("avg_max_force_n", o.averageMaxForce, places: 1)
        field("avg_max_force_angle_deg", o.averageMaxForceAngle, places: 1)
        field("avg_work_j", o.averageWork, places: 1)
    }
}
