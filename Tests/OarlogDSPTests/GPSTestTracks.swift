import Foundation
import OarlogCore
import OarlogTestSupport

/// Deterministic synthetic GPS tracks with realistic receiver errors, for the GPS tests.

/// Receiver position error models.
enum GPSNoise {
    case none
    /// Independent per fix, `rms` metres horizontal RMS (rms/√2 per axis): the pessimistic case.
    case white(rms: Metres)
    /// What a receiver's own filter outputs: a velocity error that is a first-order Gauss–Markov
    /// process (σ `velocity` m/s, time constant `tau`), integrated into the position. Positions
    /// wander by metres over minutes but are smooth from fix to fix.
    case receiverFiltered(velocity: MetresPerSecond, tau: Seconds)
}

struct GPSTestTrack {
    var fixes: [GPSFix] = []
    /// True distance travelled between the first and the last fix, metres.
    var trueDistance: Metres = 0

    /// A boat moving along `path` (true position as a function of time, returning point, speed and
    /// course), sampled at `rate` Hz for `duration` s, with position noise and a receiver speed
    /// (Doppler: true speed + 0.03 m/s noise, or nil when `withSpeed` is false).
    static func make(rate: Hertz, duration: Seconds, noise: GPSNoise, seed: UInt64 = 1, withSpeed: Bool = true,
                     accuracy: Metres? = 3,
                     path: (Seconds) -> (GeoPoint, MetresPerSecond, Degrees)) -> GPSTestTrack {
        var rng = SplitMix64(state: seed)
        var track = GPSTestTrack()
        let n = Int((duration * rate).rounded())
        var ve = 0.0, vn = 0.0, pe = 0.0, pn = 0.0
        let dt = 1 / rate
        var previousTrue: GeoPoint?
        for i in 0...n {
            let t = Double(i) * dt
            let (p, speed, course) = path(t)
            if let q = previousTrue { track.trueDistance += Geodesy.distance(from: q, to: p) }
            previousTrue = p
            var east = 0.0, north = 0.0
            var speedError = 0.0
            switch noise {
            case .none:
                break
            case .white(let rms):
                east = rng.standardNormal() * rms / 2.0.squareRoot()
                north = rng.standardNormal() * rms / 2.0.squareRoot()
            case .receiverFiltered(let sigma, let tau):
                let a = exp(-dt / tau), b = sigma * (1 - a * a).squareRoot()
                ve = a * ve + b * rng.standardNormal()
                vn = a * vn + b * rng.standardNormal()
                pe += ve * dt
                pn += vn * dt
                east = pe
                north = pn
                let c = course * .pi / 180
                speedError = ve * sin(c) + vn * cos(c)
            }
            let plane = LocalTangentPlane(origin: p)
            let noisy = plane.unproject(east: east, north: north)
            let reported: MetresPerSecond? = withSpeed
                ? max(0, speed + speedError + 0.03 * rng.standardNormal()) : nil
            track.fixes.append(GPSFix(time: t, latitude: noisy.latitude, longitude: noisy.longitude,
                                      speed: reported, course: course, horizontalAccuracy: accuracy, mode: .threeD))
        }
        return track
    }

    /// Straight line from `start` on `bearing` at constant `speed`.
    static func straight(start: GeoPoint = GeoPoint(latitude: 52.2253, longitude: 6.8456), bearing: Degrees = 63,
                         speed: MetresPerSecond) -> (Seconds) -> (GeoPoint, MetresPerSecond, Degrees) {
        { t in (Geodesy.destination(from: start, distance: speed * t, bearing: bearing), speed, bearing) }
    }

    /// Plain geodesic sum of consecutive fixes.
    static func plainSum(_ fixes: [GPSFix]) -> Metres {
        zip(fixes, fixes.dropFirst()).reduce(0) { $0 + Geodesy.distance(from: $1.0.point, to: $1.1.point) }
    }
}
