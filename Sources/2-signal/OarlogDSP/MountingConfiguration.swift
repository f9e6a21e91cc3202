import OarlogCore

/// Where the boat's bow points in the sensor's axes.
public enum MountingAxis: Sendable, Equatable {
    /// Estimated from the motion (the default).
    case estimated
    /// Given: a vector in sensor axes pointing to the bow (need not be unit length, nor exactly
    /// horizontal: its horizontal part is used).
    case fixed(SIMD3<Double>)

    /// Parses `+x`, `-y`, `z`, or three comma-separated numbers (`0.7,-0.7,0`); `auto` or
    /// `estimated` for estimation. `nil` if the text is none of these.
    public init?(_ text: String) {
        let t = text.lowercased().filter { !$0.isWhitespace }
        switch t {
        case "auto", "estimated", "estimate": self = .estimated; return
        case "x", "+x": self = .fixed(SIMD3(1, 0, 0)); return
        case "-x": self = .fixed(SIMD3(-1, 0, 0)); return
        case "y", "+y": self = .fixed(SIMD3(0, 1, 0)); return
        case "-y": self = .fixed(SIMD3(0, -1, 0)); return
        case "z", "+z": self = .fixed(SIMD3(0, 0, 1)); return
        case "-z": self = .fixed(SIMD3(0, 0, -1)); return
        default:
            let parts = t.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 3, t.split(separator: ",").count == 3 else { return nil }
            let v = SIMD3(parts[0], parts[1], parts[2])
            guard (v * v).sum() > 1e-12 else { return nil }
            self = .fixed(v)
        }
    }
}

/// Tuning of the mounting estimator.
public struct MountingEstimatorConfiguration: Sendable, Equatable {
    public var axis: MountingAxis = .estimated
    /// Gravity is the low-pass of the raw vector with this time constant (after a plain average
    /// over `gravitySettlingTime`). Default 5 s: a stroke's acceleration averages out.
    public var gravityTimeConstant: Seconds = 5
    /// Nothing is returned before this much data has been averaged for gravity. Default 1 s.
    public var gravitySettlingTime: Seconds = 1
    /// Memory of the horizontal covariance whose principal axis is the surge axis. Default 10 s.
    public var axisTimeConstant: Seconds = 10
    /// How often the axis (and, while settling, the decision) is recomputed. Default 0.25 s.
    public var axisUpdateInterval: Seconds = 0.25
    /// The axis is only trusted once the RMS acceleration along it reaches this (m/s²): a boat
    /// sitting still has no surge axis to find. Default 0.3 m/s².
    public var minimumMotion: MetresPerSecondSquared = 0.3
    /// The sign is only decided after this much motion (two strokes or so: a first stroke
    /// from rest can look unlike the rest). Default 5 s.
    public var motionBeforeSign: Seconds = 5
    /// How clearly the stroke's asymmetry (the jerk's skewness) must show before the sign is
    /// decided (see `MountingEstimator`). Default 0.35: real strokes show +1.4 to +2.8, a stroke
    /// whose fall into the catch is nearly as steep as its rise about +0.5; once settled, the
    /// sign flips only on `signFlipConfidence`.
    public var signConfidence: Double = 0.35
    /// Once settled, the sign flips only when the jerk's skewness, tracked over about 30 s, falls
    /// below minus this. Default 1.2: clear, lasting evidence (a long rest's sensor noise alone
    /// took it below −0.5 in a 4-minute rest, `MountingRestTests`).
    public var signFlipConfidence: Double = 1.2
    /// The asymmetry is measured over (and, once settled, the samples are replayed from) at most
    /// this much of the recent past. Default 10 s.
    public var settlingWindow: Seconds = 10
    /// Samples kept while settling (bounds memory: 16384 covers 10 s up to 1.6 kHz).
    public var historyCapacity: Int = 16384
    /// The fused speed's surge (`FusedSurgeFrame`) takes gravity frozen when the estimator
    /// settles, and again only when the estimator's gravity has turned this far from it (the
    /// sensor moved in the boat), degrees. Default 5°: the boat's trim and the 5 s gravity's
    /// lean with the boat's mean acceleration stay under 1°; a sensor knocked or re-mounted
    /// turns much more.
    public var fusedRefreezeAngle: Double = 5
    /// Whether the fused surge's axis follows the estimator's (made perpendicular to the frozen
    /// gravity; default) or is frozen `fusedAxisDelay` after settling.
    public var fusedAxisFollows = true
    /// See `fusedAxisFollows`. Default 20 s.
    public var fusedAxisDelay: Seconds = 20

    public init(axis: MountingAxis = .estimated) { self.axis = axis }
}
