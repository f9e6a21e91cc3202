import OarlogCore
import OarlogDSP

/// The boat's fused speed (`AnalyzerEvent.speed`: the accelerometer's surge held to the GPS)
/// as the export assembler holds it until the points and strokes it belongs to are released:
/// the speed at a point is the fused speed interpolated at its time (a stroke's split and mean
/// speed are the analyzer's own, `StrokeMetrics`). Where the pipeline gave no fused speed around
/// a moment (a session without it, a gap longer than `longestGap`), there is none and the export
/// falls back on the receiver's speed.
///
/// Memory is bounded: the samples before the items already released are dropped as they go
/// (`discard`), and at most `capacity` are held whatever the timing.
struct ExportBoatSpeeds: Sendable {
    /// The longest step between two samples that is interpolated across.
    static let longestGap: Seconds = 1
    /// Samples held at most (over half an hour at 10 Hz).
    static let capacity = 20_000

    private var samples = ExportQueue<BoatSpeedSample>()
    private var lastTime = -Double.infinity

    /// Whether any sample came (the session has a fused speed).
    private(set) var heardAny = false

    /// Keeps `sample` (a sample not finite or earlier than the last one is dropped).
    mutating func add(_ sample: BoatSpeedSample) {
        guard sample.time.isFinite, sample.speed.isFinite, sample.time >= lastTime else { return }
        lastTime = sample.time
        heardAny = true
        samples.append(sample)
        if samples.count > Self.capacity { samples.removeFirst() }
    }

    /// Drops the samples no item at or after `time` needs (keeping the one at or before it).
    mutating func discard(before time: Seconds) {
        while let second = samples.element(at: 1), second.time <= time { samples.removeFirst() }
    }

    /// The fused speed at `time`, linear between the samples around it; nil outside the samples
    /// or across a gap longer than `longestGap`.
    func speed(at time: Seconds) -> MetresPerSecond? {
        guard time.isFinite else { return nil }
        var previous: BoatSpeedSample?
        var found: MetresPerSecond?
        samples.scan { s in
            if s.time == time {
                found = s.speed
                return false
            }
            if s.time > time {
                if let a = previous, s.time - a.time <= Self.longestGap {
                    found = a.speed + (s.speed - a.speed) * (time - a.time) / (s.time - a.time)
                }
                return false
            }
            previous = s
            return true
        }
        return found
    }
}
