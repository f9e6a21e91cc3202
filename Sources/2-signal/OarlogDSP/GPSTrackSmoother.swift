import OarlogCore

extension DistanceConfiguration {
    /// What replay and export smooth with: 20 s of later fixes.
    public static let replaySmoothing = Smoothing.fixedLag(20)
    /// Whether and how the track is smoothed before its length is taken (`GPSTrackSmoother`).
    public enum Smoothing: Sendable, Equatable {
        /// Forward only: each fix booked as it comes (live).
        case none
        /// Seconds of later fixes each position is smoothed with (replay, export).
        case fixedLag(Seconds)
        public var lag: Seconds { if case .fixedLag(let s) = self { return max(0, s) } else { return 0 } }
    }
}

/// The backward pass over `GPSTrackFilter` (Rauch–Tung–Striebel), at a fixed lag: each fix's
/// state is re-estimated from the fixes up to `lag` seconds after it, not only those before.
/// The forward filter has to guess where a jittery fix leaves the boat; knowing where the boat
/// went next, the smoothed track keeps only the motion, so its length does not read long and
/// its line on the map is the boat's.
///
/// The forward states wait in a ring. Once the ring spans `lag`, one backward pass runs from its
/// newest state to its oldest, and the states older than half the lag leave it smoothed (each
/// saw at least `lag / 2` of the fixes after it): about two backward steps per fix, whatever the
/// rate. Memory is the ring's fixed capacity (a full ring releases its older half early), so
/// a session of any length holds the same. With no lag each state leaves at once as filtered
/// (live). `Tag` rides along with each state (what the caller needs to book it).
struct GPSTrackSmoother<Tag: Sendable>: Sendable {
    /// A state of the track as it leaves the smoother: position east/north in the filter's
    /// plane (metres), velocity (m/s), and the caller's tag.
    struct State: Sendable {
        var time: Seconds
        var east: Metres, north: Metres
        var velocityEast: MetresPerSecond, velocityNorth: MetresPerSecond
        var startsTrack: Bool
        var tag: Tag
        var speed: MetresPerSecond { (velocityEast * velocityEast + velocityNorth * velocityNorth).squareRoot() }
    }

    private struct Entry: Sendable {
        var step: GPSTrackFilter.Step
        var smoothed: Vector6
        var tag: Tag
    }

    /// Seconds of fixes each state waits for (0: none, the forward filter's state as it is).
    let lag: Seconds
    private var ring: RingBuffer<Entry>
    /// How many of the ring's oldest entries are smoothed and ready to leave.
    private var ready = 0

    init(lag: Seconds, capacity: Int = 512, filler: Tag) {
        self.lag = max(0, lag)
        ring = RingBuffer(capacity: max(2, capacity), filler: Entry(step: .init(), smoothed: Vector6(), tag: filler))
    }

    /// States held (bounded by the ring's capacity).
    var heldStates: Int { ring.count }
    var capacity: Int { ring.capacity }

    /// Takes the filter's last step. A step that starts a track ends the one before: whatever
    /// is held is smoothed to its end first.
    mutating func push(_ step: GPSTrackFilter.Step, tag: Tag) {
        if step.startsTrack { flush() }
        ring.append(Entry(step: step, smoothed: step.filtered, tag: tag))
        guard let oldest = ring.first else { return }
        if lag <= 0 {
            ready = ring.count
        } else if step.time - oldest.step.time >= lag || ring.isFull {
            backwardPass()
            let keepAfter = step.time - lag / 2
            var n = ready
            while n < ring.count - 1, ring[n].step.time <= keepAfter || (ring.isFull && n < ring.count / 2) { n += 1 }
            ready = max(ready, n)
        }
    }

    /// Smooths whatever is held to its end (the end of the track or of the session): all of it
    /// becomes ready.
    mutating func flush() {
        guard ring.count > ready else { return }
        if lag > 0 { backwardPass() }
        ready = ring.count
    }

    /// The oldest smoothed state, removed; `nil` while none is ready.
    mutating func pop() -> State? {
        guard ready > 0, let e = ring.first else { return nil }
        ring.removeFirst()
        ready -= 1
        return State(time: e.step.time, east: e.smoothed[0], north: e.smoothed[1],
                     velocityEast: e.smoothed[2], velocityNorth: e.smoothed[3],
                     startsTrack: e.step.startsTrack, tag: e.tag)
    }

    /// The filter's plane moved by `shift`: the held states move with it.
    mutating func shift(by shift: (east: Metres, north: Metres)) {
        for i in 0..<ring.count {
            ring[i].step.filtered[0] -= shift.east
            ring[i].step.filtered[1] -= shift.north
            ring[i].step.predicted[0] -= shift.east
            ring[i].step.predicted[1] -= shift.north
            ring[i].smoothed[0] -= shift.east
            ring[i].smoothed[1] -= shift.north
        }
    }

    /// RTS from the newest held state back over those not yet ready:
    /// x̂ₖ = xₖ + Pₖ Fᵀ P⁻¹ₖ₊₁|ₖ (x̂ₖ₊₁ − xₖ₊₁|ₖ). The newest keeps its filtered state.
    private mutating func backwardPass() {
        guard ring.count >= 2 else { return }
        ring[ring.count - 1].smoothed = ring[ring.count - 1].step.filtered
        var k = ring.count - 2
        while k >= ready {
            // The steps are read where they lie (a step holds two 6×6 matrices: a copy of it
            // per step was a fifth of the pass).
            if ring[k + 1].step.startsTrack {
                ring[k].smoothed = ring[k].step.filtered
            } else {
                let (y, dt, wanderDecay) = Self.gain(of: ring[k + 1])
                // Fᵀ y: F has the identity, dt in (0,2) and (1,3), the wander's decay in (4,4), (5,5).
                var fy = y
                fy[2] += dt * y[0]
                fy[3] += dt * y[1]
                fy[4] = wanderDecay * y[4]
                fy[5] = wanderDecay * y[5]
                ring[k].smoothed = Self.corrected(ring[k].step, by: fy)
            }
            k -= 1
        }
    }

    /// P⁻¹ₖ₊₁|ₖ (x̂ₖ₊₁ − xₖ₊₁|ₖ) for the later entry, with its transition's dt and wander decay.
    private static func gain(of later: borrowing Entry) -> (y: Vector6, dt: Seconds, wanderDecay: Double) {
        var d = Vector6()
        for i in 0..<6 { d[i] = later.smoothed[i] - later.step.predicted[i] }
        return (solve(later.step.predictedCovariance, d), later.step.dt, later.step.wanderDecay)
    }

    /// xₖ + Pₖ (Fᵀ y), for the entry's filtered state and covariance.
    private static func corrected(_ step: borrowing GPSTrackFilter.Step, by fy: Vector6) -> Vector6 {
        // The product reads the matrix through its span (`Matrix6 *`): element by element through
        // the subscript, each read copied the whole matrix.
        let p = step.filteredCovariance * fy
        var x = step.filtered
        for r in 0..<6 { x[r] += p[r] }
        return x
    }

    /// Solves A y = b for a symmetric positive semi-definite 6×6 A (Cholesky); a direction A
    /// does not span (a state held exactly, such as the wander of positions without it) gets 0.
    static func solve(_ a: Matrix6, _ b: Vector6) -> Vector6 {
        // A read through its span and L held as plain elements: through `Matrix6`'s subscript
        // each element read copied the whole matrix.
        let sa = a.m.span
        var l = InlineArray<36, Double>(repeating: 0)
        var usable = Vector6()  // 1 where the direction is spanned
        var scale = 0.0
        for i in 0..<6 { scale = max(scale, sa[i * 6 + i]) }
        let tiny = max(scale, 1e-300) * 1e-12
        for j in 0..<6 {
            var diagonal = sa[j * 6 + j]
            for k in 0..<j { diagonal -= l[j * 6 + k] * l[j * 6 + k] }
            guard diagonal > tiny, diagonal.isFinite else { continue }
            usable[j] = 1
            let root = diagonal.squareRoot()
            l[j * 6 + j] = root
            for i in (j + 1)..<6 {
                var sum = sa[i * 6 + j]
                for k in 0..<j { sum -= l[i * 6 + k] * l[j * 6 + k] }
                l[i * 6 + j] = sum / root
            }
        }
        // Forward (L z = b), then backward (Lᵀ y = z), over the spanned directions only.
        var z = Vector6()
        for i in 0..<6 where usable[i] > 0 {
            var sum = b[i]
            for k in 0..<i { sum -= l[i * 6 + k] * z[k] }
            z[i] = sum / l[i * 6 + i]
        }
        var y = Vector6()
        for i in stride(from: 5, through: 0, by: -1) where usable[i] > 0 {
            var sum = z[i]
            for k in (i + 1)..<6 { sum -= l[k * 6 + i] * y[k] }
            y[i] = sum / l[i * 6 + i]
        }
        return y
    }
}
