import OarlogCore

/// The boat's surge acceleration through one stroke, as a sum of smooth pulses shaped after
/// measured on-water curves (Quiske per-stroke boat acceleration, about 0.45 g catch dip, 0.2 g
/// early drive bump, 0.3 g drive peak near 0.6 s, small dip after the release):
///
/// - the catch dip: the crew's run towards the stern decelerates the boat into the catch
///   (`runIn` seconds of a quadratic fall to `-catchDepth`), then the blade locks and the boat
///   recovers within `recoveryWidth` — a V whose bottom is exactly at `time`, the catch;
/// - the drive: an early bump (legs) over the first 30 % of the drive and the main propulsive
///   hump from 10 % to the finish at `driveDuration`, peaking at about 60 %;
/// - the release: a small dip over 0.2 s after the finish;
/// - the recovery glide: no stroke force, only drag (applied by the boat physics).
///
/// The main hump is scaled so that the stroke's net impulse balances the drag at the target
/// speed: the mean speed settles where the rate and pressure put it.
struct PlannedCatch: Sendable {
    /// 1-based stroke index in the session.
    var index: Int
    /// The catch instant: the bottom of the catch dip.
    var time: Seconds
    /// This is the first stroke of a piece (after a rest or at the start).
    var startsPiece: Bool
    var rate: StrokesPerMinute
    var power: Double
    /// The previous catch of the same piece, if any.
    var previousCatchTime: Seconds?
    /// Time to the next catch of the same piece; `nil` for the last stroke of a piece.
    var period: Seconds?
    var driveDuration: Seconds
    /// Depth of the catch dip, m/s² (positive number).
    var catchDepth: Double
    /// Length of the run-in before the catch.
    var runIn: Seconds
    var earlyAmplitude: Double
    var mainAmplitude: Double
    var releaseAmplitude: Double
    /// Relative size of the boat's heave and pitch at this stroke (1 ≈ 22 spm, firm).
    var motionLevel: Double
    var targetSpeed: MetresPerSecond

    static let recoveryWidth: Seconds = 0.1
    static let releaseLength: Seconds = 0.2

    /// This stroke's contribution to the surge acceleration at `t` (drag excluded), m/s².
    @inline(__always)
    func strokeAcceleration(at t: Seconds) -> Double {
        let tau = t - time
        if tau < 0 {
            guard tau > -runIn else { return 0 }
            let x = 1 + tau / runIn
            return -catchDepth * x * x
        }
        var a = 0.0
        if tau < Self.recoveryWidth {
            let x = 1 - tau / Self.recoveryWidth
            a -= catchDepth * x * x
        }
        let u = tau / driveDuration
        if u < 0.3 {
            let s = _sin(Double.pi * u / 0.3)
            a += earlyAmplitude * s * s
        }
        if u > 0.1 && u < 1 {
            let x = (u - 0.1) / 0.9
            a += mainAmplitude * _sin(Double.pi * x) * (0.5 + x)
        } else if u >= 1 && tau < driveDuration + Self.releaseLength {
            let s = _sin(Double.pi * (tau - driveDuration) / Self.releaseLength)
            a -= releaseAmplitude * s * s
        }
        return a
    }

    /// True once this stroke exerts no more force (after the release).
    @inline(__always)
    func isFinished(at t: Seconds) -> Bool {
        t >= time + driveDuration + Self.releaseLength
    }
}

/// How a crew boat responds to rate and pressure: the figures the stroke model is scaled with.
enum BoatResponse {
    /// Quadratic drag coefficient per unit mass, 1/m: about 0.2 m/s² at 3.2 m/s, as the
    /// measured recovery phase shows, 0.32 m/s² at 4 m/s.
    static let quadraticDrag = 0.02
    /// Low-speed drag, 1/s, fading above 1 m/s: negligible when rowing, it brings a gliding
    /// boat to rest in about a minute and a half instead of drifting for ever.
    static let lowSpeedDrag = 0.1
    /// Below this speed with no stroke force the boat is at rest.
    static let stopSpeed: MetresPerSecond = 0.02
    /// In a turn at the end of a measured course the crew rows light (this fraction of each
    /// stroke's force) and the boat, steered hard, drags this much more: at 24 spm it slows from
    /// about 4.4 m/s to about 2.5 m/s within a few strokes, and picks up again after the turn.
    static let turnPressure = 0.5
    static let turnDrag = 1.25

    /// Drag deceleration at speed `v` (signed: opposes the motion), m/s². Increases with speed.
    @inline(__always)
    static func drag(_ v: MetresPerSecond) -> Double {
        quadraticDrag * v * abs(v) + lowSpeedDrag * v / (1 + v * v)
    }

    /// Mean speed the crew settles at: 3.5 m/s at 18 spm rising to 5.5 m/s at 40 spm at full
    /// pressure, times the cube root of the pressure (power ∝ speed³).
    static func targetSpeed(rate: StrokesPerMinute, power: Double) -> MetresPerSecond {
        max(1.5, (3.5 + 2.0 * (rate - 18) / 22) * _pow(power, 1.0 / 3.0))
    }

    /// Drive duration: about 1.0 s at 18 spm, 0.88 s at 24, 0.7 s at 40 — it shrinks far less
    /// than the recovery as the rate rises.
    static func driveDuration(rate: StrokesPerMinute) -> Seconds {
        _pow(18 / rate, 0.45)
    }

    /// Depth of the catch dip: about 0.45 g at 22 spm firm, deeper with rate and pressure.
    static func catchDepth(rate: StrokesPerMinute, power: Double) -> Double {
        4.4 * _pow(rate / 22, 0.8) * _pow(power, 0.7)
    }

    /// Heave/pitch size relative to 22 spm firm.
    static func motionLevel(rate: StrokesPerMinute, power: Double) -> Double {
        (rate / 22).squareRoot() * power.squareRoot()
    }
}
