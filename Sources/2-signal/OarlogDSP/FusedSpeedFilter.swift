import OarlogCore

/// The boat's speed from the accelerometer's surge, integrated, and held to the GPS: a Kalman
/// filter whose state is the speed and the surge accelerometer's bias.
///
/// - Predicted at every accelerometer sample with the mounting estimator's fused surge
///   (`MountingEstimator.fusedSurge`: gravity frozen when it settled, the estimator's axis made
///   perpendicular to it — see `FusedSurgeFrame`), optionally restored (`SurgeRestorer`, for a
///   surge taken from a 5 s gravity; the analyzer passes 0: none): the speed grows by the surge
///   less the bias, integrated (trapezoids). A NaN surge restarts the bias (a new frame).
/// - Corrected at every GPS fix by the receiver's Doppler speed when it gives one, else by the
///   speed the distance track gives over a few seconds of positions (`correct(meanSpeed:…)`).
/// - The covariance is carried in closed form from one fix to the next (continuous-time white
///   noise on the acceleration and a random walk of the bias), not per sample: per sample the
///   filter only integrates.
/// - Before the mounting has settled, or with no accelerometer, or after a gap, it is the GPS
///   speed (held between fixes); a fix sets it and the accelerometer drives it from a sample
///   within `startWindow` of that fix. A gap resets it (`reset`; the bias is kept).
/// - Each history entry also keeps the lowest and highest speed of the samples since the one
///   before (`FusedSpeedHistory.extremes`: a stroke's lowest and highest speed).
///
/// Its history (`FusedSpeedHistory`) holds the speed and the distance it covered every `cadence`
/// (0.1 s, or `interval` if shorter), for about a minute. Nothing is allocated after init.
public struct FusedSpeedFilter: Sendable {
    /// The filter's noise figures.
    public struct Noise: Sendable, Equatable {
        /// Acceleration noise density besides the sensor's white noise (`sensorNoise`),
        /// m/s²/√Hz (speed random walk: 0.003 m/s after 1 s). The surge is the mounting's fused
        /// surge (`FusedSurgeFrame`: gravity frozen, the axis perpendicular to it), whose error is
        /// no longer the 5 s gravity leaning with the boat's pace (that needed 0.1) but the pitch
        /// and roll turning gravity into it within a stroke and with the swell, zero mean over a
        /// stroke or a swell, and the axis's own wobble. With `sensorNoise` 0.05 this trusts the
        /// integral over some 10–20 s of fixes: tilted sensor at 25 and 100 Hz, 24 and 32 spm,
        /// strokes after 15 s, each stroke's mean speed 0.031 m/s rms off the truth's (0.01 and no
        /// `sensorNoise`: the same; 0.1: 0.05 and more — a fix's own 0.07 m/s noise averaged over
        /// only a stroke's two or three fixes). 0.001–0.006 give the same within 0.002 m/s.
        public var accelerationDensity: Double = 0.003
        /// The sensor's white noise, m/s² a sample, on the surge. Integrated sample by sample it
        /// adds σ²·Σdt² to the speed's variance, σ²·dt a second: the same part is trusted less at
        /// 25 Hz (0.01 m/s in a second) than at 500 (0.002), as a part whose noise a sample does
        /// not shrink with its rate should be. 0.05: a phone-grade part (and the simulator's).
        public var sensorNoise: MetresPerSecondSquared = 0.05
        /// Bias random walk, m/s²/√s. The bias is the frozen gravity's tilt along the axis (the
        /// estimator's gravity at settling, a few tenths of a degree off) and the boat's trim:
        /// nearly constant, so a small figure lets the filter average many fixes into it
        /// (0.0001: 0.0008 m/s² in a minute). At 24 spm, strokes after 60 s: 0.027 m/s per stroke
        /// (rms); 0.0003 gave 0.030, 0.00005 0.026 (`FusedSpeedSurgeSourceTests`).
        public var biasDrift: Double = 0.0001
        /// The bias's spread when the filter starts, m/s² (a MEMS part's 0.05–0.1 m/s², as the
        /// simulator's 0.08).
        public var initialBias: Double = 0.1
        /// A receiver's Doppler speed noise, m/s (u-blox M8/M9: 0.05 m/s; phone chips and
        /// older parts 0.1–0.2). 0.1 allows for its own smoothing within the fix.
        public var receiverSpeed: MetresPerSecond = 0.1
        /// The distance track's speed over `positionWindow` (positions 1–3 m apart at random,
        /// smoothed: about 0.3 m/s over 3 s). Successive windows overlap, so their errors are
        /// not independent: the figure is kept large.
        public var positionSpeed: MetresPerSecond = 0.4
        public init() {}
    }

    public let noise: Noise
    /// The history's spacing, s.
    public let cadence: Seconds
    /// The fused speed and distance every `cadence`.
    public private(set) var history: FusedSpeedHistory

    /// The current speed, m/s; `nil` before the first fix (or after a gap).
    public private(set) var speed: MetresPerSecond?
    /// The surge accelerometer's bias, m/s² (Double: `MetresPerSecondSquared` is a Float).
    public private(set) var bias: Double = 0
    /// Whether the accelerometer has driven the speed since the last fix (else it is the GPS's).
    public private(set) var driven = false
    /// The distance covered since the filter began, m.
    public private(set) var distance: Metres = 0
    /// Time of the state.
    public private(set) var time: Seconds = -.infinity

    // Covariance [[p00, p01], [p01, p11]] at the last correction, and the time since.
    private var p00 = 0.0, p01 = 0.0, p11 = 0.0
    private var sinceCorrection: Seconds = 0
    /// Σdt² of the samples integrated since the last correction (`Noise.sensorNoise`), s².
    private var sampleSquares = 0.0
    private var restorer: SurgeRestorer
    /// The restored surge of the last sample less the bias (for the trapezoids), m/s².
    private var lastAcceleration = 0.0
    private var nextEntry: Seconds = -.infinity
    /// Whether `lastAcceleration` is the previous sample's (not after a fix set the speed).
    private var integrating = false
    /// The lowest and highest speed since the last history entry, and their times.
    private var spanLow = Double.infinity, spanLowTime: Seconds = 0
    private var spanHigh = -Double.infinity, spanHighTime: Seconds = 0
    /// The accelerometer starts driving the speed only at a sample this soon after the fix that
    /// set it (`startWindow`): the speed swings by ±0.5 m/s within a stroke, so a speed held
    /// from a fix even 0.3 s before is that far off, and the bias state would learn the error
    /// (measured: a start 0.45 s after the fix, the mounting's axis not yet known, taught the
    /// bias 0.64 m/s² where 0.19 was true, unlearnt over 30 s).
    private var startsBy: Seconds = -.infinity
    /// See `startsBy`: about two samples at 25 Hz.
    public static let startWindow: Seconds = 0.1

    /// A longer interval between accelerometer samples is a gap: the speed is the GPS's again.
    public static let sampleGap: Seconds = 0.25
    /// History kept, s.
    public static let historySeconds: Seconds = 60

    /// - Parameters:
    ///   - interval: the analyzer's `speedInterval`: the history is at least this fine (and 0.1 s).
    ///   - gravityTimeConstant: the mounting estimator's, undone by the restorer (0: none).
    public init(noise: Noise = .init(), interval: Seconds = 0.1,
                gravityTimeConstant: Seconds = MountingEstimatorConfiguration().gravityTimeConstant) {
        self.noise = noise
        cadence = interval > 0 ? min(0.1, max(0.01, interval)) : 0.1
        history = FusedSpeedHistory(seconds: Self.historySeconds, cadence: cadence)
        restorer = SurgeRestorer(gravityTimeConstant: gravityTimeConstant)
    }

    /// Forgets the speed (a gap in the GPS track or in the accelerometer): the next fix sets it.
    /// The bias and its spread are kept: they are the mounting's frozen frame's tilt and the
    /// sensor's bias, which a gap does not change (a new frame restarts them: `restartBias`).
    public mutating func reset() {
        speed = nil
        driven = false
        startsBy = -.infinity
        (spanLow, spanHigh) = (.infinity, -.infinity)
        restorer.reset()
        lastAcceleration = 0
        history.removeAll()
        nextEntry = -.infinity
    }

    /// Takes one surge sample (m/s², the mounting estimator's fused surge) at `sampleTime`. A NaN
    /// surge is none (the mounting's axis not frozen yet), and, while the accelerometer drives
    /// the speed, the sign that the axis was frozen again (`restartBias`).
    @inline(__always)
    public mutating func predict(time sampleTime: Seconds, surge: MetresPerSecondSquared) {
        let dt = sampleTime - time
        guard dt > 0, sampleTime.isFinite, surge.isFinite else {
            if surge.isNaN && driven { restartBias() }
            return
        }
        let a = restorer.restore(time: sampleTime, surge: Double(surge)) - bias
        if let v = speed, dt <= Self.sampleGap, driven || sampleTime <= startsBy {
            let dv = 0.5 * (a + (integrating ? lastAcceleration : a)) * dt
            distance += (v + 0.5 * dv) * dt
            speed = v + dv
            sinceCorrection += dt
            sampleSquares += dt * dt
            let s = v + dv
            if s < spanLow { spanLow = s; spanLowTime = sampleTime }
            if s > spanHigh { spanHigh = s; spanHighTime = sampleTime }
            driven = true
            startsBy = -.infinity
        } else if speed != nil {
            // Not driven (no sample soon enough after the fix that set the speed, or a gap in the
            // samples): the speed is the GPS's until the next fix sets it (the state's time moves on).
            if dt > Self.sampleGap { driven = false; restorer.reset(); integrating = false }
            distance += (speed ?? 0) * dt
        }
        time = sampleTime
        lastAcceleration = a
        integrating = true
        if sampleTime >= nextEntry { record() }
    }

    /// The surge's axis changed (a NaN surge from the mounting: `FusedSurgeFrame` froze it again):
    /// the bias starts again from nothing, and the next fix sets the speed.
    private mutating func restartBias() {
        bias = 0
        p01 = 0
        p11 = noise.initialBias * noise.initialBias
        driven = false
        integrating = false
        restorer.reset()
    }

    /// Takes `n` surge samples (`times[i]`, `values[i]`), oldest first.
    @inline(__always)
    public mutating func predict(times: UnsafePointer<Seconds>, values: UnsafePointer<Float>, count n: Int) {
        for i in 0..<n { predict(time: times[i], surge: values[i]) }
    }

    private mutating func record() {
        // No speed yet: nothing to record until a fix sets one (it records then).
        guard let v = speed else { nextEntry = .infinity; return }
        history.append(.init(time: time, speed: v, distance: distance, driven: driven,
                             lowest: min(spanLow, v), lowestTime: spanLow < v ? spanLowTime : time,
                             highest: max(spanHigh, v), highestTime: spanHigh > v ? spanHighTime : time))
        (spanLow, spanLowTime, spanHigh, spanHighTime) = (v, time, v, time)
        nextEntry = time + cadence - 1e-9
    }

    /// Corrects the speed with the receiver's Doppler speed at `fixTime`.
    public mutating func correct(time fixTime: Seconds, receiverSpeed: MetresPerSecond) {
        correct(time: fixTime, measured: receiverSpeed, variance: noise.receiverSpeed * noise.receiverSpeed)
    }

    /// Corrects the speed with the distance track's mean speed from `start` to `end` (positions
    /// only): the filter's own mean over the same span, from its history, turns it into a
    /// measure of the speed now (`speed + measured − own mean`).
    public mutating func correct(time fixTime: Seconds, meanSpeed measured: MetresPerSecond, from start: Seconds, to end: Seconds) {
        var now = measured
        if driven, let v = speed, let own = history.meanSpeed(from: start, to: end) { now = measured + v - own }
        correct(time: fixTime, measured: now, variance: noise.positionSpeed * noise.positionSpeed)
    }

    /// The Kalman update (measure matrix [1, 0]), the covariance first carried over the time
    /// since the last one.
    private mutating func correct(time fixTime: Seconds, measured z: Double, variance r: Double) {
        guard fixTime.isFinite, z.isFinite, z >= 0 else { return }
        guard driven, let v = speed else {
            // The GPS's speed: it sets the state (the bias kept, its spread as at the start).
            if let v = speed, fixTime > time { distance += v * (fixTime - time) }
            speed = z
            driven = false
            p00 = r
            p01 = 0
            if p11 == 0 { p11 = noise.initialBias * noise.initialBias }
            sinceCorrection = 0
            sampleSquares = 0
            if fixTime > time { time = fixTime }
            startsBy = time + Self.startWindow
            integrating = false
            record()
            return
        }
        // Carry the covariance: Φ = [[1, −τ], [0, 1]], Q(τ) for white acceleration noise qa and
        // a bias random walk qb.
        let tau = sinceCorrection, qa = noise.accelerationDensity * noise.accelerationDensity
        let qb = noise.biasDrift * noise.biasDrift
        let sensor = Double(noise.sensorNoise) * Double(noise.sensorNoise) * sampleSquares
        let a00 = p00 - 2 * tau * p01 + tau * tau * p11 + qa * tau + sensor + qb * tau * tau * tau / 3
        let a01 = p01 - tau * p11 - qb * tau * tau / 2
        let a11 = p11 + qb * tau
        // The speed at the fix (the state may be a sample behind or ahead of it).
        let predicted = v + lastAcceleration * (fixTime - time)
        let s = a00 + r
        let k0 = a00 / s, k1 = a01 / s
        let innovation = z - predicted
        speed = v + k0 * innovation
        bias += k1 * innovation
        p00 = (1 - k0) * a00
        p01 = (1 - k0) * a01
        p11 = a11 - k1 * a01
        sinceCorrection = 0
        sampleSquares = 0
    }

    /// The covariance of the speed, m²/s², at the last fix.
    public var speedVariance: Double { p00 }
}
