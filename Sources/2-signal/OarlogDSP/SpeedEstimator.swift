import OarlogCore

/// Boat speed over a sliding time window from the receiver's own (Doppler) speed.
///
/// The mean is time-weighted (trapezoid between samples), so uneven fix spacing does not bias it.
/// Samples older than the window drop out; when the newest sample is older than `staleAfter` the
/// speed is unknown (`nil`) rather than stale. Fixes without a receiver speed are not samples here:
/// the analyzer then falls back to speed from positions (`DistanceHistory`).
public struct SpeedEstimator: Sendable {
    public var window: Seconds
    public var staleAfter: Seconds
    private var samples: RingBuffer<Sample>
    private struct Sample: Sendable { var time: Seconds; var speed: MetresPerSecond }

    /// The fastest receiver the default capacity keeps a whole window of: u-blox M8/M9 give up
    /// to 10 Hz with every constellation, 18–25 Hz with GPS alone.
    public static let maximumFixRate: Hertz = 25

    /// `capacity` samples are kept (`nil`: enough for `window` + `staleAfter` at
    /// `maximumFixRate`, and never fewer than 256). A ring too small for the window would
    /// average over less time than asked without saying so: a 30 s window at 10 Hz needs 350.
    public init(window: Seconds = 5, staleAfter: Seconds = 5, capacity: Int? = nil) {
        self.window = window
        self.staleAfter = staleAfter
        samples = RingBuffer(capacity: capacity ?? Self.defaultCapacity(window: window, staleAfter: staleAfter),
                             filler: Sample(time: 0, speed: 0))
    }

    /// Samples a window of `window` + `staleAfter` holds at `maximumFixRate` (256 to 65,536).
    public static func defaultCapacity(window: Seconds, staleAfter: Seconds) -> Int {
        let span = max(0, window) + max(0, staleAfter)
        guard span.isFinite else { return 65_536 }
        return min(65_536, max(256, Int((span * maximumFixRate).rounded(.up)) + 2))
    }

    /// Adds a receiver speed sample. Out-of-order or non-finite samples are ignored.
    public mutating func add(time: Seconds, speed: MetresPerSecond) {
        guard time.isFinite, speed.isFinite, speed >= 0 else { return }
        if let last = samples.last, time <= last.time { return }
        samples.append(Sample(time: time, speed: speed))
        while let first = samples.first, first.time < time - window - staleAfter { samples.removeFirst() }
    }

    /// Newest receiver speed sample, if not stale at `now`.
    public func latest(now: Seconds) -> MetresPerSecond? {
        guard let last = samples.last, now - last.time <= staleAfter else { return nil }
        return last.speed
    }

    /// Time-weighted mean speed over [now − window, now]; `nil` when there is no fresh sample.
    public func averageSpeed(now: Seconds) -> MetresPerSecond? {
        guard let last = samples.last, now - last.time <= staleAfter else { return nil }
        let start = now - window
        var integral = 0.0, span = 0.0
        var i = samples.count - 1
        while i > 0 {
            let b = samples[i], a = samples[i - 1]
            if b.time <= start { break }
            let t0 = max(a.time, start)
            let u0 = (t0 - a.time) / (b.time - a.time)
            let v0 = a.speed + u0 * (b.speed - a.speed)
            integral += (v0 + b.speed) / 2 * (b.time - t0)
            span += b.time - t0
            if a.time <= start { break }
            i -= 1
        }
        return span > 0 ? integral / span : last.speed
    }
}
