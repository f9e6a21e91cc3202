import OarlogCore

/// A crew that rows a plan to the letter, as GPS fixes and a device's strokes (`.reference`,
/// caught the moment they come): no detector between the truth and the tracker, so the
/// tracker's boundaries, counts and distances are checked on their own. Each rowed step goes at
/// `speed` with catches every 60/rate s from its start; at its end the boat glides to a stop over
/// `glide` seconds and sits still through the rest; the next step's first catch is at the rest's
/// end. Before the first catch the boat sits still for `lead` seconds.
struct RowedPlan {
    struct Step {
        var kind: WorkoutStep.Kind
        var start: Seconds
        var end: Seconds
        var catches: [Seconds]
        var distance: Metres
    }

    var records: [TraceRecord] = []
    var steps: [Step] = []
    /// True distance at time t.
    private(set) var track: [(time: Seconds, distance: Metres)] = []

    init(_ plan: WorkoutPlan, speed: MetresPerSecond = 4, rate: StrokesPerMinute = 24, gpsRate: Hertz = 1,
         lead: Seconds = 10.3, glide: Seconds = 4, tail: Seconds = 20, stopAt: Seconds? = nil) {
        var t = lead
        track.append((0, 0))
        var distance: Metres = 0
        for step in plan.steps {
            let start = t
            let end: Seconds
            var catches: [Seconds] = []
            if step.kind == .rest {
                end = start + (step.length.seconds ?? 0)
                steps.append(Step(kind: .rest, start: start, end: end, catches: [], distance: 0))
            } else {
                switch step.length {
                case .time(let s): end = start + s
                case .distance(let m): end = start + m / speed
                }
                let r = step.target.strokeRate.map { ($0.lowerBound + $0.upperBound) / 2 } ?? rate
                var c = start
                while c < end - 1e-9 {
                    catches.append(c)
                    c += 60 / r
                }
                track.append((start, distance))
                distance += speed * (end - start)
                track.append((end, distance))
                // The glide: speed falls linearly to 0.
                distance += speed * glide / 2
                track.append((end + glide, distance))
                steps.append(Step(kind: step.kind, start: start, end: end, catches: catches, distance: speed * (end - start)))
            }
            t = end
        }
        let last = t + glide + tail
        track.append((last, distance))
        let cut = stopAt ?? last
        var fixes: [TraceRecord] = []
        let base = GeoPoint(latitude: 51.5, longitude: -0.2)
        var k = 0
        while Double(k) / gpsRate <= cut {
            let time = Double(k) / gpsRate
            let (d, v) = state(at: time, speed: speed, glide: glide)
            let p = Geodesy.destination(from: base, distance: d, bearing: 80)
            fixes.append(.fix(GPSFix(time: time, utc: 1_780_000_000 + time, latitude: p.latitude, longitude: p.longitude,
                                     speed: v, course: 80, horizontalAccuracy: 3, mode: .threeD, satellitesUsed: 10)))
            k += 1
        }
        let strokes: [TraceRecord] = steps.flatMap(\.catches).filter { $0 <= cut }.map { .reference(ReferenceStroke(time: $0)) }
        records = (fixes + strokes).sorted { ($0.time ?? 0) < ($1.time ?? 0) }
    }

    /// True distance and speed at `time` (linear between the track's corners).
    func state(at time: Seconds, speed: MetresPerSecond, glide: Seconds) -> (Metres, MetresPerSecond) {
        guard let i = track.lastIndex(where: { $0.time <= time }) else { return (0, 0) }
        guard i + 1 < track.count else { return (track[i].distance, 0) }
        let a = track[i], b = track[i + 1]
        let span = b.time - a.time
        guard span > 0 else { return (a.distance, 0) }
        let u = (time - a.time) / span
        let meanSpeed = (b.distance - a.distance) / span
        if abs(meanSpeed - speed) < 1e-9 { return (a.distance + u * (b.distance - a.distance), speed) }
        if meanSpeed > 0 {
            // A glide: speed falls from `speed` to 0 over the span.
            let elapsed = time - a.time
            return (a.distance + speed * elapsed - speed * elapsed * elapsed / (2 * span), speed * (1 - u))
        }
        return (a.distance, 0)
    }
}
