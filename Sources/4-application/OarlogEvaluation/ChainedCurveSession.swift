#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore
import OarlogSimulator

/// An outing built from real per-stroke boat-acceleration curves (a Quiske export's), with
/// everything a detector finds hard in real water and every catch known:
/// - pieces at a rate that changes from stroke to stroke (a racing start from standstill, a
///   sprint from 24 to 36 spm, paddling at 16 spm), each stroke a real curve re-timed to its
///   period (the drive shortens less than the recovery as the rate rises, as it does in a boat)
///   and scaled to its pressure (light paddling: half the acceleration);
/// - pauses of any length: the crew stops at the finish, the boat glides to rest under drag and
///   bobs a little; before the next catch the crew slides forward to frontstops (the last part
///   of a real recovery);
/// - a sensor: mounted at a random orientation (gravity on whichever axes that gives), sampled
///   at any rate — each sample the mean of the acceleration over its interval, as a sensor's
///   own low-pass gives it, centred on the sample's time — with white noise and quantised to the chip's counts.
///
/// The truth is each catch (a curve's start, where the Quiske device put it), each stroke's own
/// rate (to the next catch within its piece), and the pauses.
public struct ChainedCurveSession: RecordSource, Sendable {
    /// A real stroke: its recorded length and its boat acceleration catch to catch, m/s².
    public typealias Curve = (duration: Seconds, acceleration: [MetresPerSecondSquared])

    /// One part of the outing's plan.
    public enum Part: Sendable, Equatable {
        /// `count` strokes, the rate going evenly from `fromRate` (the first) to `toRate` (the
        /// last), at `pressure` (1 = as recorded).
        case strokes(count: Int, fromRate: StrokesPerMinute, toRate: StrokesPerMinute, pressure: Double)
        /// `count` strokes each at its curve's recorded length and pressure: the crew's own timing,
        /// stroke to stroke, as the Quiske device recorded it.
        case recorded(count: Int)
        /// The crew stops after the last stroke's drive; this long from that stroke's catch to
        /// the next catch.
        case pause(Seconds)
    }

    /// The sensor and its mounting.
    public struct Sensor: Sendable, Equatable {
        public var sampleRate: Hertz
        /// White noise on each axis, m/s² (RMS).
        public var noise: MetresPerSecondSquared
        /// The chip's count, m/s² (0: not quantised). An ADXL345 at ±16 g full resolution: 0.0383.
        public var countSize: MetresPerSecondSquared
        /// Sensor axes from the boat's (x to the bow, z up).
        public var mounting: Rotation3
        public init(sampleRate: Hertz, noise: MetresPerSecondSquared = 0.05, countSize: MetresPerSecondSquared = 0,
                    mounting: Rotation3 = Mounting.flat.sensorToBoat.transposed) {
            self.sampleRate = sampleRate
            self.noise = noise
            self.countSize = countSize
            self.mounting = mounting
        }
    }

    /// What really happened.
    public struct Truth: Sendable, Equatable {
        /// Every catch, in order.
        public var catches: [Seconds] = []
        /// Each stroke's own rate, 60 / (next catch − catch) (`nil`: the last of a piece).
        public var rates: [StrokesPerMinute?] = []
        /// Whether each stroke is the first of a piece (the outing's first, or after a pause).
        public var firstOfPiece: [Bool] = []
        /// The drive's length of each stroke as re-timed (the curve's drive, its first
        /// `driveFraction`), s.
        public var drives: [Seconds] = []
        /// From each pause's stop (the last stroke's finish) to the next catch.
        public var pauses: [ClosedRange<Seconds>] = []
    }

    /// Where a recorded curve's drive ends, as a fraction of the stroke (the Quiske curves at
    /// 20–24 spm: the finish at 0.27–0.30).
    public static let driveFraction = 0.3
    /// At rest before the first stroke (gravity settles; the boat sits still).
    public static let stillAtStart: Seconds = 4
    /// The crew's slide to frontstops before a catch from rest.
    static let slideForward: Seconds = 0.9

    public let sensor: Sensor
    public private(set) var truth = Truth()
    public let duration: Seconds

    /// What the boat does, piece by piece, in time order.
    private enum Segment: Sendable {
        /// A curve re-timed to `period` with its drive lasting `drive`; `cut`: the crew stops at
        /// the finish (the curve ends there).
        case stroke(curve: Int, period: Seconds, drive: Seconds, scale: Double)
        /// Gliding from `speed` under drag, bobbing; then from `slideAt` the slide forward.
        case rest(speed: MetresPerSecond, slideAt: Seconds, bobPhase: Double, bobHz: Double)
    }
    private let curves: [[Float]]
    private let curveDurations: [Seconds]
    private var segments: [(start: Seconds, end: Seconds, segment: Segment)] = []
    private var segmentIndex = 0
    private var sampleIndex = 0
    private var random: Xoshiro256StarStar
    private var metadataSent = false

    /// - Parameters:
    ///   - curves: real strokes (each a curve catch to catch, m/s², and its recorded length);
    ///     used in turn from a random start.
    ///   - plan: the outing.
    public init(curves: [Curve], plan: [Part], sensor: Sensor, seed: UInt64) {
        precondition(!curves.isEmpty)
        self.curves = curves.map(\.acceleration)
        curveDurations = curves.map(\.duration)
        self.sensor = sensor
        random = Xoshiro256StarStar(seed: seed, stream: 11)
        var t = Self.stillAtStart
        var next = Int(random.uniform(0, Double(curves.count))) % curves.count
        var first = true
        var segments: [(start: Seconds, end: Seconds, segment: Segment)] = []
        var truth = Truth()
        // The rest before the first catch.
        segments.append((0, t, .rest(speed: 0, slideAt: t - Self.slideForward, bobPhase: 0, bobHz: 0.5)))
        var stoppedAfter: Int? = nil  // segment index of the stroke a pause cuts
        for part in plan {
            switch part {
            case .strokes, .recorded:
                let count: Int
                if case .strokes(let n, _, _, _) = part { count = n } else if case .recorded(let n) = part { count = n } else { count = 0 }
                for k in 0..<count {
                    let c = next
                    next = (next + 1) % curves.count
                    let recorded = curveDurations[c]
                    var period = recorded, drive = Self.driveFraction * recorded, scale = 1.0
                    if case .strokes(_, let fromRate, let toRate, let pressure) = part {
                        let rate = count == 1 ? fromRate : fromRate + (toRate - fromRate) * Double(k) / Double(count - 1)
                        period = 60 / rate
                        // The drive shortens as the square root of the period's change, the recovery takes the rest.
                        drive = min(Self.driveFraction * recorded * (period / recorded).squareRoot(), 0.55 * period)
                        // Same speed change in a shorter drive: the acceleration rises as the drive shortens.
                        scale = pressure * min(2, Self.driveFraction * recorded / drive)
                    }
                    segments.append((t, t + period, .stroke(curve: c, period: period, drive: drive, scale: scale)))
                    truth.catches.append(t)
                    truth.rates.append(60 / period)  // `nil` if a pause or the end follows (below)
                    truth.firstOfPiece.append(first)
                    truth.drives.append(drive)
                    first = false
                    t += period
                }
                stoppedAfter = segments.count - 1
            case .pause(let seconds):
                guard let s = stoppedAfter, case .stroke(let c, let period, let drive, let scale) = segments[s].segment else { continue }
                // Cut the last stroke at its finish; the rest runs to the next catch.
                let stop = segments[s].start + drive
                let end = max(stop + Self.slideForward + 1, segments[s].start + seconds)
                segments[s].end = stop
                segments[s].segment = .stroke(curve: c, period: period, drive: drive, scale: scale)
                segments.append((stop, end, .rest(speed: 3.5 * min(1, scale).squareRoot(), slideAt: end - Self.slideForward,
                                                  bobPhase: random.uniform(0, 2 * Double.pi), bobHz: random.uniform(0.3, 0.8))))
                truth.pauses.append(stop...end)
                truth.rates[truth.rates.count - 1] = nil
                t = end
                first = true
                stoppedAfter = nil
            }
        }
        // The crew stops after the last stroke and the boat glides on a little.
        if let s = stoppedAfter, case .stroke(_, _, let drive, _) = segments[s].segment {
            let stop = segments[s].start + drive
            segments[s].end = stop
            segments.append((stop, stop + 8, .rest(speed: 3.5, slideAt: .infinity, bobPhase: 0, bobHz: 0.5)))
            t = stop + 8
        }
        if !truth.rates.isEmpty { truth.rates[truth.rates.count - 1] = nil }
        self.segments = segments
        self.truth = truth
        duration = t
    }

    /// Reads a plan from text, parts separated by spaces: `20@22` (20 strokes at 22 spm),
    /// `3@30-40` (3 strokes, 30 to 40 spm), `20@16x0.5` (at half pressure), `55@rec` (55 strokes
    /// at their recorded timing), `p30` (a 30 s pause).
    public static func plan(_ text: String) -> [Part]? {
        var parts: [Part] = []
        for word in text.split(separator: " ") {
            if word.hasPrefix("p") {
                guard let s = Double(word.dropFirst()) else { return nil }
                parts.append(.pause(s))
                continue
            }
            let countAndRest = word.split(separator: "@")
            guard countAndRest.count == 2, let count = Int(countAndRest[0]), count > 0 else { return nil }
            if countAndRest[1] == "rec" {
                parts.append(.recorded(count: count))
                continue
            }
            let rateAndPressure = countAndRest[1].split(separator: "x")
            let pressure = rateAndPressure.count == 2 ? Double(rateAndPressure[1]) : 1
            let rates = rateAndPressure[0].split(separator: "-").compactMap { Double($0) }
            guard let pressure, rates.count == 1 || rates.count == 2 else { return nil }
            parts.append(.strokes(count: count, fromRate: rates[0], toRate: rates.last!, pressure: pressure))
        }
        return parts
    }

    public mutating func next() throws -> TraceRecord? {
        if !metadataSent {
            metadataSent = true
            return .metadata(key: "accel_hz", value: String(sensor.sampleRate))
        }
        let t = Double(sampleIndex) / sensor.sampleRate
        guard t < duration else { return nil }
        sampleIndex += 1
        // The mean over the sample's interval, centred on its time (the sensor's own low-pass,
        // its delay taken out by the time stamp), from 8 points.
        let interval = 1 / sensor.sampleRate
        var surge = 0.0
        for k in 0..<8 { surge += acceleration(at: t + interval * ((Double(k) + 0.5) / 8 - 0.5)) }
        surge /= 8
        let g = Double(standardGravity)
        var reading = sensor.mounting.apply(SIMD3(surge, 0, g))
        if sensor.noise > 0 { reading += SIMD3(random.normal(), random.normal(), random.normal()) * Double(sensor.noise) }
        if sensor.countSize > 0 {
            let q = Double(sensor.countSize)
            reading = SIMD3((reading.x / q).rounded() * q, (reading.y / q).rounded() * q, (reading.z / q).rounded() * q)
        }
        return .accel(AccelSample(time: t, x: Float(reading.x), y: Float(reading.y), z: Float(reading.z)))
    }

    /// The boat's surge acceleration at `t` (m/s²): call with times that do not go back by more
    /// than a sample.
    private mutating func acceleration(at t: Seconds) -> Double {
        guard t >= 0 else { return 0 }
        while segmentIndex + 1 < segments.count && segments[segmentIndex + 1].start <= t { segmentIndex += 1 }
        while segmentIndex > 0 && segments[segmentIndex].start > t { segmentIndex -= 1 }
        let (start, end, segment) = segments[segmentIndex]
        let x = t - start
        switch segment {
        case .stroke(let c, let period, let drive, let scale):
            return scale * curveValue(c, phase: phase(x, period: period, drive: drive))
        case .rest(let speed, let slideAt, let bobPhase, let bobHz):
            // Drag: a = −k v², v = v₀ / (1 + k v₀ t); k such that 4 m/s gives −0.2 m/s².
            let k = 0.0125
            let v = speed / (1 + k * speed * x)
            var a = -k * v * v
            // Blend from the finish (the curve's value there) over the release.
            if x < 0.3, segmentIndex > 0, case .stroke(let c, let period, let drive, let scale) = segments[segmentIndex - 1].segment {
                let atFinish = scale * curveValue(c, phase: phase(drive, period: period, drive: drive))
                let w = x / 0.3
                a = (1 - w) * atFinish + w * a
            }
            // The boat bobs a little (waves, the crew settling).
            a += 0.08 * sin(2 * Double.pi * bobHz * x + bobPhase)
            // The slide to frontstops: the last part of a real recovery, at half its size.
            if t >= slideAt, segmentIndex + 1 < segments.count, case .stroke(let c, _, _, let scale) = segments[segmentIndex + 1].segment {
                let w = (t - slideAt) / (end - slideAt)
                let slide = (0.5 + 0.5 * w) * scale * curveValue(c, phase: 0.75 + 0.25 * w)
                let blend = min(1, (t - slideAt) / 0.2)
                a = (1 - blend) * a + blend * slide
            }
            return a
        }
    }

    /// The recorded stroke's phase (0…1) at `x` seconds into a stroke re-timed to `period` with
    /// its drive lasting `drive`.
    private func phase(_ x: Seconds, period: Seconds, drive: Seconds) -> Double {
        x < drive ? Self.driveFraction * x / drive
            : Self.driveFraction + (1 - Self.driveFraction) * min(1, (x - drive) / (period - drive))
    }

    private func curveValue(_ c: Int, phase: Double) -> Double {
        let curve = curves[c]
        let n = curve.count
        let position = max(0, min(1, phase)) * Double(n - 1)
        let i = min(n - 2, Int(position))
        let f = position - Double(i)
        return Double(curve[i]) * (1 - f) + Double(curve[i + 1]) * f
    }
}
