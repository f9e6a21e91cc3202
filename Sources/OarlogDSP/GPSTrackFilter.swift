#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// Where the boat is and how fast it moves, from GPS fixes: a Kalman filter, run forward fix by
/// fix (so the same in live and in replay), on a local east-north plane.
///
/// State: east and north position (metres) and velocity (m/s). Between fixes the boat keeps its
/// velocity up to a white-noise acceleration (`accelerationNoise`): what a rowing boat's mean
/// motion does; the surge within a stroke (±0.5 m/s, ±0.2 m of position at 1 Hz) is left to the
/// measurement noise. Each fix updates it with:
/// - the position, with a per-axis error the caller gives (from the receiver's accuracy, or the
///   coarseness of the source's grid);
/// - the receiver's own (Doppler) speed when it has one: with the course, as a velocity vector;
///   without, as the speed alone (linearised at the filter's own heading, once that heading is
///   known); at a speed under `lowSpeed` as "about stopped", which is what keeps a boat at rest
///   from drifting in the filter.
///
/// Fused this way the track is smooth where the positions jitter (the sum of filtered steps does
/// not read long), and anchored to the positions over time (a biased speed — a device that writes
/// its speed at one phase of the stroke — does not accumulate into the track). Memory: a few
/// numbers; no allocation.
public struct GPSTrackFilter: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Spectral density of the boat's unmodelled acceleration, m²/s³. Small: the mean motion of
        /// a rowing boat changes over strokes, not within one.
        public var accelerationNoise: Double = 0.15
        /// Error of the receiver's speed as a measure of the boat's mean velocity, m/s: Doppler
        /// noise (0.05–0.1) and the within-stroke surge the model does not follow.
        public var speedSigma: MetresPerSecond = 0.3
        /// Below this receiver speed the fix says "about stopped" (velocity 0 ± the speed).
        public var lowSpeed: MetresPerSecond = 0.5
        /// The course is used only above this receiver speed (it wanders when nearly stopped).
        public var courseMinimumSpeed: MetresPerSecond = 1.0
        /// Velocity uncertainty at the start of a track piece, m/s per axis.
        public var initialVelocitySigma: MetresPerSecond = 3
        /// A fix further from the prediction than this (normalised innovation squared, 2 degrees
        /// of freedom; 16 is far beyond noise) means the boat manoeuvred — turned round, stopped,
        /// started — in a way the steady model cannot follow: the velocity is then opened up to
        /// what the fix implies, so the track turns with the boat instead of overshooting.
        public var manoeuvreThreshold: Double = 16
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

    public var configuration: Configuration
    /// Fixes that showed a manoeuvre (see `Configuration.manoeuvreThreshold`).
    public private(set) var manoeuvres = 0
    /// Whether the filter holds a track (a fix has been used since the start or the last reset).
    public var isTracking: Bool { plane != nil }

    private var plane: LocalTangentPlane?
    private var time: Seconds = 0
    // State [e, n, ve, vn] and its covariance (symmetric 4×4, row-major).
    private var x = (0.0, 0.0, 0.0, 0.0)
    private var p = Matrix4()
    /// Fixes further than this from the plane's origin move the origin (keeps the plane exact).
    private static let recentreDistance: Metres = 2000

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Forgets the track: the next fix starts a new one.
    public mutating func reset() { plane = nil }

    /// Position (east, north) of the filtered track in the plane, metres.
    public var east: Metres { x.0 }
    public var north: Metres { x.1 }
    /// Filtered speed over ground, m/s.
    public var speed: MetresPerSecond { (x.2 * x.2 + x.3 * x.3).squareRoot() }
    /// Latitude of the plane's origin (it moves with the boat, see `recentreIfFar`).
    public var originLatitude: Degrees? { plane?.origin.latitude }
    /// The filtered position as a point on the ellipsoid; `nil` when not tracking.
    public var position: GeoPoint? { plane?.unproject(east: x.0, north: x.1) }

    /// The state at the last fix (not moved forward), for judging a new fix; `nil` when not tracking.
    public var last: Prediction? {
        guard plane != nil else { return nil }
        return Prediction(time: time, east: x.0, north: x.1, positionVariance: max(p[0, 0], p[1, 1]),
                          velocityEast: x.2, velocityNorth: x.3, velocityVariance: max(p[2, 2], p[3, 3]))
    }

    /// East/north of `point` in the filter's plane; `nil` when not tracking.
    public func project(_ point: GeoPoint) -> (east: Metres, north: Metres)? {
        plane?.project(point)
    }

    /// Moves the plane's origin to the current position when it is far away; returns the shift
    /// (subtract it from positions kept in the old plane), or `nil` when it did not move.
    public mutating func recentreIfFar() -> (east: Metres, north: Metres, plane: LocalTangentPlane)? {
        guard let old = plane, x.0 * x.0 + x.1 * x.1 > Self.recentreDistance * Self.recentreDistance else { return nil }
        let origin = old.unproject(east: x.0, north: x.1)
        let shift = (east: x.0, north: x.1)
        plane = LocalTangentPlane(origin: origin)
        x.0 = 0
        x.1 = 0
        return (shift.east, shift.north, old)
    }

    /// Uses one fix: `positionSigma` is its position error per axis, metres. Call with increasing
    /// times; a first fix (or the first after `reset`) starts the track there.
    public mutating func update(_ fix: GPSFix, positionSigma: Metres) {
        let r = positionSigma * positionSigma
        guard let plane else {
            start(fix, r: r)
            return
        }
        let z = plane.project(fix.point)
        let dt = fix.time - time
        predict(to: fix.time)
        let ne = z.east - x.0, nn = z.north - x.1
        let nis = ne * ne / (p[0, 0] + r) + nn * nn / (p[1, 1] + r)
        if nis > configuration.manoeuvreThreshold, dt > 0 {
            manoeuvres += 1
            p[2, 2] += ne * ne / (dt * dt)
            p[3, 3] += nn * nn / (dt * dt)
        }
        scalarUpdate(index: 0, measurement: z.east, variance: r)
        scalarUpdate(index: 1, measurement: z.north, variance: r)
        if let s = fix.speed { useSpeed(s, course: fix.course) }
    }

    private mutating func start(_ fix: GPSFix, r: Double) {
        plane = LocalTangentPlane(origin: fix.point)
        time = fix.time
        x = (0, 0, 0, 0)
        let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
        p = Matrix4()
        p[0, 0] = r; p[1, 1] = r; p[2, 2] = v0; p[3, 3] = v0
        if let s = fix.speed { useSpeed(s, course: fix.course) }
    }

    private mutating func useSpeed(_ s: MetresPerSecond, course: Degrees?) {
        let sigma = configuration.speedSigma
        if s < configuration.lowSpeed {
            // About stopped: velocity 0 within the speed reported.
            let variance = sigma * sigma + s * s
            scalarUpdate(index: 2, measurement: 0, variance: variance)
            scalarUpdate(index: 3, measurement: 0, variance: variance)
            return
        }
        let variance = sigma * sigma
        if let c = course, c.isFinite, s >= configuration.courseMinimumSpeed {
            let radians = c * (Double.pi / 180)
            scalarUpdate(index: 2, measurement: s * sin(radians), variance: variance)
            scalarUpdate(index: 3, measurement: s * cos(radians), variance: variance)
            return
        }
        // Speed alone: h(x) = |v|, linearised at the filter's heading once that is known.
        let v = speed
        guard v >= configuration.lowSpeed, v * v > 4 * (p[2, 2] + p[3, 3]) else { return }
        let h = (0.0, 0.0, x.2 / v, x.3 / v)
        update(h: h, innovation: s - v, variance: variance)
    }

    private mutating func predict(to t: Seconds) {
        let dt = t - time
        time = t
        guard dt > 0 else { return }
        x.0 += dt * x.2
        x.1 += dt * x.3
        // P ← F P Fᵀ, F = [[I, dt·I], [0, I]].
        var f = p
        for c in 0..<4 {
            f[0, c] = p[0, c] + dt * p[2, c]
            f[1, c] = p[1, c] + dt * p[3, c]
        }
        var g = f
        for r in 0..<4 {
            g[r, 0] = f[r, 0] + dt * f[r, 2]
            g[r, 1] = f[r, 1] + dt * f[r, 3]
        }
        // Q for white acceleration: q·[dt³/3, dt²/2; dt²/2, dt] per axis.
        let q = configuration.accelerationNoise
        let q11 = q * dt * dt * dt / 3, q12 = q * dt * dt / 2, q22 = q * dt
        g[0, 0] += q11; g[1, 1] += q11
        g[0, 2] += q12; g[2, 0] += q12; g[1, 3] += q12; g[3, 1] += q12
        g[2, 2] += q22; g[3, 3] += q22
        p = g
    }

    private mutating func scalarUpdate(index: Int, measurement: Double, variance: Double) {
        var h = (0.0, 0.0, 0.0, 0.0)
        switch index {
        case 0: h.0 = 1
        case 1: h.1 = 1
        case 2: h.2 = 1
        default: h.3 = 1
        }
        update(h: h, innovation: measurement - component(index), variance: variance)
    }

    private func component(_ i: Int) -> Double {
        switch i {
        case 0: return x.0
        case 1: return x.1
        case 2: return x.2
        default: return x.3
        }
    }

    /// Scalar Kalman update with measurement row `h`, innovation z − h·x and its noise variance.
    private mutating func update(h: (Double, Double, Double, Double), innovation: Double, variance: Double) {
        // ph = P hᵀ
        var ph = (0.0, 0.0, 0.0, 0.0)
        ph.0 = p[0, 0] * h.0 + p[0, 1] * h.1 + p[0, 2] * h.2 + p[0, 3] * h.3
        ph.1 = p[1, 0] * h.0 + p[1, 1] * h.1 + p[1, 2] * h.2 + p[1, 3] * h.3
        ph.2 = p[2, 0] * h.0 + p[2, 1] * h.1 + p[2, 2] * h.2 + p[2, 3] * h.3
        ph.3 = p[3, 0] * h.0 + p[3, 1] * h.1 + p[3, 2] * h.2 + p[3, 3] * h.3
        let s = h.0 * ph.0 + h.1 * ph.1 + h.2 * ph.2 + h.3 * ph.3 + variance
        guard s > 0, s.isFinite, innovation.isFinite else { return }
        let k = (ph.0 / s, ph.1 / s, ph.2 / s, ph.3 / s)
        x.0 += k.0 * innovation
        x.1 += k.1 * innovation
        x.2 += k.2 * innovation
        x.3 += k.3 * innovation
        // P ← P − K (P hᵀ)ᵀ, kept symmetric.
        for r in 0..<4 {
            let kr = r == 0 ? k.0 : r == 1 ? k.1 : r == 2 ? k.2 : k.3
            for c in r..<4 {
                let pc = c == 0 ? ph.0 : c == 1 ? ph.1 : c == 2 ? ph.2 : ph.3
                let v = p[r, c] - kr * pc
                p[r, c] = v
                p[c, r] = v
            }
        }
    }
}

/// A 4×4 matrix of doubles held inline (no heap storage), row-major.
struct Matrix4: Sendable {
    private var m = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    subscript(row: Int, column: Int) -> Double {
        get {
            withUnsafeBytes(of: m) { $0.load(fromByteOffset: (row * 4 + column) * 8, as: Double.self) }
        }
        set {
            withUnsafeMutableBytes(of: &m) { $0.storeBytes(of: newValue, toByteOffset: (row * 4 + column) * 8, as: Double.self) }
        }
    }
}
