#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// A centred moving average of positions over a time window, for sources that write coarse
/// positions (see `GPSPositionResolution`). Each fix comes out, averaged with its neighbours
/// within ±window/2, once a fix at least window/2 later has arrived (a fixed lag), or when drained.
/// Windows never span a track break. With a window of 0 fixes pass straight through.
///
/// Averaging is done on latitude/longitude offsets from the centre fix (longitude wrapped), which
/// is exact enough over a few tens of metres anywhere but at the poles.
struct GPSCoarsePositionSmoother: Sendable {
    private struct Entry: Sendable {
        var fix: GPSFix
        var breakBefore: Bool
        /// When the fix arrived (session time); `fix.time` is on the receiver's clock.
        var receipt: Seconds
    }
    private var buffer: RingBuffer<Entry>
    /// Index in `buffer` of the next fix to emit.
    private var nextCentre = 0
    /// Whether the fix last emitted was averaged with the receiver's speed (`speedAidedMean`):
    /// unbiased even at a track's first fix, which then need not be taken raw.
    private(set) var lastWasSpeedAided = false

    init(capacity: Int = 512) {
        buffer = RingBuffer(capacity: capacity,
                            filler: Entry(fix: GPSFix(time: 0, latitude: 0, longitude: 0), breakBefore: false, receipt: 0))
    }

    /// Adds a fix. After a track break, drain the smoother (`popAny`) before pushing.
    mutating func push(_ fix: GPSFix, breakBefore: Bool, receipt: Seconds) {
        if buffer.isFull {
            // Only at > 30 Hz with a 15 s window: lose the oldest fix rather than grow.
            buffer.removeFirst()
            nextCentre = max(0, nextCentre - 1)
        }
        buffer.append(Entry(fix: fix, breakBefore: breakBefore, receipt: receipt))
    }

    /// The next averaged fix whose window is complete, if any.
    mutating func popReady(window: Seconds) -> (GPSFix, Bool, Seconds)? {
        guard nextCentre < buffer.count, let newest = buffer.last?.fix.time,
              buffer[nextCentre].fix.time + max(0, window) / 2 <= newest else { return nil }
        let out = centre(window: window)
        dropOld(window: window)
        return out
    }

    /// The next pending fix averaged over what neighbours there are (draining at a break or the
    /// end); `nil` once empty, and then the buffer is forgotten.
    mutating func popAny(window: Seconds) -> (GPSFix, Bool, Seconds)? {
        guard nextCentre < buffer.count else {
            buffer.removeAll()
            nextCentre = 0
            return nil
        }
        return centre(window: window)
    }

    private mutating func centre(window: Seconds) -> (GPSFix, Bool, Seconds) {
        let centre = buffer[nextCentre]
        let half = window / 2
        var first = nextCentre, last = nextCentre
        while first > 0 && centre.fix.time - buffer[first - 1].fix.time <= half { first -= 1 }
        while last + 1 < buffer.count && buffer[last + 1].fix.time - centre.fix.time <= half { last += 1 }
        var out = centre.fix
        let aided = speedAidedMean(first: first, last: last)
        lastWasSpeedAided = aided != nil
        let mean = aided ?? plainMean(first: first, last: last)
        out.latitude += mean.latitude
        out.longitude = Geodesy.normalizedLongitudeDifference(out.longitude + mean.longitude)
        nextCentre += 1
        return (out, centre.breakBefore, centre.receipt)
    }

    /// The mean offset (degrees) of the window's fixes from the centre fix.
    private func plainMean(first: Int, last: Int) -> (latitude: Degrees, longitude: Degrees) {
        let centre = buffer[nextCentre].fix
        var sumLat = 0.0, sumLon = 0.0
        for i in first...last {
            sumLat += buffer[i].fix.latitude - centre.latitude
            sumLon += Geodesy.normalizedLongitudeDifference(buffer[i].fix.longitude - centre.longitude)
        }
        let n = Double(last - first + 1)
        return (sumLat / n, sumLon / n)
    }

    /// The mean offset of the window's fixes, each first carried to the centre fix's time along
    /// the window's direction by the receiver's speed integrated between them: unbiased where the
    /// window is one-sided (a track's first and last fixes, whose plain mean lies ahead of or
    /// behind the boat by a few seconds' travel) and where the speed changes within it. Nil
    /// without a speed at every fix of the window (`DistanceAccumulator` drops implausible ones),
    /// without a direction (a boat at rest), or near a pole.
    private func speedAidedMean(first: Int, last: Int) -> (latitude: Degrees, longitude: Degrees)? {
        let c = nextCentre, centre = buffer[c].fix
        // Near a pole a degree of longitude is no length to divide by: the plain mean there.
        guard last > first, abs(centre.latitude) < 89 else { return nil }
        let northPerDegree = WGS84.meanRadius * .pi / 180
        let eastPerDegree = northPerDegree * cos(centre.latitude * .pi / 180)
        // One pass: the sums of the least-squares velocity (time and metres from the centre fix),
        // and each fix's along-track distance from the window's first (the receiver's speed
        // integrated, trapezoids).
        var st = 0.0, se = 0.0, sn = 0.0, stt = 0.0, ste = 0.0, stn = 0.0
        var fromFirst: Metres = 0, sumFromFirst: Metres = 0, atCentre: Metres = 0
        var previous: (time: Seconds, speed: MetresPerSecond)?
        for i in first...last {
            let f = buffer[i].fix
            guard let v = f.speed, v.isFinite else { return nil }
            if let p = previous { fromFirst += (p.speed + v) / 2 * (f.time - p.time) }
            previous = (f.time, v)
            if i == c { atCentre = fromFirst }
            sumFromFirst += fromFirst
            let t = f.time - centre.time
            let e = Geodesy.normalizedLongitudeDifference(f.longitude - centre.longitude) * eastPerDegree
            let n = (f.latitude - centre.latitude) * northPerDegree
            (st, se, sn) = (st + t, se + e, sn + n)
            (stt, ste, stn) = (stt + t * t, ste + t * e, stn + t * n)
        }
        let count = Double(last - first + 1)
        let (tMean, eMean, nMean) = (st / count, se / count, sn / count)
        let spread = stt - count * tMean * tMean
        guard spread > 0 else { return nil }
        let (ve, vn) = ((ste - count * tMean * eMean) / spread, (stn - count * tMean * nMean) / spread)
        let speed = (ve * ve + vn * vn).squareRoot()
        guard speed > 0.5 else { return nil }
        // Each fix carried to the centre's time by (atCentre − fromFirst) along the window's
        // direction: the mean moves by the mean of those.
        let carried = atCentre - sumFromFirst / count
        return ((nMean + vn / speed * carried) / northPerDegree, (eMean + ve / speed * carried) / eastPerDegree)
    }

    private mutating func dropOld(window: Seconds) {
        guard nextCentre < buffer.count else {
            // Keep the last half window for the next centre's left side.
            let newest = buffer.last?.fix.time ?? 0
            var k = 0
            while k < buffer.count - 1 && buffer[k].fix.time < newest - window / 2 { k += 1 }
            buffer.removeFirst(k)
            nextCentre -= k
            return
        }
        let limit = buffer[nextCentre].fix.time - window / 2
        var k = 0
        while k < nextCentre && buffer[k].fix.time < limit { k += 1 }
        buffer.removeFirst(k)
        nextCentre -= k
    }
}
