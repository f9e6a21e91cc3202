import OarlogCore

/// The block path: `surge(of:)` for a run of samples at a time, in passes over the run.
extension MountingEstimator {
    /// Whether `surges(of:from:to:times:values:)` takes samples: settled, with the samples held
    /// while settling already drained.
    var takesRuns: Bool { settled && !replayAvailable && axis != nil }

    /// Samples per call of `surges(of:from:to:times:values:)` at most.
    static let runLength = 128

    /// The block path: exactly `surge(of:)` for `samples[start..<end]` in order (at most
    /// `runLength` of them), for as long as every sample has a surge and takes the common way
    /// through it (settled, finite values, past the gravity settling time), writing sample
    /// `start + k`'s time and surge to `times[k]` and `values[k]`, and its fused speed's surge
    /// (`FusedSurgeFrame`) to `fusedValues[k]`. Stops before the first sample
    /// that does not (`surge(of:)` takes that one); returns the index after the last sample
    /// taken.
    ///
    /// The stages of `surge(of:)` (`MountingStep`), each in a pass over the run with its state in
    /// local variables: (1a) gravity, (1b) the covariance, the axis updates and each sample's
    /// projection on the axis, (2) the sign's evidence and the signed surge. Nothing in (1)
    /// depends on the sign, so the passes give what one sample at a time gives; each is a loop
    /// short enough for the processor to overlap the long dependency chains of successive
    /// samples.
    mutating func surges(of samples: UnsafeBufferPointer<AccelSample>, from start: Int, to end: Int,
                         times: UnsafeMutablePointer<Seconds>, values: UnsafeMutablePointer<Float>,
                         fusedValues: UnsafeMutablePointer<Float>) -> Int {
        // The covariance's weight is 1 from the first sample on (0 + 1 · (1 − 0), then 1 + α · 0):
        // its update and the choice of α are left out.
        guard takesRuns, let u = axis, count >= 2, weight == 1 else { return start }
        let limit = min(end, start + Self.runLength)
        // The scratch and the table are moved out for the call (no copy), so that `self` can be
        // updated (`updateAxis`) while they are written.
        var scratch = runScratch, table = intervalConstants.table
        runScratch = []; intervalConstants.table = []
        defer { runScratch = scratch; intervalConstants.table = table }
        return scratch.withUnsafeMutableBufferPointer { scratchBuffer in
            table.withUnsafeMutableBufferPointer { tableBuffer in
                let rows = MountingRunRows(scratchBuffer.baseAddress.unsafelyUnwrapped, length: Self.runLength)
                let constants = tableBuffer.baseAddress.unsafelyUnwrapped
                let (n, next) = followGravity(samples, from: start, to: limit, rows: rows, times: times, constants: constants)
                projectOnAxis(u, count: n, rows: rows, times: times)
                if estimatesAxis {
                    followSign(count: n, rows: rows, times: times, values: values)
                    // The fused surge takes the sign the detector's surge took at each sample.
                    let signs = rows.intervals
                    for k in 0..<n { fusedValues[k] = Float(signs[k] * rows.fusedProjected[k]) }
                } else {
                    let sign = bow.sign
                    for k in 0..<n {
                        values[k] = Float(sign * rows.projected[k])
                        fusedValues[k] = Float(sign * rows.fusedProjected[k])
                    }
                }
                return next
            }
        }
    }

    /// (1a) Gravity and the dynamic acceleration (`MountingGravity.follow`) from sample `start`
    /// on, with each sample's time and interval constants, and gravity as it is at each sample
    /// that updates the axis (found as (1b) finds them). `surge(of:)`'s plain average of gravity
    /// (early samples) is not done here: such a sample stops the pass, as does one that is not
    /// finite. The loop makes no call: it stops at a sample whose interval needs its constants
    /// computed (then takes it again). Returns how many samples it took, and the index after.
    @inline(__always)
    private mutating func followGravity(_ samples: UnsafeBufferPointer<AccelSample>, from start: Int, to limit: Int,
                                        rows: MountingRunRows, times: UnsafeMutablePointer<Seconds>,
                                        constants: UnsafeMutablePointer<Double>) -> (count: Int, next: Int) {
        var gravity = gravityFilter
        var last = lastTime
        let origin = firstTime, gravitySettling = configuration.gravitySettlingTime
        let axisInterval = configuration.axisUpdateInterval
        var axisUpdated = lastAxisUpdate
        var i = start, k = 0
        var stopped = false
        while i < limit && !stopped {
            var newInterval: Seconds? = nil
            while i < limit {
                let sample = samples[i]
                guard sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else { stopped = true; break }
                let t = sample.time
                let dt = max(0, t - last)
                guard !(t - origin < gravitySettling) else { stopped = true; break }
                let entry = constants + MountingIntervalConstants.slot(dt)
                guard entry[0] == dt else { newInterval = dt; break }
                let d = gravity.follow(SIMD2<Double>(SIMD2<Float>(sample.x, sample.y)), Double(sample.z), alpha: entry[1])
                rows.dynamicXY.storeBytes(of: d.xy, toByteOffset: k &* 16, as: SIMD2<Double>.self)
                rows.dynamicZ[k] = d.z
                rows.rawXY.storeBytes(of: SIMD2<Double>(SIMD2<Float>(sample.x, sample.y)), toByteOffset: k &* 16, as: SIMD2<Double>.self)
                rows.rawZ[k] = Double(sample.z)
                if t - axisUpdated >= axisInterval {
                    axisUpdated = t
                    rows.gravity0[k] = gravity.xy.x; rows.gravity1[k] = gravity.xy.y; rows.gravity2[k] = gravity.z
                }
                rows.intervals[k] = dt; rows.axisWeights[k] = entry[2]; rows.smoothing[k] = entry[3]; rows.momentWeights[k] = entry[4]
                times[k] = t
                last = t
                k &+= 1
                i &+= 1
            }
            if let dt = newInterval {
                MountingIntervalConstants.store(MountingIntervalConstants.compute(dt, configuration), for: dt, at: constants)
            }
        }
        gravityFilter = gravity
        lastTime = last
        count += k
        return (k, i)
    }

    /// (1b) The covariance (`MotionCovariance.take`), the axis updates (gravity as it was at
    /// that sample) and the projection on the axis; and whether the boat was moving at each
    /// sample (as `moving` is when `surge(of:)` takes it), 1 or 0, into the row of the axis
    /// weights as each weight is used.
    @inline(__always)
    private mutating func projectOnAxis(_ u: SIMD3<Double>, count n: Int, rows: MountingRunRows,
                                        times: UnsafeMutablePointer<Seconds>) {
        var covariance = motionCovariance
        var uXY = SIMD2(u.x, u.y), uZ = u.z
        var frame = fusedFrame
        var nextAxisUpdate = lastAxisUpdate
        let latestGravity = gravityEstimate, axisInterval = configuration.axisUpdateInterval
        let movingAt = rows.axisWeights
        var movingNow: Double = moving ? 1 : 0
        var k = 0
        while k < n {
            var axisDue = false
            while k < n {
                let dXY = rows.dynamic(k), dZ = rows.dynamicZ[k]
                covariance.take(dXY, dZ, alpha: rows.axisWeights[k])
                if times[k] - nextAxisUpdate >= axisInterval { axisDue = true; break }
                rows.projected[k] = MotionCovariance.project(dXY, dZ, on: uXY, uZ)
                rows.fusedProjected[k] = frame.project(rows.raw(k), rows.rawZ[k])
                movingAt[k] = movingNow
                k &+= 1
            }
            if axisDue {
                nextAxisUpdate = times[k]
                gravityEstimate = SIMD3(rows.gravity0[k], rows.gravity1[k], rows.gravity2[k])
                motionCovariance = covariance
                updateAxis()
                let axisNow = axis.unsafelyUnwrapped
                uXY = SIMD2(axisNow.x, axisNow.y); uZ = axisNow.z
                rows.projected[k] = MotionCovariance.project(rows.dynamic(k), rows.dynamicZ[k], on: uXY, uZ)
                let refrozen = followFusedAxis(now: times[k])
                frame = fusedFrame
                rows.fusedProjected[k] = refrozen ? .nan : frame.project(rows.raw(k), rows.rawZ[k])
                movingNow = moving ? 1 : 0
                movingAt[k] = movingNow
                k &+= 1
            }
        }
        gravityEstimate = latestGravity
        motionCovariance = covariance
        lastAxisUpdate = nextAxisUpdate
    }

    /// (2) The bow sign's evidence (`BowSignEvidence`) and the signed surge: (2a) the smoothing
    /// and each sample's jerk before the sign (into the row of the dynamic acceleration's z, no
    /// longer needed), then (2b) the moments, the flip and the sign. Nothing in (2a) depends on
    /// the sign: the jerk is taken with the sign in (2b).
    @inline(__always)
    private mutating func followSign(count n: Int, rows: MountingRunRows, times: UnsafeMutablePointer<Seconds>,
                                     values: UnsafeMutablePointer<Float>) {
        var evidence = bow
        let jerks = rows.dynamicZ
        for k in 0..<n {
            jerks[k] = evidence.smoothedJerk(rows.projected[k], dt: rows.intervals[k], alpha: rows.smoothing[k])
        }
        let flipBelow = -configuration.signFlipConfidence
        let movingAt = rows.axisWeights
        for k in 0..<n {
            if rows.intervals[k] > 0 && movingAt[k] != 0 {
                evidence.take(jerk: jerks[k], beta: rows.momentWeights[k], now: times[k], flipBelow: flipBelow)
            }
            values[k] = Float(evidence.sign * rows.projected[k])
            rows.intervals[k] = evidence.sign   // (2c) the sign for the fused surge
        }
        bow = evidence
    }
}

/// The block path's scratch: rows of `runLength` doubles, one value a sample each.
struct MountingRunRows {
    static let count = 15
    /// d = a − g: its x and y side by side (one SIMD2 per sample, two rows), its z apart (later
    /// the jerk before the sign).
    let dynamicXY: UnsafeMutableRawPointer, dynamicZ: UnsafeMutablePointer<Double>
    /// The interval, and its constants: min(1, dt / axisTimeConstant) (later whether the boat
    /// was moving), 1 − exp(−dt / 0.03), min(1, dt / 30).
    let intervals: UnsafeMutablePointer<Double>, axisWeights: UnsafeMutablePointer<Double>
    let smoothing: UnsafeMutablePointer<Double>, momentWeights: UnsafeMutablePointer<Double>
    /// s: the surge before the sign.
    let projected: UnsafeMutablePointer<Double>
    /// Gravity at the samples that update the axis.
    let gravity0: UnsafeMutablePointer<Double>, gravity1: UnsafeMutablePointer<Double>, gravity2: UnsafeMutablePointer<Double>
    /// The raw vector (x and y side by side, z apart) and the fused surge before its sign
    /// (`FusedSurgeFrame`).
    let rawXY: UnsafeMutableRawPointer, rawZ: UnsafeMutablePointer<Double>
    let fusedProjected: UnsafeMutablePointer<Double>

    @inline(__always)
    init(_ rows: UnsafeMutablePointer<Double>, length: Int) {
        dynamicXY = UnsafeMutableRawPointer(rows); dynamicZ = rows + 2 * length
        intervals = rows + 3 * length; axisWeights = rows + 4 * length
        smoothing = rows + 5 * length; momentWeights = rows + 6 * length
        projected = rows + 7 * length
        gravity0 = rows + 8 * length; gravity1 = rows + 9 * length; gravity2 = rows + 10 * length
        rawXY = UnsafeMutableRawPointer(rows + 11 * length); rawZ = rows + 13 * length
        fusedProjected = rows + 14 * length
    }

    /// Sample `k`'s d's x and y.
    @inline(__always)
    func dynamic(_ k: Int) -> SIMD2<Double> { dynamicXY.load(fromByteOffset: k &* 16, as: SIMD2<Double>.self) }
    /// Sample `k`'s raw x and y.
    @inline(__always)
    func raw(_ k: Int) -> SIMD2<Double> { rawXY.load(fromByteOffset: k &* 16, as: SIMD2<Double>.self) }
}
