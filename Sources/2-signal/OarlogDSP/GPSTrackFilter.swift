#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// Where the boat is and how fast it moves, from GPS fixes: a Kalman filter, run forward fix by
/// fix (so the same in live and in replay), on a local east-north plane.
///
/// State: east and north position (metres), velocity (m/s), and the receiver's slowly wandering
/// position error (metres; multipath and the atmosphere make it drift over about a minute). A fix
/// is the position plus that wander plus white jitter. Between fixes the boat keeps its velocity
/// up to a white-noise acceleration (`accelerationNoise`): what a rowing boat's mean motion does;
/// the surge within a stroke (±0.5 m/s, ±0.2 m of position at 1 Hz) is left to the measurement
/// noise. Each fix updates it with:
/// - the position, with a per-axis error the caller gives (from the receiver's accuracy, or the
///   coarseness of the source's grid), of which `wanderShare` wanders;
/// - the receiver's own (Doppler) speed when it has one: with the course, as a velocity vector;
///   without, as the speed alone (linearised at the filter's own heading, once that heading is
///   known); at a speed under `lowSpeed` as "about stopped", which is what keeps a boat at rest
///   from drifting in the filter.
///
/// Fused this way the track is smooth where the positions jitter (the sum of filtered steps does
/// not read long); with Doppler speed the wander is told apart from the boat's motion (the speed
/// carries the track over a minute, the positions over longer), and without it the positions are
/// all there is; a biased speed (a device that writes its speed at one phase of the stroke) does
/// not accumulate into the track, which stays within the wander of the positions. Memory: a few
/// numbers; no allocation.
public struct GPSTrackFilter: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Spectral density of the boat's unmodelled acceleration, m²/s³. Small: the mean motion of
        /// a rowing boat changes over strokes, not within one.
        public var accelerationNoise: Double = 0.08
        /// The same when the fix carries the receiver's speed: the velocity is measured, so the
        /// track may follow a racing start or a change of pace sooner without the positions'
        /// jitter making it wiggle.
        public var accelerationNoiseWithSpeed: Double = 0.2
        /// Error of the receiver's speed as a measure of the boat's mean velocity, m/s: Doppler
        /// noise (0.05–0.1) and the within-stroke surge the model does not follow.
        public var speedSigma: MetresPerSecond = 0.1
        /// Below this receiver speed the fix says "about stopped": velocity 0 within the speed
        /// reported and `lowSpeedSigma` (Doppler noise alone: at rest there is no surge).
        public var lowSpeed: MetresPerSecond = 0.3
        public var lowSpeedSigma: MetresPerSecond = 0.1
        /// The course is used only above this receiver speed (it wanders when nearly stopped).
        public var courseMinimumSpeed: MetresPerSecond = 1.0
        /// Velocity uncertainty at the start of a track piece, m/s per axis.
        public var initialVelocitySigma: MetresPerSecond = 3
        /// The share of a fix's position error that wanders (the rest is white jitter), and how
        /// long the wander takes to change (a first-order Gauss–Markov process). Used for fixes
        /// with a receiver speed; without one the wander cannot be told from the boat's motion.
        /// (Issue 29: 0.9 and 120 s, with `speedSigma` 0.1, where 0.6, 60 s and 0.3 let the
        /// positions' wander into the distance: on the simulated outings with Doppler the
        /// wander was the error, the speed's noise hardly any; docs/DISTANCE.md.)
        public var wanderShare: Double = 0.75
        public var wanderCorrelationTime: Seconds = 120
        /// A fix further from the prediction than this (normalised innovation squared, 2 degrees
        /// of freedom; 16 is far beyond noise) means the boat manoeuvred — turned round, stopped,
        /// started — in a way the steady model cannot follow: the velocity is then opened up to
        /// what the fix implies, so the track turns with the boat instead of overshooting.
        public var manoeuvreThreshold: Double = 16
        /// After a gap longer than this between fixes (a turn between two pieces of a per-stroke
        /// export, a dropout), the velocity is taken as unknown again.
        public var velocityMemory: Seconds = 10
        public init() {}
    }

    /// The filter's view of the track at the last fix, for judging the next one.
    public struct Prediction: Sendable, Equatable {
        public var time: Seconds
        /// Position east/north of the plane's origin, metres, and its variance per axis, m².
        public var east: Metres, north: Metres, positionVariance: Double
        /// Velocity, m/s, and its variance per axis, (m/s)².
        public var velocityEast: MetresPerSecond, velocityNorth: MetresPerSecond, velocityVariance: Double
    }

    /// What the last fix did to the filter (the prediction it was judged against and the state
    /// after it), for the smoother's backward pass (`GPSTrackSmoother`).
    struct Step: Sendable {
        var time: Seconds = 0
        /// Seconds since the fix before, and the wander's decay over them (the transition).
        var dt: Seconds = 0, wanderDecay = 1.0
        /// Whether this fix started the track (no prediction).
        var startsTrack = true
        var predicted = Vector6(), predictedCovariance = Matrix6()
        var filtered = Vector6(), filteredCovariance = Matrix6()
    }

    public var configuration: Configuration
    private(set) var lastStep = Step()
    /// Fixes that showed a manoeuvre (see `Configuration.manoeuvreThreshold`).
    public private(set) var manoeuvres = 0
    /// Whether the filter holds a track (a fix has been used since the start or the last reset).
    public var isTracking: Bool { plane != nil }

    private var plane: LocalTangentPlane?
    private var time: Seconds = 0
    // State [e, n, ve, vn, be, bn] (position, velocity, receiver wander) and its covariance.
    private var x = Vector6()
    private var p = Matrix6()
    /// Fixes further than this from the plane's origin move the origin (keeps the plane exact).
    private static let recentreDistance: Metres = 2000

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Forgets the track: the next fix starts a new one.
    public mutating func reset() { plane = nil }

    /// Position (east, north) of the filtered track in the plane, metres.
    public var east: Metres { x[0] }
    public var north: Metres { x[1] }
    /// Filtered velocity east and north, m/s.
    public var velocityEast: MetresPerSecond { x[2] }
    public var velocityNorth: MetresPerSecond { x[3] }
    /// Filtered speed over ground, m/s.
    public var speed: MetresPerSecond { (x[2] * x[2] + x[3] * x[3]).squareRoot() }
    /// Latitude of the plane's origin (it moves with the boat, see `recentreIfFar`).
    public var originLatitude: Degrees? { plane?.origin.latitude }
    /// The filtered position as a point on the ellipsoid; `nil` when not tracking.
    public var position: GeoPoint? { plane?.unproject(east: x[0], north: x[1]) }
    /// A point of the filter's plane (east, north metres) on the ellipsoid; `nil` when not tracking.
    public func point(east: Metres, north: Metres) -> GeoPoint? { plane?.unproject(east: east, north: north) }
    /// A point on the ellipsoid in the filter's plane (east, north metres); `nil` when not tracking.
    public func offset(of point: GeoPoint) -> (east: Metres, north: Metres)? {
        plane.map { let z = $0.project(point); return (z.east, z.north) }
    }

    /// The state at the last fix (not moved forward), for judging a new fix; `nil` when not tracking.
    public var last: Prediction? {
        guard plane != nil else { return nil }
        return Prediction(time: time, east: x[0], north: x[1], positionVariance: max(p[0, 0], p[1, 1]),
                          velocityEast: x[2], velocityNorth: x[3], velocityVariance: max(p[2, 2], p[3, 3]))
    }

    /// Moves the plane's origin to the current position when it is far away; returns the shift
    /// (subtract it from positions kept in the old plane), or `nil` when it did not move.
    public mutating func recentreIfFar() -> (east: Metres, north: Metres)? {
        guard let old = plane, x[0] * x[0] + x[1] * x[1] > Self.recentreDistance * Self.recentreDistance else { return nil }
        let shift = (east: x[0], north: x[1])
        plane = LocalTangentPlane(origin: old.unproject(east: x[0], north: x[1]))
        x[0] = 0
        x[1] = 0
        lastStep.filtered[0] -= shift.east
        lastStep.filtered[1] -= shift.north
        lastStep.predicted[0] -= shift.east
        lastStep.predicted[1] -= shift.north
        return shift
    }

    /// Uses one fix: `positionSigma` is its position error per axis, metres. Call with increasing
    /// times; a first fix (or the first after `reset`) starts the track there.
    /// `positionsWander`: whether the position error has the receiver's slow wander; not for
    /// positions rounded to a coarse grid, whose error is the rounding.
    public mutating func update(_ fix: GPSFix, positionSigma: Metres, positionsWander: Bool = true) {
        let total = positionSigma * positionSigma
        // Only the receiver's speed tells the wander from the boat's motion; with positions alone
        // all of their error is taken as jitter (and smoothed as such).
        let share = fix.speed == nil || !positionsWander ? 0 : configuration.wanderShare
        let wander = share * share * total
        let white = max(total - wander, 1e-6)
        guard let plane else {
            start(fix, total: total, wander: wander)
            return
        }
        let z = plane.project(fix.point)
        let dt = fix.time - time
        predict(to: fix.time, wander: wander, withSpeed: fix.speed != nil)
        // Innovation of the position (the fix is position + wander + jitter).
        let ne = z.east - x[0] - x[4], nn = z.north - x[1] - x[5]
        let se = p[0, 0] + 2 * p[0, 4] + p[4, 4] + white, sn = p[1, 1] + 2 * p[1, 5] + p[5, 5] + white
        if dt > configuration.velocityMemory || ne * ne / se + nn * nn / sn > configuration.manoeuvreThreshold {
            // After a long gap, or a manoeuvre: the velocity is open again, as at a start.
            if dt <= configuration.velocityMemory { manoeuvres += 1 }
            let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
            for i in 2..<4 {
                for k in 0..<6 {
                    p[i, k] = 0
                    p[k, i] = 0
                }
                p[i, i] = v0
            }
        }
        lastStep = Step(time: fix.time, dt: dt, wanderDecay: exp(-max(dt, 0) / max(configuration.wanderCorrelationTime, 1e-3)),
                        startsTrack: false, predicted: x, predictedCovariance: p)
        var h = Vector6()
        h[0] = 1; h[4] = 1
        update(h: h, innovation: ne, variance: white)
        h = Vector6()
        h[1] = 1; h[5] = 1
        update(h: h, innovation: z.north - x[1] - x[5], variance: white)
        if let s = fix.speed { useSpeed(s, course: fix.course, interval: dt) }
        lastStep.filtered = x
        lastStep.filteredCovariance = p
    }

    private mutating func start(_ fix: GPSFix, total: Double, wander: Double) {
        plane = LocalTangentPlane(origin: fix.point)
        time = fix.time
        x = Vector6()
        p = Matrix6()
        let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
        // Position = fix − wander: the position is as uncertain as the fix, and anti-correlated
        // with the wander, so that their sum has just the jitter's uncertainty.
        for i in 0..<2 {
            p[i, i] = total
            p[i + 4, i + 4] = wander
            p[i, i + 4] = -wander
            p[i + 4, i] = -wander
            p[i + 2, i + 2] = v0
        }
        if let s = fix.speed { useSpeed(s, course: fix.course) }
        lastStep = Step(time: fix.time, startsTrack: true, filtered: x, filteredCovariance: p)
    }

    /// `interval`: seconds since the fix before. `speedSigma` is the error of a second's speed:
    /// at 5–10 Hz the speeds within a second share the stroke's surge and the receiver's own
    /// smoothing, so each counts as that fraction of a second (its variance scaled by 1 / interval).
    private mutating func useSpeed(_ s: MetresPerSecond, course: Degrees?, interval: Seconds = 1) {
        let sigma = configuration.speedSigma / min(1, max(interval, 0.01)).squareRoot()
        if s < configuration.lowSpeed {
            // About stopped: velocity 0 within the speed reported.
            let variance = configuration.lowSpeedSigma * configuration.lowSpeedSigma + s * s
            velocityUpdate(axis: 2, measurement: 0, variance: variance)
            velocityUpdate(axis: 3, measurement: 0, variance: variance)
            return
        }
        let variance = sigma * sigma
        if let c = course, c.isFinite, s >= configuration.courseMinimumSpeed {
            let radians = c * (Double.pi / 180)
            velocityUpdate(axis: 2, measurement: s * sin(radians), variance: variance)
            velocityUpdate(axis: 3, measurement: s * cos(radians), variance: variance)
            return
        }
        // Speed alone: h(x) = |v|, linearised at the filter's heading once that is known.
        let v = speed
        if v < configuration.lowSpeed {
            // Moving by the receiver but not by the filter (a start from rest): the heading is
            // unknown, so the velocity is opened up to that speed for the positions to orient it.
            for i in 2..<4 where p[i, i] < s * s {
                for k in 0..<6 where k != i {
                    p[i, k] = 0
                    p[k, i] = 0
                }
                p[i, i] = s * s
            }
            return
        }
        guard v * v > 4 * (p[2, 2] + p[3, 3]) else { return }
        var h = Vector6()
        h[2] = x[2] / v
        h[3] = x[3] / v
        update(h: h, innovation: s - v, variance: variance)
    }

    private mutating func velocityUpdate(axis: Int, measurement: Double, variance: Double) {
        var h = Vector6()
        h[axis] = 1
        update(h: h, innovation: measurement - x[axis], variance: variance)
    }

    private mutating func predict(to t: Seconds, wander: Double, withSpeed: Bool) {
        let dt = t - time
        time = t
        guard dt > 0 else { return }
        let a = exp(-dt / max(configuration.wanderCorrelationTime, 1e-3))
        var f = Matrix6()
        for i in 0..<4 { f[i, i] = 1 }
        f[0, 2] = dt; f[1, 3] = dt
        f[4, 4] = a; f[5, 5] = a
        x = f * x
        p = f * p * f.transposed
        // Q: white acceleration, q·[dt³/3, dt²/2; dt²/2, dt] per axis; the wander's innovation.
        let q = withSpeed ? configuration.accelerationNoiseWithSpeed : configuration.accelerationNoise
        let q11 = q * dt * dt * dt / 3, q12 = q * dt * dt / 2, q22 = q * dt
        let qb = wander * (1 - a * a)
        for i in 0..<2 {
            p[i, i] += q11
            p[i, i + 2] += q12
            p[i + 2, i] += q12
            p[i + 2, i + 2] += q22
            p[i + 4, i + 4] += qb
        }
    }

    /// Scalar Kalman update with measurement row `h`, innovation z − h·x and its noise variance.
    private mutating func update(h: Vector6, innovation: Double, variance: Double) {
        var ph = Vector6()  // P hᵀ
        for r in 0..<6 {
            var sum = 0.0
            for c in 0..<6 { sum += p[r, c] * h[c] }
            ph[r] = sum
        }
        var s = variance
        for i in 0..<6 { s += h[i] * ph[i] }
        guard s > 0, s.isFinite, innovation.isFinite else { return }
        for r in 0..<6 { x[r] += ph[r] / s * innovation }
        // P ← P − (P hᵀ)(P hᵀ)ᵀ / s, kept symmetric.
        for r in 0..<6 {
            for c in r..<6 {
                let v = p[r, c] - ph[r] * ph[c] / s
                p[r, c] = v
                p[c, r] = v
            }
        }
    }
}

/// A 6-vector of doubles held inline (no heap storage).
struct Vector6: Sendable {
    private var v = InlineArray<6, Double>(repeating: 0)

    // Read in place: a tuple read through `withUnsafeBytes(of:)` was copied whole at every access.
    subscript(i: Int) -> Double {
        get { v[i] }
        set { v[i] = newValue }
    }
}

/// A 6×6 matrix of doubles held inline (no heap storage), row-major.
struct Matrix6: Sendable {
    // The products work on the elements directly: a store through the subscript below copied
    // the whole matrix (288 bytes) once per element.
    /// Row-major; read it through `m.span` (see above), written only here.
    private(set) var m = InlineArray<36, Double>(repeating: 0)

    init() {}

    private init(_ m: InlineArray<36, Double>) { self.m = m }

    subscript(row: Int, column: Int) -> Double {
        get { m[row * 6 + column] }
        set { m[row * 6 + column] = newValue }
    }

    var transposed: Matrix6 {
        let sm = m.span
        var t = InlineArray<36, Double>(repeating: 0)
        for r in 0..<6 { for c in 0..<6 { t[c * 6 + r] = sm[r * 6 + c] } }
        return Matrix6(t)
    }

    static func * (a: Matrix6, b: Matrix6) -> Matrix6 {
        // Read through spans: `a.m[i]` on a parameter copied the whole array at every read.
        let sa = a.m.span, sb = b.m.span
        var out = InlineArray<36, Double>(repeating: 0)
        for r in 0..<6 {
            for c in 0..<6 {
                var sum = 0.0
                for k in 0..<6 { sum += sa[r * 6 + k] * sb[k * 6 + c] }
                out[r * 6 + c] = sum
            }
        }
        return Matrix6(out)
    }

    static func * (a: Matrix6, x: Vector6) -> Vector6 {
        let sa = a.m.span
        var out = Vector6()
        for r in 0..<6 {
            var sum = 0.0
            for k in 0..<6 { sum += sa[r * 6 + k] * x[k] }
            out[r] = sum
        }
        return out
    }
}
