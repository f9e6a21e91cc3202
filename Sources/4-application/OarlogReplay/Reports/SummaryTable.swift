import OarlogCore
import OarlogDSP

/// The coxswain's summary table: one line per figure, "—" where a sensor gave no data, and the
/// other device's own figures beside ours when the trace came from one.
public enum SummaryTable {
    /// The stroke quality lines (means over the strokes that have it), none without it: the
    /// drive : recovery ratio, the check, the speed fluctuation within a stroke ("speed swing",
    /// labels no longer than the others').
    public static func qualityRows(_ summary: SessionSummary) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let r = summary.averageDriveRecoveryRatio, r > 0 {
            rows.append(("Drive:recovery", "1 : " + RowingFormat.decimal(1 / r, places: 2)))
        }
        if let c = summary.averageCheck { rows.append(("Check", RowingFormat.decimal(Double(c), places: 2) + " m/s²")) }
        if let f = summary.averageSpeedFluctuation {
            let mps = RowingFormat.decimal(f, places: 2) + " m/s"
            rows.append(("Speed swing", summary.averageSpeedFluctuationPercent.map {
                RowingFormat.decimal($0, places: 1) + " % (" + mps + ")" } ?? mps))
        }
        return rows
    }

    public static func render(title: String, summary: SessionSummary, facts: SessionFacts) -> String {
        var rows: [(String, String, String?)] = []
        let device = facts.hasDeviceFigures
        func add(_ label: String, _ ours: String, _ theirs: String? = nil) { rows.append((label, ours, theirs)) }

        if let utc = facts.metadata("start_utc") {
            add("Start (UTC)", utc)
        } else if let local = facts.metadata("start_local") {
            add("Start (local)", local)  // the device recorded no time zone
        } else {
            add("Start (UTC)", RowingFormat.noData)
        }
        add("Elapsed", RowingFormat.duration(summary.elapsed),
            device ? RowingFormat.duration(facts.deviceElapsed) : nil)
        add("Distance", RowingFormat.distance(summary.distance),
            device ? RowingFormat.distance(facts.deviceDistance) : nil)
        add("Strokes", RowingFormat.strokesKnown(strokes: summary.strokes, accelerometerSamples: facts.accelSamples,
                                          referenceStrokes: facts.referenceStrokes) ? String(summary.strokes) : RowingFormat.noData,
            device ? (facts.deviceStrokes.map(String.init)
                      ?? (facts.referenceStrokes > 0 ? String(facts.referenceStrokes) : RowingFormat.noData)) : nil)
        add("Avg stroke rate", RowingFormat.decimal(summary.averageStrokeRate, unit: "spm"),
            device ? RowingFormat.decimal(facts.deviceFigure("device_avg_rate_spm"), unit: "spm") : nil)
        add("Max stroke rate", RowingFormat.decimal(summary.maxStrokeRate, unit: "spm"))
        add("Avg split", withUnit(RowingFormat.split(summary.averageSplit), "/500m"),
            device ? withUnit(RowingFormat.split(facts.deviceFigure("device_avg_split_s_per_500m")), "/500m") : nil)
        add("Best split", withUnit(RowingFormat.split(summary.bestSplit), "/500m"))
        add("Distance/stroke", RowingFormat.decimal(summary.distancePerStroke, unit: "m"),
            device ? RowingFormat.decimal(facts.deviceFigure("device_distance_per_stroke_m"), unit: "m") : nil)
        for (label, value) in Self.qualityRows(summary) { add(label, value) }
        if summary.averageHeartRate != nil || facts.deviceFigure("device_avg_heart_rate_bpm") != nil {
            add("Avg heart rate", RowingFormat.decimal(summary.averageHeartRate, unit: "bpm"),
                device ? RowingFormat.decimal(facts.deviceFigure("device_avg_heart_rate_bpm"), unit: "bpm") : nil)
            add("Max heart rate", RowingFormat.decimal(summary.maxHeartRate, unit: "bpm"))
        }
        if summary.averagePower != nil {
            add("Avg power", RowingFormat.decimal(summary.averagePower, unit: "W"),
                device ? RowingFormat.decimal(facts.deviceFigure("device_avg_power_w"), unit: "W") : nil)
        }
        for (label, value) in Self.deviceRows(summary) { add(label, value) }
        add("Notes", String(facts.noteCount))
        add("Sensor gaps", facts.gapCount == 0 ? "none" : "\(facts.gapCount) (" + RowingFormat.duration(facts.gaps.reduce(0) { $0 + $1.duration }) + ")")
        add("Accelerometer", facts.accelSamples > 0 ? "\(facts.accelSamples) samples" : RowingFormat.noData)
        add("GPS", facts.fixes > 0 ? "\(facts.fixes) fixes" : RowingFormat.noData)

        let labelWidth = rows.map { $0.0.count }.max() ?? 0
        let oursWidth = max(rows.map { $0.1.count }.max() ?? 0, 8)
        var out = title + "\n"
        if device {
            out += TextTable.padRight("", labelWidth) + "  " + TextTable.padRight("Oarlog", oursWidth) + "  Device\n"
        }
        for (label, ours, theirs) in rows {
            var line = TextTable.padRight(label, labelWidth) + "  " + (theirs == nil ? ours : TextTable.padRight(ours, oursWidth))
            if let theirs { line += "  " + theirs }
            out += line + "\n"
        }
        return out
    }

    /// The heart rate of each named strap and the instrumented oarlock's averages; none when the
    /// session has neither.
    public static func deviceRows(_ summary: SessionSummary) -> [(String, String)] {
        var rows: [(String, String)] = []
        for s in summary.heartRateSensors.sensors {
            rows.append(("Heart rate " + s.name, RowingFormat.decimal(s.average, unit: "bpm") + " (max "
                         + RowingFormat.decimal(s.max, places: 0) + ")"))
        }
        let o = summary.oarlock
        guard o.strokes > 0 else { return rows }
        func pair(_ a: Double?, _ b: Double?, _ unit: String) -> String {
            RowingFormat.decimal(a, unit: unit) + " / " + RowingFormat.decimal(b, unit: unit)
        }
        rows.append(("Catch / finish", pair(o.averageCatchAngle, o.averageFinishAngle, "°")))
        rows.append(("Slip / wash", pair(o.averageSlip, o.averageWash, "°")))
        rows.append(("Effective arc", RowingFormat.decimal(o.averageEffectiveLength, unit: "°")))
        rows.append(("Force avg / max", pair(o.averageForceMean, o.averageMaxForce, "N")))
        rows.append(("Peak force angle", RowingFormat.decimal(o.averageMaxForceAngle, unit: "°")))
        rows.append(("Work", RowingFormat.decimal(o.averageWork, unit: "J")))
        return rows
    }

    private static func withUnit(_ value: String, _ unit: String) -> String {
        value == RowingFormat.noData ? value : value + " " + unit
    }
}
