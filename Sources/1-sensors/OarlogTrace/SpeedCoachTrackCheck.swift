import OarlogCore

/// Rejects the glitches of a SpeedCoach's per-stroke positions by the speed they imply, against
/// the device's own GPS distance.
///
/// The straight line between two positions is never longer than the way the boat went, which
/// the device measured (its GPS distance, or at most a boat's top speed × the time when it gave
/// none). A position further from the last kept one than the device's distance between them
/// (+10 %, + 15 m of position error, + the rounding of positions written with few decimals) is a
/// departure. What follows decides:
/// - the positions come back (a later one agrees with the last kept position, and not with the
///   departure): the departed positions were a glitch; their fixes are dropped (the strokes'
///   other records stay) and counted;
/// - the departed positions agree among themselves (their path no longer than the device's
///   distance over them) for `confirmDistance` of the device's distance: the receiver's
///   position really moved (a jump that stays): all are kept, for the distance filter to judge.
/// Records are held while a departure is undecided: at most `maxHeldRecords`, after which (and
/// at the end of the file) the departure counts as a glitch.
struct SpeedCoachTrackCheck {
    struct Point {
        var time: Double, latitude: Double, longitude: Double
        /// The device's GPS distance at this stroke (spliced across intervals), metres.
        var deviceDistance: Double?
        /// Half the diagonal of the grid the position is written on, metres.
        var rounding: Double
    }

    static let relativeTolerance = 0.1
    static let positionTolerance: Metres = 15
    static let maximumBoatSpeed: MetresPerSecond = 7.5
    static let confirmDistance: Metres = 100
    static let maxHeldRecords = 4096

    private var lastKept: Point?
    private var run: [Point] = []
    private var runPath: Metres = 0
    /// Records of the rows since the departure, in order, with the line of each fix.
    private(set) var held: [(record: TraceRecord, line: Int)] = []

    var isHolding: Bool { !run.isEmpty }

    /// How far the boat can have gone from `a` to `b`, metres.
    static func allowed(from a: Point, to b: Point) -> Metres {
        let slack = positionTolerance + a.rounding + b.rounding
        if let da = a.deviceDistance, let db = b.deviceDistance {
            return max(0, db - da) * (1 + relativeTolerance) + slack
        }
        return maximumBoatSpeed * max(0, b.time - a.time) + slack
    }

    static func chord(_ a: Point, _ b: Point) -> Metres {
        Geodesy.distance(from: GeoPoint(latitude: a.latitude, longitude: a.longitude),
                         to: GeoPoint(latitude: b.latitude, longitude: b.longitude))
    }

    /// One row's records (its fix, if any, described by `point`). Returns the records that can
    /// go out now, in order, and the lines of fixes dropped as glitches.
    mutating func add(_ records: [TraceRecord], point: Point?, line: Int,
                      into out: inout [TraceRecord], dropped: inout [Int]) {
        guard let p = point else {
            if isHolding { hold(records, line: line, out: &out, dropped: &dropped) } else { out += records }
            return
        }
        guard let kept = lastKept else {
            lastKept = p
            out += records
            return
        }
        if run.isEmpty {
            if Self.chord(kept, p) <= Self.allowed(from: kept, to: p) {
                lastKept = p
                out += records
            } else {
                run = [p]
                runPath = 0
                hold(records, line: line, out: &out, dropped: &dropped)
            }
            return
        }
        let path = runPath + Self.chord(run[run.count - 1], p)
        if path <= Self.allowed(from: run[0], to: p) {
            run.append(p)
            runPath = path
            hold(records, line: line, out: &out, dropped: &dropped)
            if let d0 = run[0].deviceDistance, let d = p.deviceDistance, d - d0 >= Self.confirmDistance {
                confirm(into: &out)
            } else if p.time - run[0].time >= Self.confirmDistance / 2 {
                confirm(into: &out)
            }
            return
        }
        release(into: &out, dropped: &dropped)
        add(records, point: p, line: line, into: &out, dropped: &dropped)
    }

    /// At the end of the file: an undecided departure counts as a glitch.
    mutating func finish(into out: inout [TraceRecord], dropped: inout [Int]) {
        release(into: &out, dropped: &dropped)
    }

    private mutating func hold(_ records: [TraceRecord], line: Int, out: inout [TraceRecord], dropped: inout [Int]) {
        for r in records { held.append((r, line)) }
        if held.count > Self.maxHeldRecords { release(into: &out, dropped: &dropped) }
    }

    /// The departure was real: everything held goes out, the newest position is the track's.
    private mutating func confirm(into out: inout [TraceRecord]) {
        for h in held { out.append(h.record) }
        lastKept = run.last
        held.removeAll(keepingCapacity: true)
        run.removeAll(keepingCapacity: true)
    }

    /// The departure was a glitch: the held records go out without their fixes.
    private mutating func release(into out: inout [TraceRecord], dropped: inout [Int]) {
        for h in held {
            if case .fix = h.record { dropped.append(h.line) } else { out.append(h.record) }
        }
        held.removeAll(keepingCapacity: true)
        run.removeAll(keepingCapacity: true)
    }

    /// Half the diagonal of the grid of a position written as `latitude`/`longitude` text, metres.
    static func rounding(latitude: String, longitude: String, at degrees: Double) -> Metres {
        func step(_ s: String) -> Double {
            var decimals = 0
            if let dot = s.firstIndex(of: ".") { decimals = s.distance(from: dot, to: s.endIndex) - 1 }
            var v = 1.0
            for _ in 0..<min(decimals, 9) { v /= 10 }
            return v
        }
        let north = step(latitude) * 111_320 / 2
        let east = step(longitude) * 111_320 * cosine(degrees) / 2
        return (north * north + east * east).squareRoot()
    }

    private static func cosine(_ degrees: Double) -> Double {
        // cos by its series on the reduced angle (no Foundation); |error| < 1e-6 on ±90°.
        let x = min(abs(degrees), 90) * Double.pi / 180, x2 = x * x
        return 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56 * (1 - x2 / 90))))
    }
}
