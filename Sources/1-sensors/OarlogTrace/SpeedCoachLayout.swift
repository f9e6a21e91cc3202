import OarlogCore

/// The column names and units of every SpeedCoach GPS export layout, and what they convert to.
///
/// Layouts: firmware 2.04–2.11 ("Session Detail Data:", `GPS Distance`, `Imp Speed`,
/// `Stroke Count`, summary `Total Distance`, `Avg Split`), and the LiNK layout of 2.12 on
/// ("Per-Stroke Data:", `Distance (GPS)`, `Speed (IMP)`, `Total Strokes`, summary
/// `Total Distance (GPS)`). Each column's unit comes from the table's units row:
/// `(Meters)`, `(Kilometers)`, `(Miles)` → metres; `(M/S)`, `(KPH)`, `(MPH)` → m/s;
/// `(/500)`, `(/1000)`, `(/Mile)` → seconds per 500 m.
enum SpeedCoachLayout {
    /// Which of the device's speed inputs a figure comes from.
    enum Source { case gps, impeller }

    /// The name of a figure from `source` in either layout (new first).
    static func names(_ figure: String, _ source: Source) -> [String] {
        let (tag, old) = source == .gps ? ("GPS", "GPS") : ("IMP", "Imp")
        switch figure {
        case "Distance": return ["Distance (\(tag))", "\(old) Distance"]
        case "Split": return ["Split (\(tag))", "\(old) Split"]
        case "Speed": return ["Speed (\(tag))", "\(old) Speed"]
        case "Distance/Stroke": return ["Distance/Stroke (\(tag))"]
        case "Total Distance": return ["Total Distance (\(tag))"]
        case "Avg Split": return ["Avg Split (\(tag))"]
        case "Avg Speed": return ["Avg Speed (\(tag))"]
        default: return [figure]
        }
    }

    /// Factor from a distance unit to metres; nil if not a distance unit this reader knows.
    static func metres(per unit: String) -> Double? {
        switch unit.lowercased() {
        case "(meters)", "(metres)", "(m)": return 1
        case "(kilometers)", "(kilometres)", "(km)": return 1000
        case "(miles)", "(mi)": return 1609.344
        default: return nil
        }
    }

    /// Factor from a speed unit to m/s.
    static func metresPerSecond(per unit: String) -> Double? {
        switch unit.lowercased() {
        case "(m/s)": return 1
        case "(kph)", "(km/h)": return 1 / 3.6
        case "(mph)": return 0.44704
        default: return nil
        }
    }

    /// Factor from a split unit (time per 500 m, 1000 m or a mile) to seconds per 500 m.
    static func splitTo500m(per unit: String) -> Double? {
        switch unit.lowercased() {
        case "(/500)", "(/500m)": return 1
        case "(/1000)", "(/1000m)", "(/km)": return 0.5
        case "(/mile)", "(/mi)": return 500 / 1609.344
        default: return nil
        }
    }

    /// A table's header and units row, to find columns and their conversion factors.
    struct Table {
        var header: [String]
        var units: [String]

        func index(_ candidates: [String]) -> Int? {
            for name in candidates { if let k = header.firstIndex(of: name) { return k } }
            return nil
        }

        func unit(_ k: Int) -> String { k < units.count ? units[k] : "" }

        /// A column and the factor that converts it (`convert` reads the unit), or nil when
        /// absent. Throws a clear error (`unknown`) when the unit is not one the reader knows.
        func column(_ candidates: [String], _ convert: (String) -> Double?,
                    unknown: (Int, String) -> TraceError) throws -> (index: Int, factor: Double)? {
            guard let k = index(candidates) else { return nil }
            guard let f = convert(unit(k)) else { throw unknown(k, "\(header[k]) in \(unit(k))") }
            return (k, f)
        }
    }
}
