import OarlogCore

/// Heart rate and power on a FIT lap and session, in the profile's own fields, which every site
/// reads: `avg_heart_rate` and `max_heart_rate` (uint8, bpm), `avg_power` and `max_power`
/// (uint16, W) — lap fields 15, 16, 19, 20; session fields 16, 17, 20, 21 (Garmin's FIT profile,
/// checked with its Python SDK). A lap or session with none of them is written with the layout
/// it had before (no such fields), so files without heart rate or power are unchanged; one with
/// any has them after its other fields (absent figures invalid), under its own local type.
extension FITExporter {
    static let lapFigureFields = [F(15, .uint8), F(16, .uint8), F(19, .uint16), F(20, .uint16)]
    static let sessionFigureFields = [F(16, .uint8), F(17, .uint8), F(20, .uint16), F(21, .uint16)]

    static let lapWithFigures = FITEncoder.Definition(localType: 11, globalNumber: 19, fields: lapFields + lapFigureFields)
    static let workoutLapWithFigures = FITEncoder.Definition(localType: 12, globalNumber: 19,
                                                             fields: workoutLap.fields + lapFigureFields)
    static let sessionWithFigures = FITEncoder.Definition(localType: 13, globalNumber: 18,
                                                          fields: sessionFields + sessionFigureFields)

    /// The lap layout: with `wkt_step_index` when the laps are a plan's steps, with the heart-rate
    /// and power fields when the lap has any.
    static func lapDefinition(steps: Bool, figures: Bool) -> FITEncoder.Definition {
        switch (steps, figures) {
        case (false, false): return lap
        case (true, false): return workoutLap
        case (false, true): return lapWithFigures
        case (true, true): return workoutLapWithFigures
        }
    }
}

extension FITEncoder.MessageBuilder {
    /// Average and maximum heart rate (whole bpm), average and maximum power (whole watts).
    mutating func putFigures(_ f: ExportFigures) {
        func whole(_ v: Double?) -> Int64? { v.flatMap { $0.isFinite ? Int64($0.rounded()) : nil } }
        put(whole(f.averageHeartRate))
        put(whole(f.maxHeartRate))
        put(whole(f.averagePower))
        put(whole(f.maxPower))
    }
}
