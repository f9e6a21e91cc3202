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
        var sumLat = 0.0, sumLon = 0.0, n = 0.0
        for i in 0..<buffer.count {
            let e = buffer[i].fix
            guard abs(e.time - centre.fix.time) <= half else { continue }
            sumLat += e.latitude - centre.fix.latitude
            sumLon += Geodesy.normalizedLongitudeDifference(e.longitude - centre.fix.longitude)
            n += 1
        }
        var out = centre.fix
        if n > 0 {
            out.latitude += sumLat / n
            out.longitude = Geodesy.normalizedLongitudeDifference(out.longitude + sumLon / n)
        }
        nextCentre += 1
        return (out, centre.breakBefore, centre.receipt)
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
