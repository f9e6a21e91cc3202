#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// Rejects position glitches by the speed they imply, and re-anchors when the receiver was the one
/// that was right.
///
/// A fix implies that the boat moved from the last accepted fix to it in the time between them:
/// an implied velocity. The fix is implausible when that velocity is faster than a rowing boat
/// goes (`maximumSpeed`), or differs from the boat's current velocity (from `GPSTrackFilter`) by
/// more than a boat's mean motion changes in that time (`maximumSpeedChange` for the surge within
/// a stroke, plus `maximumAcceleration` × the time). Both allow for the fixes' position error
/// (`gateSigmas` × their combined error, divided by the time) and the uncertainty of the current
/// velocity: no fixed jump size, so a 30 m glitch is caught between strokes 3 s apart and a 1 m
/// jitter at 10 Hz is not taken for one.
///
/// Where both fixes carry the receiver's own speed (Doppler), the mean speed between them is also
/// held to those speeds: not over `receiverSpeedFactor` × the faster of the two (plus the position
/// error), however long the interval. The velocity gate widens with the time the boat could have
/// changed its speed in; the receiver saw what it did at both ends, so a 60 m jump across a 10 s
/// dropout between two fixes at 2.5 m/s is caught where the gate alone would let it pass.
///
/// An implausible fix is rejected and counted. If `reanchorAfter` rejected fixes in a row agree
/// with each other (they form a plausible track of their own), the earlier fix was the outlier or
/// the boat really moved during a dropout we cannot account for: the filter re-anchors on the
/// newest one and reports a track break, across which no distance is added.
public struct GPSJumpFilter: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Fastest plausible mean boat speed over a few seconds. An eight sprints at about
        /// 6.5 m/s; a rowing boat does not pass about 7.
        public var maximumSpeed: MetresPerSecond = 7.5
        /// How far the mean velocity between two fixes may differ from the boat's current velocity
        /// with no time to change it: the surge within a stroke, m/s.
        public var maximumSpeedChange: MetresPerSecond = 1.5
        /// How fast a boat's mean velocity changes (a racing start, holding water), m/s², counted
        /// at half over the interval (the mean of a linear change).
        public var maximumAcceleration: Double = 1.0
        /// Position and velocity errors count at this many standard deviations.
        public var gateSigmas: Double = 3
        /// The mean speed between two fixes that both carry the receiver's speed is at most this
        /// many times the faster of the two (a boat rarely speeds up by half and slows down
        /// again between two fixes).
        public var receiverSpeedFactor: Double = 1.5
        public var reanchorAfter: Int = 3
        public init() {}
    }

    /// The boat's current velocity (east, north, m/s) and its variance per axis, from the track
    /// filter.
    public struct Velocity: Sendable, Equatable {
        public var east: MetresPerSecond, north: MetresPerSecond, variance: Double
        public init(east: MetresPerSecond, north: MetresPerSecond, variance: Double) {
            self.east = east
            self.north = north
            self.variance = variance
        }
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
    private var lastSigma: Metres = 0
    private var candidate: GPSFix?
    private var candidateSigma: Metres = 0
    private var candidateRun = 0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Judges `fix` (position error `positionSigma` per axis, metres) against the last accepted
    /// fix and the boat's current `velocity` (`nil` when unknown: only the speed limit applies).
    public mutating func check(_ fix: GPSFix, positionSigma: Metres, velocity: Velocity?) -> Verdict {
        guard let last = lastAccepted else {
            accept(fix, positionSigma)
            return .acceptAfterBreak
        }
        if isPlausible(from: last, sigma: lastSigma, to: fix, sigma: positionSigma, velocity: velocity) {
            rejectedFixes += candidateRun
            accept(fix, positionSigma)
            candidate = nil
            candidateRun = 0
            return .accept
        }
        if let c = candidate, isPlausible(from: c, sigma: candidateSigma, to: fix, sigma: positionSigma, velocity: nil) {
            candidateRun += 1
        } else {
            rejectedFixes += candidateRun
            candidateRun = 1
        }
        candidate = fix
        candidateSigma = positionSigma
        if candidateRun >= configuration.reanchorAfter {
            // The newest fix is used after all; the earlier ones of the run stay rejected.
            rejectedFixes += candidateRun - 1
            reanchors += 1
            accept(fix, positionSigma)
            candidate = nil
            candidateRun = 0
            return .acceptAfterBreak
        }
        return .reject
    }

    /// The track breaks here (the device recorded nothing in between on purpose): the next fix is
    /// taken as a new anchor, not judged against the last one; a pending run stays rejected.
    public mutating func breakTrack() {
        rejectedFixes += candidateRun
        lastAccepted = nil
        candidate = nil
        candidateRun = 0
    }

    /// Fixes rejected so far, counting a run that has not yet been resolved.
    public var rejectedIncludingPending: Int { rejectedFixes + candidateRun }

    private mutating func accept(_ fix: GPSFix, _ sigma: Metres) {
        lastAccepted = fix
        lastSigma = sigma
    }

    /// Whether moving from `a` to `b` is something a rowing boat can do (see the type's notes).
    func isPlausible(from a: GPSFix, sigma sa: Metres, to b: GPSFix, sigma sb: Metres, velocity: Velocity?) -> Bool {
        let dt = b.time - a.time
        guard dt > 0 else { return false }
        let c = configuration
        let inverse = Geodesy.inverse(from: a.point, to: b.point)
        let positionSlack = c.gateSigmas * (sa * sa + sb * sb).squareRoot() / dt
        guard inverse.distance / dt <= c.maximumSpeed + positionSlack else { return false }
        if let va = a.speed, let vb = b.speed, va.isFinite, vb.isFinite,
           inverse.distance / dt > max(va, vb) * c.receiverSpeedFactor + positionSlack {
            return false
        }
        guard let v = velocity else { return true }
        let bearing = inverse.initialBearing * (Double.pi / 180)
        let east = inverse.distance * sin(bearing) / dt, north = inverse.distance * cos(bearing) / dt
        let de = east - v.east, dn = north - v.north
        let allowed = c.maximumSpeedChange + c.maximumAcceleration * dt / 2
            + c.gateSigmas * max(0, v.variance).squareRoot() + positionSlack
        return de * de + dn * dn <= allowed * allowed
    }
}
