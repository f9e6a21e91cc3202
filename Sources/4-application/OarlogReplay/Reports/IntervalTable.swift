import OarlogCore
import OarlogWorkouts

/// The intervals of a workout as `oarlog replay` and `oarlog show` print them: one row per
/// interval (piece or rest) with its time, distance, split, rate, strokes and metres per stroke,
/// and each target with the share of the piece rowed in its band.
public enum IntervalTable {
    /// With `deviceFigures` (a replay's) holding a heart rate or an oarlock's power, the rows
    /// have an HR (mean bpm) and a W (mean power) column.
    public static func render(plan: WorkoutPlan, intervals: [WorkoutInterval],
                              deviceFigures: [Int: IntervalDeviceFigures] = [:]) -> String {
        let out = "Workout \(plan.name): \(plan.pieceCount) piece\(plan.pieceCount == 1 ? "" : "s"), "
            + "\(intervals.count) of \(plan.steps.count) intervals rowed\n"
        guard !intervals.isEmpty else { return out + "  (no interval was rowed: the plan starts at the first catch)\n" }
        let device = intervals.contains { i in
            deviceFigures[i.stepIndex].map { $0.averageHeartRate != nil || $0.oarlock.averagePower != nil } ?? false
        }
        var rows = [["#", "Interval", "Start", "Time", "Distance", "Split", "Rate", "Strokes", "m/str"]
                    + (device ? ["HR", "W"] : []) + ["Target"]]
        for i in intervals {
            let f = deviceFigures[i.stepIndex]
            rows.append([
                "\(i.index)", name(i), RowingFormat.duration(i.start), RowingFormat.duration(i.elapsed),
                RowingFormat.distance(i.distance), RowingFormat.split(i.averageSplit),
                i.averageStrokeRate.map { RowingFormat.fixed($0, places: 1) } ?? RowingFormat.noData,
                "\(i.strokes)", i.distancePerStroke.map { RowingFormat.fixed($0, places: 1) } ?? RowingFormat.noData,
            ] + (device ? [RowingFormat.decimal(f?.averageHeartRate, places: 0),
                           RowingFormat.decimal(f?.oarlock.averagePower, places: 0)] : []) + [target(i)])
        }
        return out + TextTable.columns(rows, rightAligned: Set([0, 2, 3, 4, 5, 6, 7, 8] + (device ? [9, 10] : [])))
    }

    static func name(_ i: WorkoutInterval) -> String {
        var text: String
        switch i.kind {
        case .work: text = "piece \(i.pieceNumber ?? 0)"
        case .rest: text = "rest"
        case .warmup: text = "warm-up"
        case .cooldown: text = "cool-down"
        }
        if let label = i.label, !label.isEmpty { text += " (\(label))" }
        if !i.completed { text += " (stopped)" }
        return text
    }

    /// `22–24 spm 87% · 1:48–1:52 64%`, or "—".
    public static func target(_ i: WorkoutInterval) -> String {
        var parts: [String] = []
        if let r = i.target.strokeRate {
            let band = r.lowerBound == r.upperBound ? RowingFormat.fixed(r.lowerBound, places: 0)
                : RowingFormat.fixed(r.lowerBound, places: 0) + "–" + RowingFormat.fixed(r.upperBound, places: 0)
            parts.append(band + " spm" + share(i.strokeRateInBand))
        }
        if let s = i.target.split {
            let band = s.lowerBound == s.upperBound ? RowingFormat.split(s.lowerBound)
                : RowingFormat.split(s.lowerBound) + "–" + RowingFormat.split(s.upperBound)
            parts.append(band + share(i.splitInBand))
        }
        return parts.isEmpty ? RowingFormat.noData : parts.joined(separator: " · ")
    }

    static func share(_ fraction: Double?) -> String {
        fraction.map { " " + RowingFormat.fixed($0 * 100, places: 0) + "% in band" } ?? ""
    }
}
