import OarlogCore

/// Places accelerometer scans on the session's monotonic time line and finds the holes in it.
///
/// - With the device's timestamp channel, each scan's own time is used (`place(deviceTime:)`):
///   exact, immune to wall-clock steps (the driver is asked for a monotonic clock). A jump of more
///   than `gapFactor` sample intervals means the driver dropped data (an MPU-6050 resets its
///   FIFO on overflow and says nothing), so it is reported, never bridged. A time that does not
///   move forward (a FIFO reset replaying old stamps) is dropped.
/// - Without one, the scans of a refill are spread evenly between the previous refill and this
///   one (`spread(count:refillTime:)`); a refill that took far longer than its scans last is a gap.
///
/// Pure value; no I/O.
public struct IIOSampleTimeline: Sendable, Equatable {
    /// Expected time between scans (1 / sampling frequency), if known. When unknown it is learnt
    /// as the smallest interval seen in the first `learningScans` device timestamps.
    public private(set) var nominalInterval: Seconds?
    /// An interval longer than this many nominal intervals is a gap (1.5: one lost scan shows).
    public var gapFactor: Double
    /// Session time of the last scan placed.
    public private(set) var lastTime: Seconds?
    /// Session time of the last refill (spread mode), or when the buffer was opened.
    public private(set) var lastRefill: Seconds?
    /// Scans dropped because their time did not move forward.
    public private(set) var outOfOrder = 0
    private var learnt = 0
    private let nominalGiven: Bool
    private static let learningScans = 8

    public init(nominalInterval: Seconds?, gapFactor: Double = 1.5, openedAt: Seconds? = nil) {
        self.nominalInterval = nominalInterval.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        self.nominalGiven = self.nominalInterval != nil
        self.gapFactor = gapFactor
        self.lastRefill = openedAt
    }

    /// Where a scan goes.
    public enum Placement: Sendable, Equatable {
        /// In order; `gapAfter` is the previous scan's time when data is missing before this one.
        case inOrder(gapAfter: Seconds?)
        /// Not later than the previous scan: drop it.
        case outOfOrder
    }

    /// Places a scan stamped by the device (already converted to session seconds).
    public mutating func place(deviceTime t: Seconds) -> Placement {
        guard let last = lastTime else { lastTime = t; return .inOrder(gapAfter: nil) }
        guard t > last else { outOfOrder += 1; return .outOfOrder }
        let interval = t - last
        if !nominalGiven && learnt < Self.learningScans {
            learnt += 1
            nominalInterval = min(nominalInterval ?? interval, interval)
            lastTime = t
            return .inOrder(gapAfter: nil)
        }
        lastTime = t
        if let nominal = nominalInterval, interval > gapFactor * nominal { return .inOrder(gapAfter: last) }
        return .inOrder(gapAfter: nil)
    }

    /// The times of the `count` scans a refill returning at `refillTime` delivered.
    public struct Spread: Sendable, Equatable {
        public var count: Int
        public var start: Seconds
        public var step: Seconds
        public var end: Seconds
        /// The previous scan's time when the refill came so late that data must be missing
        /// (then the scans sit back from `end` at the nominal interval), else `nil`.
        public var gapAfter: Seconds?
        /// Time of scan `k` (0 = oldest); the last one is exactly the refill time.
        @inlinable
        public func time(ofScan k: Int) -> Seconds { k == count - 1 ? end : start + Seconds(k + 1) * step }
    }

    /// Spreads a refill's scans between the previous refill and this one.
    public mutating func spread(count: Int, refillTime: Seconds) -> Spread {
        let previous = lastRefill
        lastRefill = refillTime
        var gapAfter: Seconds? = nil
        var start: Seconds
        var step: Seconds
        let n = Double(max(1, count))
        if let previous, refillTime > previous {
            let elapsed = refillTime - previous
            if let nominal = nominalInterval, lastTime != nil, elapsed > gapFactor * n * nominal + 2 * nominal {
                gapAfter = lastTime
                step = nominal
                start = refillTime - n * nominal
            } else {
                step = elapsed / n
                start = previous
            }
        } else if let nominal = nominalInterval {
            step = nominal
            start = refillTime - n * nominal
        } else {
            // No history and no rate: the scans are as good as simultaneous.
            step = 0
            start = refillTime
        }
        if let last = lastTime, start < last {
            // Never place a scan before one already given.
            start = last
            step = max(0, refillTime - last) / n
        }
        if count > 0 { lastTime = refillTime }
        return Spread(count: count, start: start, step: step, end: refillTime, gapAfter: gapAfter)
    }
}
