import OarlogCore

/// The gap bookkeeping of a live sensor: when its data was last seen, and the outage in progress
/// (since the last data, or since the source noticed the device missing, with the first reason
/// given). The first data after an outage closes it as a `Gap`, delivered just before that data.
public struct OutageTracker: Sendable, Equatable {
    public let sensor: SensorKind
    /// Session time of the latest data (fix, sample); `nil` before the first.
    public private(set) var lastDataAt: Seconds?
    /// The outage in progress: since when, and why.
    public private(set) var outageStart: Seconds?
    public private(set) var outageReason: String?

    public init(sensor: SensorKind) { self.sensor = sensor }

    /// Opens an outage (unless one is open: the first reason stands), from the last data or,
    /// before any, from `now`.
    public mutating func begin(_ reason: String, now: @autoclosure () -> Seconds) {
        guard outageStart == nil else { return }
        outageStart = lastDataAt ?? now()
        outageReason = reason
    }

    /// Data at `time`: returns the gap it closes, if an outage was open.
    public mutating func dataArrived(at time: Seconds) -> Gap? {
        defer { lastDataAt = time }
        guard let start = outageStart, let reason = outageReason else { return nil }
        outageStart = nil
        outageReason = nil
        return Gap(sensor: sensor, start: min(start, time), end: time, reason: reason)
    }
}
