import OarlogCore

/// How the live split is averaged, as on a SpeedCoach's "split averaging" setting: over a time
/// window, or over the last few strokes.
public enum SplitAveraging: Sendable, Equatable {
    /// Mean speed over the last so many seconds (1 s ≈ the receiver's own speed).
    case seconds(Seconds)
    /// Distance over time of the last so many completed strokes.
    case strokes(Int)
}

/// The live split (s/500 m) a coxswain display shows, averaged as configured; `nil` when the boat
/// is stopped (slower than `minimumSpeed`) or there is no recent data.
public struct SplitCalculator: Sendable {
    public var averaging: SplitAveraging
    /// Below this speed there is no split (500 / 0.5 m/s = 16:40 per 500 m).
    public var minimumSpeed: MetresPerSecond
    private var strokes: RingBuffer<StrokeSpan>
    private struct StrokeSpan: Sendable { var end: Seconds; var duration: Seconds; var distance: Metres }

    public init(averaging: SplitAveraging = .seconds(5), minimumSpeed: MetresPerSecond = 0.5) {
        self.averaging = averaging
        self.minimumSpeed = minimumSpeed
        let n: Int
        if case .strokes(let k) = averaging { n = max(1, k) } else { n = 1 }
        strokes = RingBuffer(capacity: n, filler: StrokeSpan(end: 0, duration: 0, distance: 0))
    }

    /// Records a completed stroke's duration and distance (used by `.strokes` averaging).
    public mutating func addStroke(end: Seconds, duration: Seconds, distance: Metres) {
        guard duration > 0, distance.isFinite, distance >= 0 else { return }
        strokes.append(StrokeSpan(end: end, duration: duration, distance: distance))
    }

    /// Forgets the strokes (after a pause the old ones no longer describe the boat).
    public mutating func resetStrokes() { strokes.removeAll() }

    /// The averaged speed: for `.seconds`, `windowSpeed` (the caller's mean speed over that window);
    /// for `.strokes`, the last strokes' total distance over total time, if the newest ended no
    /// more than `staleAfter` before `now`.
    public func speed(now: Seconds, windowSpeed: MetresPerSecond?, staleAfter: Seconds = 10) -> MetresPerSecond? {
        switch averaging {
        case .seconds:
            return windowSpeed
        case .strokes:
            guard let last = strokes.last, now - last.end <= staleAfter else { return nil }
            var d = 0.0, t = 0.0
            for i in 0..<strokes.count { d += strokes[i].distance; t += strokes[i].duration }
            return t > 0 ? d / t : nil
        }
    }

    /// Split in s/500 m for a speed; `nil` when stopped or unknown.
    public func split(speed: MetresPerSecond?) -> SecondsPer500m? {
        guard let v = speed else { return nil }
        return Double.split(fromSpeed: v, minimumSpeed: minimumSpeed)
    }

}

extension SplitAveraging {
    /// The averaging window in seconds for `.seconds`, else `nil`.
    public var windowSeconds: Seconds? {
        if case .seconds(let s) = self { return s }
        return nil
    }
}
