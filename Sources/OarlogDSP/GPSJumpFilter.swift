import OarlogCore

/// Rejects position jumps no rowing boat can make, and re-anchors when the receiver was the one
/// that was right.
///
/// A fix is implausible when its distance from the last accepted fix exceeds
/// `maximumSpeed × Δt + slack`, where the slack allows for both fixes' accuracy
/// (`max(minimumSlack, accuracySlackFactor × (accuracy₁ + accuracy₂))`). An implausible fix is
/// rejected and counted. If `reanchorAfter` rejected fixes in a row agree with each other (they
/// form a plausible track of their own), the earlier fix was the outlier or the boat really moved
/// during a dropout we cannot account for: the filter re-anchors on the newest one and reports a
/// track break, across which no distance is added.
public struct GPSJumpFilter: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Fastest plausible boat speed. An eight sprints at about 6.5 m/s; 8 m/s leaves room.
        public var maximumSpeed: MetresPerSecond = 8
        public var minimumSlack: Metres = 10
        public var accuracySlackFactor: Double = 2
        public var reanchorAfter: Int = 3
        public init() {}
    }

    /// What to do with a fix.
    public enum Verdict: Sendable, Equatable {
        /// Use it, continuing the track.
        case accept
        /// Use it, but as the start of a new track piece (no distance from the previous fix).
        case acceptAfterBreak
        /// Do not use it.
        case reject
    }

    public var configuration: Configuration
    public private(set) var rejectedFixes = 0
    public private(set) var reanchors = 0
    private var lastAccepted: GPSFix?
    private var candidate: GPSFix?
    private var candidateRun = 0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public mutating func check(_ fix: GPSFix) -> Verdict {
        guard let last = lastAccepted else {
            lastAccepted = fix
            return .acceptAfterBreak
        }
        if isPlausible(from: last, to: fix) {
            rejectedFixes += candidateRun
            lastAccepted = fix
            candidate = nil
            candidateRun = 0
            return .accept
        }
        if let c = candidate, isPlausible(from: c, to: fix) {
            candidateRun += 1
        } else {
            rejectedFixes += candidateRun
            candidateRun = 1
        }
        candidate = fix
        if candidateRun >= configuration.reanchorAfter {
            // The newest fix is used after all; the earlier ones of the run stay rejected.
            rejectedFixes += candidateRun - 1
            reanchors += 1
            lastAccepted = fix
            candidate = nil
            candidateRun = 0
            return .acceptAfterBreak
        }
        return .reject
    }

    /// Fixes rejected so far, counting a run that has not yet been resolved.
    public var rejectedIncludingPending: Int { rejectedFixes + candidateRun }

    func isPlausible(from a: GPSFix, to b: GPSFix) -> Bool {
        let dt = max(0, b.time - a.time)
        let slack = max(configuration.minimumSlack,
                        configuration.accuracySlackFactor * ((a.horizontalAccuracy ?? 0) + (b.horizontalAccuracy ?? 0)))
        return Geodesy.distance(from: a.point, to: b.point) <= configuration.maximumSpeed * dt + slack
    }
}
