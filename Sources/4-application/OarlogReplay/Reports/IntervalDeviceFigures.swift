import OarlogCore
import OarlogDSP

/// The heart rate and the instrumented oarlock's figures over one interval of a workout: the
/// mean and highest heart rate (every strap's readings), each named strap's, and the oarlock's
/// averages. A few sums (at most `HeartRateBySensor.maxSensors` straps): bounded.
public struct IntervalDeviceFigures: Sendable, Equatable {
    public private(set) var heartRate = OarlockAverages.Mean()
    public private(set) var maxHeartRate: BeatsPerMinute?
    public private(set) var sensors = HeartRateBySensor()
    public private(set) var oarlock = OarlockAverages()

    public init() {}

    public mutating func add(_ record: TraceRecord) {
        switch record {
        case .heartRate(let h):
            guard h.bpm.isFinite, h.bpm > 0 else { return }
            heartRate = OarlockAverages.Mean(sum: heartRate.sum + h.bpm, count: heartRate.count + 1)
            maxHeartRate = max(maxHeartRate ?? h.bpm, h.bpm)
            sensors.add(h.bpm, sensor: h.sensor)
        case .oarlock(let o):
            oarlock.add(o)
        default:
            break
        }
    }

    public var averageHeartRate: BeatsPerMinute? { heartRate.value }
}

extension JSONWriter {
    /// An interval's heart rate and oarlock keys: `avg_heart_rate_bpm`, `max_heart_rate_bpm`,
    /// `avg_power_w`, `heart_rate_sensors` (only when two or more straps named themselves), and
    /// the oarlock averages as the summary has them (`null` for none).
    public mutating func intervalDeviceFields(_ f: IntervalDeviceFigures) {
        field("avg_heart_rate_bpm", f.averageHeartRate, places: 1)
        field("max_heart_rate_bpm", f.maxHeartRate, places: 0)
        field("avg_power_w", f.oarlock.averagePower, places: 1)
        if f.sensors.sensors.count > 1 { heartRateSensorFields(f.sensors) }
        oarlockFields(f.oarlock)
    }
}
