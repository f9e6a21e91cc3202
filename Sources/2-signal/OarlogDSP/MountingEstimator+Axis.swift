import OarlogCore

/// The surge axis: the principal axis of the horizontal covariance of the dynamic acceleration,
/// followed as it turns; and settling (gravity known, an axis with motion along it, the bow's
/// sign decided).
extension MountingEstimator {
    var unitGravity: SIMD3<Double> {
        let n = (gravityEstimate * gravityEstimate).sum().squareRoot()
        return n > 0 ? gravityEstimate / n : SIMD3(0, 0, 1)
    }

    /// The covariance matrix (its diagonal and off-diagonal: xy, xz, yz), normalised by the
    /// weight (a division by 1, i.e. none, once a sample has been seen).
    var normalizedCovariance: (diagonal: SIMD3<Double>, offDiagonal: SIMD3<Double>) {
        let w = weight > 0 ? weight : 1
        let diagonal = motionCovariance.diagonal, offDiagonal = motionCovariance.offDiagonal
        return w == 1 ? (diagonal, offDiagonal) : (diagonal / w, offDiagonal / w)
    }

    @inline(__always)
    static func covariance(_ c: (diagonal: SIMD3<Double>, offDiagonal: SIMD3<Double>), times v: SIMD3<Double>) -> SIMD3<Double> {
        let dg = c.diagonal, od = c.offDiagonal
        return SIMD3(dg.x * v.x + od.x * v.y + od.y * v.z,
                     od.x * v.x + dg.y * v.y + od.z * v.z,
                     od.y * v.x + od.z * v.y + dg.z * v.z)
    }

    func covariance(times v: SIMD3<Double>) -> SIMD3<Double> { Self.covariance(normalizedCovariance, times: v) }

    func variance(along v: SIMD3<Double>) -> Double { (covariance(times: v) * v).sum() }

    /// Principal axis of the horizontal covariance by power iteration, continuous with `start`.
    func principalHorizontalAxis(start: SIMD3<Double>?, iterations: Int) -> SIMD3<Double> {
        let g = unitGravity
        let c = normalizedCovariance  // the same for every iteration: normalised once
        func covariance(times v: SIMD3<Double>) -> SIMD3<Double> { Self.covariance(c, times: v) }
        func variance(along v: SIMD3<Double>) -> Double { (covariance(times: v) * v).sum() }
        func horizontal(_ v: SIMD3<Double>) -> SIMD3<Double> { v - (v * g).sum() * g }
        func normalized(_ v: SIMD3<Double>) -> SIMD3<Double>? {
            let n = (v * v).sum().squareRoot()
            return n > 1e-12 ? v / n : nil
        }
        var v: SIMD3<Double>
        if let s = start, let h = normalized(horizontal(s)) {
            v = h
        } else {
            // The horizontal part of the sensor axis with the largest variance.
            var best = SIMD3<Double>(1, 0, 0), bestVariance = -1.0
            for e in [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)] {
                if let h = normalized(horizontal(e)), variance(along: h) > bestVariance { best = h; bestVariance = variance(along: h) }
            }
            v = best
        }
        let initial = v
        for _ in 0..<iterations {
            guard let next = normalized(horizontal(covariance(times: v))) else { break }
            v = next
        }
        return (v * initial).sum() < 0 ? -v : v
    }

    mutating func updateAxis() {
        switch configuration.axis {
        case .estimated:
            // With no motion (a rest, the boat drifting) the covariance is sensor noise and its
            // principal axis wanders at random; following it could carry the axis round to the
            // stern by the time the crew restarts. Keep the last axis until there is motion again.
            let candidate = principalHorizontalAxis(start: axis, iterations: 4)
            let minimum = Double(configuration.minimumMotion)
            moving = variance(along: candidate) >= minimum * minimum
            if axis == nil || moving { axis = candidate }
        case .fixed(let given):
            let g = unitGravity
            let h = given - (given * g).sum() * g
            let n = (h * h).sum().squareRoot()
            axis = n > 1e-9 ? h / n : given / (given * given).sum().squareRoot()
        }
    }

    mutating func trySettle(now: Seconds) {
        if case .fixed = configuration.axis {
            updateAxis()
            bow.sign = 1
        } else {
            let u = principalHorizontalAxis(start: axis, iterations: 30)
            axis = u
            let minimum = Double(configuration.minimumMotion)
            guard variance(along: u) >= minimum * minimum else { motionStart = nil; return }
            if motionStart == nil { motionStart = now }
            guard let start = motionStart, now - start >= configuration.motionBeforeSign else { return }
            // The history is searched once for both (a walk back from the newest sample).
            let first = history.firstIndex(atOrAfter: max(now - configuration.settlingWindow, start - 2))
            guard let decided = Self.bowSign(jerkSkew: asymmetry(along: u, from: first),
                                         riseOverFall: riseOverFall(along: u, from: first),
                                         confidence: configuration.signConfidence) else { return }
            bow.sign = decided
            replayFrom = min(now - configuration.settlingWindow, start - 2)
        }
        settled = true
        fusedFrame.freeze(gravity: gravityFilter, now: now)
        moving = true
        bow.since = now
        replayAvailable = true
        bow.moments = .zero
    }
}
