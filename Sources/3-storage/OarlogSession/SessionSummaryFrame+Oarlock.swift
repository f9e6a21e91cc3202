import OarlogCore
import OarlogDSP

/// The summary frame's keys for the heart rate per sensor and the oarlock's averages (written
/// from minor version 5; an older reader skips them as a newer writer's keys):
/// `analysis.oarlock.strokes`, `analysis.oarlock.<figure>` = "sum count" for each figure, and
/// per sensor k `analysis.heart_rate_sensor.<k>` = "sum count max name" (the name last: it may
/// hold spaces), `analysis.heart_rate_sensors_ignored`.
extension RecordedSummary {
    static var oarlockFigures: [(String, WritableKeyPath<OarlockAverages, OarlockAverages.Mean>)] { [
        ("power", \.power), ("catch_angle", \.catchAngle), ("finish_angle", \.finishAngle), ("slip", \.slip),
        ("wash", \.wash), ("effective_length", \.effectiveLength), ("average_force", \.averageForce),
        ("max_force", \.maxForce), ("max_force_angle", \.maxForceAngle), ("work", \.work),
    ] }

    static func extraPairs(_ a: SessionSummary) -> [(String, String)] {
        var pairs: [(String, String)] = []
        if a.oarlock.strokes > 0 {
            pairs.append(("analysis.oarlock.strokes", "\(a.oarlock.strokes)"))
            for (name, path) in oarlockFigures where a.oarlock[keyPath: path].count > 0 {
                let m = a.oarlock[keyPath: path]
                pairs.append(("analysis.oarlock." + name, "\(m.sum) \(m.count)"))
            }
        }
        for (k, s) in a.heartRateSensors.sensors.enumerated() {
            pairs.append(("analysis.heart_rate_sensor.\(k)", "\(s.sum) \(s.count) \(s.max) \(s.name)"))
        }
        if a.heartRateSensors.ignoredSamples > 0 {
            pairs.append(("analysis.heart_rate_sensors_ignored", "\(a.heartRateSensors.ignoredSamples)"))
        }
        return pairs
    }

    /// Takes one of these keys into `a`; false for a key that is not one of them. A value that
    /// does not parse leaves the figure unknown.
    static func decodeExtra(key: String, value: String, into a: inout SessionSummary,
                            sensors: inout [(Int, HeartRateBySensor.Sensor)], ignored: inout Int) -> Bool {
        if key == "analysis.oarlock.strokes" {
            a.oarlock.strokes = Int(value) ?? 0
            return true
        }
        if key.hasPrefix("analysis.oarlock.") {
            let name = key.dropFirst("analysis.oarlock.".count)
            let parts = value.split(separator: " ")
            if let path = oarlockFigures.first(where: { $0.0 == name })?.1, parts.count == 2,
               let sum = Double(parts[0]), let count = Int(parts[1]), sum.isFinite, count > 0 {
                a.oarlock[keyPath: path] = OarlockAverages.Mean(sum: sum, count: count)
            }
            return true
        }
        if key == "analysis.heart_rate_sensors_ignored" {
            ignored = Int(value) ?? 0
            return true
        }
        if key.hasPrefix("analysis.heart_rate_sensor.") {
            let parts = value.split(separator: " ", maxSplits: 3)
            if let k = Int(key.dropFirst("analysis.heart_rate_sensor.".count)), parts.count == 4,
               let sum = Double(parts[0]), let count = Int(parts[1]), let max = Double(parts[2]),
               sum.isFinite, max.isFinite, count > 0 {
                sensors.append((k, HeartRateBySensor.Sensor(name: String(parts[3]), sum: sum, count: count, max: max)))
            }
            return true
        }
        return false
    }
}
