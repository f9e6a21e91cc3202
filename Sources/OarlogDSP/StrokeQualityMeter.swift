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
    private var restorer: SurgeRestorer

    private var times: [Seconds]
    private var values: [Float]
    private var head = 0          // index of the next write
    private var count = 0
    private static let mask = capacity - 1

    // Block averaging to at most `maximumRate`.
    private var lastInputTime: Seconds = -.infinity
    private var intervalEstimate: Seconds = 0
    private var decimation = 1
    private var boxSum: Float = 0
    private var boxTimeSum: Seconds = 0
    private var boxCount = 0
    /// No stroke reaching back before this has a quality (a gap in the samples ended here).
    private var coveredSince: Seconds = -.infinity

    /// The average curve of the strokes since the last rest (a stroke longer than
    /// `longestStroke`, or a gap in the samples), over a normalised stroke.
    public private(set) var pieceCurve = StrokeCurveAverage(points: curvePoints)
    private var lastCurveEnd: Seconds = -.infinity

    /// - Parameter gravityTimeConstant: the mounting estimator's (`SurgeRestorer`); 0 takes the surge as given.
    public init(gravityTimeConstant: Seconds = MountingEstimatorConfiguration().gravityTimeConstant) {
        restorer = SurgeRestorer(gravityTimeConstant: gravityTimeConstant)
        times = [Seconds](repeating: 0, count: Self.capacity)
        values = [Float](repeating: 0, count: Self.capacity)
    }

    /// Takes one surge sample (m/s²) at `time`.
    @inline(__always)
    public mutating func process(time: Seconds, surge: Float) {
        guard time.isFinite, surge.isFinite else { return }
        let dt = time - lastInputTime
        guard dt > 0 else { return }           // out of order or repeated: dropped
        lastInputTime = time
        if dt > Self.gapLength {
            boxSum = 0
            boxTimeSum = 0
            boxCount = 0
            coveredSince = time
            restorer.reset()
        } else {
            intervalEstimate = intervalEstimate == 0 ? dt : intervalEstimate + 0.05 * (dt - intervalEstimate)
        }
        boxSum += surge
        boxTimeSum += time
        boxCount += 1
        if boxCount >= decimation {
            let n = Double(boxCount)
            let t = boxTimeSum / n
            times[head] = t
            values[head] = Float(restorer.restore(time: t, surge: Double(boxSum) / n))
            head = (head + 1) & Self.mask
            if count < Self.capacity { count += 1 }
            boxSum = 0
            boxTimeSum = 0
            boxCount = 0
            if intervalEstimate > 0 {
                // Blocks of at least 1 / maximumRate (5 % slack for a clock's jitter).
                decimation = max(1, Int((1 / (Self.maximumRate * intervalEstimate) - 0.05).rounded(.up)))
            }
        }
    }

    /// Takes `n` samples (`times[i]`, `values[i]`), oldest first.
    @inline(__always)
    public mutating func process(times t: UnsafePointer<Seconds>, values v: UnsafePointer<Float>, count n: Int) {
        for i in 0..<n { process(time: t[i], surge: v[i]) }
    }

    // MARK: the ring

    @inline(__always) private func time(_ i: Int) -> Seconds { times[(head - count + i) & Self.mask] }
    @inline(__always) private func value(_ i: Int) -> Float { values[(head - count + i) & Self.mask] }

    /// Index of the first kept sample at or after `t` (`count` if none).
    private func firstIndex(atOrAfter t: Seconds) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if time(mid) < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Surge at `t`, linearly interpolated between samples `i − 1` and `i` (`time(i) ≥ t`).
    @inline(__always) private func interpolated(at t: Seconds, index i: Int) -> Double {
        let b = time(i), vb = Double(value(i))
        guard i > 0 else { return vb }
        let a = time(i - 1), va = Double(value(i - 1))
        return b > a ? va + (vb - va) * (t - a) / (b - a) : vb
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
        let checkStart = catchTime - Self.checkLead
        let tolerance = StrokeCurveAverage.coverageTolerance
        guard checkStart >= coveredSince, time(0) <= checkStart, time(count - 1) >= nextCatch - tolerance else {
            pieceCurve.reset()
            return nil
        }
        // The check.
        var i = firstIndex(atOrAfter: checkStart)
        let checkEnd = catchTime + min(Self.checkLag, 0.5 * driveDuration)
        var lowest = Double.infinity, lowestIndex = -1
        while i < count && time(i) <= checkEnd {
            let v = Double(value(i))
            if v < lowest { lowest = v; lowestIndex = i }
            i += 1
        }
        // The bottom between samples: the vertex of the parabola through the lowest sample and
        // its neighbours (at most half a sample away), when it is a dip of evenly spaced samples.
        if lowestIndex > 0 && lowestIndex + 1 < count {
            let y0 = Double(value(lowestIndex - 1)), y2 = Double(value(lowestIndex + 1))
            let h0 = time(lowestIndex) - time(lowestIndex - 1), h2 = time(lowestIndex + 1) - time(lowestIndex)
            let curvature = y0 - 2 * lowest + y2
            if curvature > 0, abs(h0 - h2) <= 0.1 * max(h0, h2) {
                lowest -= (y0 - y2) * (y0 - y2) / (8 * curvature)
            }
        }
        // The stroke's samples: interior ones from `first` to `last`, the ends interpolated.
        let first = firstIndex(atOrAfter: catchTime)
        guard first < count, first > 0 else { return nil }
        var last = firstIndex(atOrAfter: nextCatch)        // the first sample at or after the next catch
        let endValue = last < count ? interpolated(at: nextCatch, index: last) : Double(value(count - 1))
        last -= 1                                           // the last interior sample
        guard last >= first else { return nil }
        let startValue = interpolated(at: catchTime, index: first)
        let finish = catchTime + driveDuration

        // Pass 1: the speed change over the stroke (for the drift), the integral of speed (for
        // its mean), the drive's peak and mean surge.
        var speed = 0.0, speedIntegral = 0.0
        var driveIntegral = 0.0, drivePeak = -Double.infinity
        var tPrev = catchTime, aPrev = startValue
        func step(_ t: Seconds, _ a: Double) {
            let dt = t - tPrev
            let dv = 0.5 * (a + aPrev) * dt
            speedIntegral += (speed + 0.5 * dv) * dt
            speed += dv
            if tPrev < finish {
                if t <= finish {
                    driveIntegral += 0.5 * (a + aPrev) * dt
                } else {
                    let aFinish = aPrev + (a - aPrev) * (finish - tPrev) / dt
                    driveIntegral += 0.5 * (aFinish + aPrev) * (finish - tPrev)
                }
            }
            tPrev = t
            aPrev = a
        }
        drivePeak = startValue
        if first <= last {
            for k in first...last {
                let t = time(k), a = Double(value(k))
                step(t, a)
                if t <= finish { drivePeak = max(drivePeak, a) }
            }
        }
        step(nextCatch, endValue)
        let driftPerSecond = speed / period
        let meanSpeed = speedIntegral / period - 0.5 * speed    // mean of (speed − drift line)

        // Pass 2: the lowest and highest drift-free speed, from its mean.
        var below = 0.0, above = 0.0
        speed = 0
        tPrev = catchTime
        aPrev = startValue
        func swing(_ t: Seconds, _ a: Double) {
            speed += 0.5 * (a + aPrev) * (t - tPrev)
            tPrev = t
            aPrev = a
            let d = speed - driftPerSecond * (t - catchTime) - meanSpeed
            below = max(below, -d)
            above = max(above, d)
        }
        below = max(below, meanSpeed)    // the start: speed 0, drift 0
        above = max(above, -meanSpeed)
        if first <= last { for k in first...last { swing(time(k), Double(value(k))) } }
        swing(nextCatch, endValue)

        // The piece's curve: the stroke's samples with its interpolated ends.
        if catchTime - lastCurveEnd > tolerance { pieceCurve.reset() }
        let interior = last - first + 1
        // The ring's arrays by reference (not `self`, whose curve is being changed: a copy).
        let ts = times, vs = values, origin = head - count + first - 1
        pieceCurve.add(start: catchTime, end: nextCatch, drive: driveDuration, count: interior + 2,
                       time: { j in j == 0 ? catchTime : j > interior ? nextCatch : ts[(origin + j) & Self.mask] },
                       value: { j in j == 0 ? startValue : j > interior ? endValue : Double(vs[(origin + j) & Self.mask]) })
        lastCurveEnd = nextCatch

        let driveMean = driveIntegral / driveDuration
        return StrokeQuality(check: lowest.isFinite ? MetresPerSecondSquared(max(0, -lowest)) : 0,
                             peakDriveAcceleration: MetresPerSecondSquared(drivePeak),
                             meanDriveAcceleration: MetresPerSecondSquared(driveMean),
                             speedBelowMean: below, speedAboveMean: above)
    }
}
