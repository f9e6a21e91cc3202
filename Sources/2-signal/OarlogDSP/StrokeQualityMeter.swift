import OarlogCore

/// Stroke quality from the boat's surge acceleration (`StrokeQuality`): fed the surge samples
/// exactly as the stroke detector sees them, asked for a stroke once its next catch is known.
///
/// The kept surge is restored from the mounting estimator's gravity tracking (`SurgeRestorer`).
///
/// The samples are averaged in blocks down to at most `maximumRate` (100 Hz: the check and the
/// drive are far slower than 10 ms, and a 1 kHz sensor's noise falls by √10) and kept in a ring
/// of `capacity` (2,048: 20 s at 100 Hz, 82 s at 25 Hz) — room for the longest stroke
/// (`longestStroke`) plus the detector's delay and a block run of samples. Per stroke, from its
/// catch to the next catch:
/// - the check: the lowest surge from `checkLead` before the catch to `checkLag` after it (the
///   catch as the detector times it, within tens of ms of the true one), refined between samples
///   by the parabola through the lowest and its neighbours, as a depth ≥ 0;
/// - the drive's peak and time-averaged surge, catch to finish (`driveDuration`);
/// - the boat-speed swing: the surge integrated (trapezoids) from the catch to the next catch,
///   the linear drift removed so that the speed ends where it started (a sensor bias or a
///   tilt the mounting did not take out adds a constant to the surge, a straight line to its
///   integral), then measured from its time-average: how far the speed fell below and rose
///   above the stroke's mean. `RowingAnalyzer` anchors it to the stroke's GPS speed.
///
/// The strokes since the last rest are averaged over a normalised stroke into `pieceCurve`.
/// Nothing is allocated after init; memory is fixed.
public struct StrokeQualityMeter: Sendable {
    /// Highest rate kept, Hz.
    public static let maximumRate: Hertz = 100
    /// Samples kept (at the decimated rate).
    public static let capacity = 2048
    /// Longest stroke given a quality (10 spm); a longer one is a rest.
    public static let longestStroke: Seconds = 6
    /// The check is looked for from this long before the catch to `checkLag` after it.
    public static let checkLead: Seconds = 0.15
    public static let checkLag: Seconds = 0.15
    /// A time gap in the samples longer than this: no quality across it.
    public static let gapLength: Seconds = 0.25
    /// Moments per stroke of `pieceCurve`.
    public static let curvePoints = 100

    private var times: [Seconds]
    private var values: [Float]
    private static let mask = capacity - 1

    /// The input stage's state: block averaging to at most `maximumRate`, the restorer, the ring's
    /// position. Plain values, so the block path keeps them in registers through a run.
    private struct Input: Sendable {
        var restorer: SurgeRestorer
        var lastTime: Seconds = -.infinity
        /// Input samples since `windowStart` (the sample interval is measured over them).
        var windowStart: Seconds = .nan
        var windowSamples = 0
        /// The first 64 samples after a start or a gap: the decimation is looked at each time.
        var starting = true
        var decimation = 1
        var boxSum: Float = 0
        var boxTimeSum: Seconds = 0
        var boxCount = 0
        var head = 0          // index of the next write
        var count = 0

        /// Takes one sample; writes a kept one into the ring `t`, `v`.
        @inline(__always)
        mutating func take(_ time: Seconds, _ surge: Float, _ t: UnsafeMutablePointer<Seconds>, _ v: UnsafeMutablePointer<Float>) {
            let dt = time - lastTime
            guard dt > 0, surge.isFinite, time.isFinite else { return }   // out of order, repeated, not a number: dropped
            lastTime = time
            if dt > StrokeQualityMeter.gapLength {
                boxSum = 0
                boxTimeSum = 0
                boxCount = 0
                restorer.reset()
                windowStart = time
                windowSamples = 0
                starting = true
            } else {
                windowSamples += 1
            }
            let kept: Seconds, value: Double
            if decimation == 1 && boxCount == 0 {   // every sample kept (≤ 100 Hz)
                kept = time
                value = Double(surge)
            } else {
                boxSum += surge
                boxTimeSum += time
                boxCount += 1
                guard boxCount >= decimation else { return }
                let n = 1 / Double(boxCount)
                kept = boxTimeSum * n
                value = Double(boxSum) * n
            }
            t[head] = kept
            v[head] = Float(restorer.restore(time: kept, surge: value))
            head = (head + 1) & StrokeQualityMeter.mask
            if count < StrokeQualityMeter.capacity { count += 1 }
            boxSum = 0
            boxTimeSum = 0
            boxCount = 0
            // Blocks of at least 1 / maximumRate (5 % slack for a clock's jitter), from the mean
            // interval of the input samples since the last look, every 64 kept samples (each of
            // the first 64 after a start or a gap).
            if head & 63 == 0 || starting {
                if windowSamples > 0 {
                    let interval = (time - windowStart) / Double(windowSamples)
                    decimation = max(1, Int((1 / (StrokeQualityMeter.maximumRate * interval) - 0.05).rounded(.up)))
                }
                if windowSamples >= 64 {
                    windowStart = time
                    windowSamples = 0
                    starting = false
                }
            }
        }
    }
    private var input: Input
    private var head: Int { input.head }
    private var count: Int { input.count }

    /// The average curve of the strokes since the last rest (a stroke longer than
    /// `longestStroke`, or a gap in the samples), over a normalised stroke.
    public private(set) var pieceCurve = StrokeCurveAverage(points: curvePoints)
    private var lastCurveEnd: Seconds = -.infinity

    /// - Parameter gravityTimeConstant: the mounting estimator's (`SurgeRestorer`); 0 takes the surge as given.
    public init(gravityTimeConstant: Seconds = MountingEstimatorConfiguration().gravityTimeConstant) {
        input = Input(restorer: SurgeRestorer(gravityTimeConstant: gravityTimeConstant))
        times = [Seconds](repeating: 0, count: Self.capacity)
        values = [Float](repeating: 0, count: Self.capacity)
    }

    /// Takes one surge sample (m/s²) at `time`.
    @inline(__always)
    public mutating func process(time: Seconds, surge: Float) {
        var s = input
        times.withUnsafeMutableBufferPointer { t in
            values.withUnsafeMutableBufferPointer { v in
                s.take(time, surge, t.baseAddress.unsafelyUnwrapped, v.baseAddress.unsafelyUnwrapped)
            }
        }
        input = s
    }

    /// Takes `n` samples (`times[i]`, `values[i]`), oldest first.
    @inline(__always)
    public mutating func process(times ts: UnsafePointer<Seconds>, values vs: UnsafePointer<Float>, count n: Int) {
        var s = input
        times.withUnsafeMutableBufferPointer { t in
            values.withUnsafeMutableBufferPointer { v in
                let tp = t.baseAddress.unsafelyUnwrapped, vp = v.baseAddress.unsafelyUnwrapped
                for i in 0..<n { s.take(ts[i], vs[i], tp, vp) }
            }
        }
        input = s
    }

    // MARK: the ring

    /// The kept samples oldest first, read through pointers (valid inside `withRing`).
    private struct Ring {
        let times: UnsafePointer<Seconds>
        let values: UnsafePointer<Float>
        let origin: Int       // physical index of the oldest
        let count: Int

        @inline(__always) func time(_ i: Int) -> Seconds { times[(origin + i) & StrokeQualityMeter.mask] }
        @inline(__always) func value(_ i: Int) -> Double { Double(values[(origin + i) & StrokeQualityMeter.mask]) }

        /// Index of the first kept sample at or after `t` (`count` if none).
        func firstIndex(atOrAfter t: Seconds) -> Int {
            var lo = 0, hi = count
            while lo < hi {
                let mid = (lo + hi) / 2
                if time(mid) < t { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        /// Surge at `t`, linearly interpolated between samples `i − 1` and `i` (`time(i) ≥ t`).
        @inline(__always) func interpolated(at t: Seconds, index i: Int) -> Double {
            let b = time(i), vb = value(i)
            guard i > 0 else { return vb }
            let a = time(i - 1), va = value(i - 1)
            return b > a ? va + (vb - va) * (t - a) / (b - a) : vb
        }
    }

    // MARK: a stroke

    /// The quality of the stroke from `catchTime` to `nextCatch` with drive `driveDuration`
    /// (speed not anchored: `meanSpeed` is nil), and the stroke added to `pieceCurve`; `nil`
    /// when the samples kept do not cover it (its start has left the ring, a gap, a stroke
    /// longer than `longestStroke`, no drive).
    public mutating func quality(catchTime: Seconds, nextCatch: Seconds, driveDuration: Seconds) -> StrokeQuality? {
        let period = nextCatch - catchTime
        guard period > 0, period <= Self.longestStroke, driveDuration > 0, driveDuration < period, count >= 8 else {
            if period > Self.longestStroke || !(period > 0) { pieceCurve.reset() }
            return nil
        }
        let origin = (head - count) & Self.mask, n = count
        let result: (StrokeQuality, first: Int, last: Int, startValue: Double, endValue: Double)? =
            times.withUnsafeBufferPointer { t in
                values.withUnsafeBufferPointer { v in
                    let ring = Ring(times: t.baseAddress.unsafelyUnwrapped, values: v.baseAddress.unsafelyUnwrapped, origin: origin, count: n)
                    return Self.measure(ring, catchTime: catchTime, nextCatch: nextCatch, driveDuration: driveDuration)
                }
            }
        guard let (quality, first, last, startValue, endValue) = result else {
            pieceCurve.reset()
            return nil
        }
        // The piece's curve: the stroke's samples with its interpolated ends.
        if catchTime - lastCurveEnd > StrokeCurveAverage.coverageTolerance { pieceCurve.reset() }
        let interior = last - first + 1
        times.withUnsafeBufferPointer { t in
            values.withUnsafeBufferPointer { v in
                let ring = Ring(times: t.baseAddress.unsafelyUnwrapped, values: v.baseAddress.unsafelyUnwrapped, origin: origin, count: n)
                pieceCurve.add(start: catchTime, end: nextCatch, drive: driveDuration, count: interior + 2,
                               time: { j in j == 0 ? catchTime : j > interior ? nextCatch : ring.time(first + j - 1) },
                               value: { j in j == 0 ? startValue : j > interior ? endValue : ring.value(first + j - 1) })
            }
        }
        lastCurveEnd = nextCatch
        return quality
    }

    /// The stroke's figures from the ring, with its interior samples `first…last` and its
    /// interpolated surge at the catch and at the next catch; `nil` when the ring does not cover it.
    /// A gap in the samples (longer than `gapLength`) from `checkLead` before the catch to the
    /// next catch: no quality. (Looked for here, in the samples of the stroke, not as the latest
    /// gap seen: the block path has taken a whole run of later samples when it asks.)
    private static func measure(_ ring: Ring, catchTime: Seconds, nextCatch: Seconds, driveDuration: Seconds)
        -> (StrokeQuality, first: Int, last: Int, startValue: Double, endValue: Double)? {
        let period = nextCatch - catchTime
        let checkStart = catchTime - checkLead
        guard ring.time(0) <= checkStart,
              ring.time(ring.count - 1) >= nextCatch - StrokeCurveAverage.coverageTolerance else { return nil }
        var (lowest, widest) = check(ring, from: checkStart, to: catchTime + min(checkLag, 0.5 * driveDuration))
        // The stroke's samples: interior ones from `first` to `last`, the ends interpolated.
        let first = ring.firstIndex(atOrAfter: catchTime)
        guard first < ring.count, first > 0 else { return nil }
        var last = ring.firstIndex(atOrAfter: nextCatch)        // the first sample at or after the next catch
        let endValue = last < ring.count ? ring.interpolated(at: nextCatch, index: last) : ring.value(ring.count - 1)
        last -= 1                                               // the last interior sample
        guard last >= first else { return nil }
        let startValue = ring.interpolated(at: catchTime, index: first)
        let stroke = StrokeSamples(ring: ring, first: first, last: last, catchTime: catchTime, nextCatch: nextCatch,
                                   startValue: startValue, endValue: endValue)
        guard let drift = stroke.drift(widest: &widest) else { return nil }
        let speed = stroke.speed(drift: drift, finish: catchTime + driveDuration)
        let meanSpeed = speed.integral / period
        let quality = StrokeQuality(check: lowest.isFinite ? MetresPerSecondSquared(max(0, -lowest)) : 0,
                                    peakDriveAcceleration: MetresPerSecondSquared(speed.drivePeak),
                                    meanDriveAcceleration: MetresPerSecondSquared(speed.driveIntegral / driveDuration),
                                    speedBelowMean: max(0, meanSpeed - speed.lowest), speedAboveMean: max(0, speed.highest - meanSpeed))
        return (quality, first, last, startValue, endValue)
    }

    /// The check: the lowest surge from `checkStart` to `checkEnd`, and the widest interval
    /// between the samples there (the first's from the sample before it).
    private static func check(_ ring: Ring, from checkStart: Seconds, to checkEnd: Seconds) -> (lowest: Double, widest: Seconds) {
        var i = ring.firstIndex(atOrAfter: checkStart)
        var lowest = Double.infinity, lowestIndex = -1
        var widest = ring.time(i) - ring.time(i - 1)          // i ≥ 1: time(0) ≤ checkStart
        while i < ring.count && ring.time(i) <= checkEnd {
            let v = ring.value(i)
            if v < lowest { lowest = v; lowestIndex = i }
            widest = max(widest, ring.time(i) - ring.time(i - 1))
            i += 1
        }
        // The bottom between samples: the vertex of the parabola through the lowest sample and
        // its neighbours (at most half a sample away), when it is a dip of evenly spaced samples.
        if lowestIndex > 0 && lowestIndex + 1 < ring.count {
            let y0 = ring.value(lowestIndex - 1), y2 = ring.value(lowestIndex + 1)
            let h0 = ring.time(lowestIndex) - ring.time(lowestIndex - 1), h2 = ring.time(lowestIndex + 1) - ring.time(lowestIndex)
            let curvature = y0 - 2 * lowest + y2
            if curvature > 0, abs(h0 - h2) <= 0.1 * max(h0, h2) {
                lowest -= (y0 - y2) * (y0 - y2) / (8 * curvature)
            }
        }
        return (lowest, widest)
    }

    /// One stroke's samples: the ring's `first…last`, with the surge interpolated at the catch
    /// (`startValue`) and at the next catch (`endValue`).
    private struct StrokeSamples {
        let ring: Ring
        let first: Int, last: Int
        let catchTime: Seconds, nextCatch: Seconds
        let startValue: Double, endValue: Double

        /// Pass 1: the speed change over the stroke (trapezoids) spread over it, the drift;
        /// `nil` when the samples have a gap (`widest`, the widest interval so far, grows).
        func drift(widest: inout Seconds) -> Double? {
            var change = 0.0
            var tPrev = catchTime, aPrev = startValue
            for k in first...last {
                let t = ring.time(k), a = ring.value(k)
                let dt = t - tPrev
                change += (a + aPrev) * dt
                if dt > widest { widest = dt }
                tPrev = t
                aPrev = a
            }
            if last + 1 < ring.count { widest = max(widest, ring.time(last + 1) - tPrev) }
            guard widest <= StrokeQualityMeter.gapLength else { return nil }
            change = 0.5 * (change + (endValue + aPrev) * (nextCatch - tPrev))
            return change / (nextCatch - catchTime)
        }

        /// Pass 2: the drift-free speed (its lowest, highest and integral) and the drive's peak
        /// and integral (up to `finish`). The samples of the drive and the one past the finish
        /// take both; the recovery's, in a loop of their own, the speed alone (the same
        /// arithmetic in the same order, without the drive's test on every sample).
        func speed(drift: Double, finish: Seconds)
            -> (lowest: Double, highest: Double, integral: Double, drivePeak: Double, driveIntegral: Double) {
            var speed = 0.0, lowestSpeed = 0.0, highestSpeed = 0.0, speedIntegral = 0.0
            var driveIntegral = 0.0, drivePeak = startValue
            var tPrev = catchTime
            var aPrev = startValue - drift
            var driveDone = false
            /// The speed to `t`, where the surge is `surge`.
            @inline(__always) func glide(_ t: Seconds, _ surge: Double) {
                let a = surge - drift                  // the drift-free acceleration
                let dt = t - tPrev
                let dv = 0.5 * (a + aPrev) * dt
                speedIntegral += (speed + 0.5 * dv) * dt
                speed += dv
                // Selects, not branches: a branch here makes the compiler keep both outcomes in
                // registers and copy them round every sample.
                lowestSpeed = speed < lowestSpeed ? speed : lowestSpeed
                highestSpeed = speed > highestSpeed ? speed : highestSpeed
                tPrev = t
                aPrev = a
            }
            /// The drive to `t` (or to the finish, then done), then the speed.
            @inline(__always) func step(_ t: Seconds, _ surge: Double) {
                if !driveDone {
                    let dt = t - tPrev
                    if t <= finish {
                        driveIntegral += 0.5 * (surge + aPrev + drift) * dt
                        if surge > drivePeak { drivePeak = surge }
                    } else {
                        let before = aPrev + drift
                        let atFinish = before + (surge - before) * (finish - tPrev) / dt
                        driveIntegral += 0.5 * (atFinish + before) * (finish - tPrev)
                        driveDone = true
                    }
                }
                glide(t, surge)
            }
            var k = first
            while k <= last && !driveDone { step(ring.time(k), ring.value(k)); k &+= 1 }
            while k <= last { glide(ring.time(k), ring.value(k)); k &+= 1 }
            step(nextCatch, endValue)
            return (lowestSpeed, highestSpeed, speedIntegral, drivePeak, driveIntegral)
        }
    }
}
