import OarlogCore

/// The device's own figures: the session summary and the interval summaries, as metadata.
extension SpeedCoachReader {
    /// A summary figure: its names (LiNK layout first, then the older one), its metadata key,
    /// how it converts, and its bound.
    private struct Figure {
        var names: [String], key: String, kind: Kind, range: ClosedRange<Double>
        enum Kind { case count, clock, distance, speed, split, metres }
    }

    private func figures() -> [Figure] {
        let src = source, other: SpeedCoachLayout.Source = source == .gps ? .impeller : .gps
        let count = 0...Double(TraceLimits.maxStrokeCount)
        var list = [
            Figure(names: ["Total Intervals"], key: "device_intervals", kind: .count, range: 0...Double(Self.maxTableRows)),
            Figure(names: SpeedCoachLayout.names("Total Distance", src) + ["Total Distance"], key: "device_total_distance_m",
                   kind: .distance, range: 0...TraceLimits.maxDistance),
            Figure(names: ["Total Elapsed Time", "Elapsed Time"], key: "device_elapsed_s", kind: .clock, range: 0...TraceLimits.maxSessionSeconds),
            Figure(names: ["Total Strokes"], key: "device_total_strokes", kind: .count, range: count),
            Figure(names: SpeedCoachLayout.names("Avg Split", src) + ["Avg Split"], key: "device_avg_split_s_per_500m",
                   kind: .split, range: 0...TraceLimits.maxSplit),
            Figure(names: SpeedCoachLayout.names("Avg Speed", src) + ["Avg Speed"], key: "device_avg_speed_mps",
                   kind: .speed, range: 0...TraceLimits.maxSpeed),
            Figure(names: ["Avg Stroke Rate"], key: "device_avg_rate_spm", kind: .count, range: 0...TraceLimits.maxStrokeRate),
            Figure(names: SpeedCoachLayout.names("Distance/Stroke", src), key: "device_distance_per_stroke_m",
                   kind: .metres, range: 0...TraceLimits.maxDistancePerStroke),
            Figure(names: ["Avg Heart Rate"], key: "device_avg_heart_rate_bpm", kind: .count, range: TraceLimits.plausibleHeartRate),
        ]
        if src == .impeller {
            list.append(Figure(names: SpeedCoachLayout.names("Total Distance", other), key: "device_gps_distance_m",
                               kind: .distance, range: 0...TraceLimits.maxDistance))
        }
        return list
    }

    /// The value of `figure` in a summary row, converted; nil when absent, unknown or beyond its
    /// bound (counted in `bounds`).
    private func value(_ figure: Figure, _ table: SpeedCoachLayout.Table, _ values: [String],
                       _ bounds: inout PlausibleValues) throws -> Double? {
        guard let k = table.index(figure.names), k < values.count else { return nil }
        let s = values[k]
        if s.isEmpty || s == "---" { return nil }
        var factor = 1.0
        let unit = table.unit(k)
        switch figure.kind {
        case .distance: guard let f = SpeedCoachLayout.metres(per: unit) else { throw unknownUnit(k, "\(table.header[k]) in \(unit)") }; factor = f
        case .speed: guard let f = SpeedCoachLayout.metresPerSecond(per: unit) else { throw unknownUnit(k, "\(table.header[k]) in \(unit)") }; factor = f
        case .split: guard let f = SpeedCoachLayout.splitTo500m(per: unit) else { throw unknownUnit(k, "\(table.header[k]) in \(unit)") }; factor = f
        case .count, .clock, .metres: break
        }
        let raw = figure.kind == .clock || figure.kind == .split ? CivilTime.seconds(clock: s) : Double(s)
        guard let v = raw, v.isFinite else { return nil }
        return bounds.within(v * factor, figure.range)
    }

    mutating func summaryMetadata(_ table: SpeedCoachLayout.Table, values: [String], line: Int) throws -> [TraceRecord] {
        var bounds = PlausibleValues()
        defer { counts.recordDroppedValues(bounds.dropped, line: line) }
        var out: [TraceRecord] = []
        for figure in figures() {
            guard let v = try value(figure, table, values, &bounds) else { continue }
            var text = v.description
            if figure.kind == .count, v == v.rounded(), v < 1e15 { text = String(Int(v)) }
            if figure.key == "device_avg_rate_spm" { text = v.description }
            out.append(.metadata(key: figure.key, value: text))
        }
        return out
    }

    mutating func readIntervalSummaries(_ table: SpeedCoachLayout.Table, rows: [(line: Int, values: [String])],
                                        into metadata: inout [TraceRecord]) throws {
        let all = figures()
        guard let distance = all.first(where: { $0.key == "device_total_distance_m" }),
              let elapsed = all.first(where: { $0.key == "device_elapsed_s" }),
              let strokes = all.first(where: { $0.key == "device_total_strokes" }) else { return }
        for (line, values) in rows {
            guard let k = table.index(["Interval"]), k < values.count, let n = Int(values[k]), n >= 0, n <= Self.maxTableRows else { continue }
            // Totals beyond a session's bounds are unknown: no offset is taken from them.
            var bounds = PlausibleValues()
            let count = try value(strokes, table, values, &bounds)
            let totals = IntervalTotals(elapsed: try value(elapsed, table, values, &bounds),
                                        distance: try value(distance, table, values, &bounds),
                                        strokes: count.flatMap { $0 == $0.rounded() ? Int($0) : nil })
            counts.recordDroppedValues(bounds.dropped, line: line)
            intervalTotals[n] = totals
            if let v = totals.distance { metadata.append(.metadata(key: "device_interval_\(n)_distance_m", value: v.description)) }
            if let v = totals.elapsed { metadata.append(.metadata(key: "device_interval_\(n)_elapsed_s", value: v.description)) }
            if let v = totals.strokes { metadata.append(.metadata(key: "device_interval_\(n)_strokes", value: String(v))) }
        }
        intervalCount = max(intervalCount, intervalTotals.count)
    }

    /// Without a session summary (an export that starts with the interval table): the session's
    /// totals are the intervals' sums.
    func totalsOfIntervals() -> [TraceRecord] {
        guard !intervalTotals.isEmpty else { return [] }
        let all = Array(intervalTotals.values)
        var out: [TraceRecord] = [.metadata(key: "device_intervals", value: String(all.count))]
        if all.allSatisfy({ $0.distance != nil }) {
            out.append(.metadata(key: "device_total_distance_m", value: all.reduce(0) { $0 + ($1.distance ?? 0) }.description))
        }
        if all.allSatisfy({ $0.elapsed != nil }) {
            out.append(.metadata(key: "device_elapsed_s", value: all.reduce(0) { $0 + ($1.elapsed ?? 0) }.description))
        }
        if all.allSatisfy({ $0.strokes != nil }) {
            out.append(.metadata(key: "device_total_strokes", value: String(all.reduce(0) { $0 + ($1.strokes ?? 0) })))
        }
        return out
    }
}
