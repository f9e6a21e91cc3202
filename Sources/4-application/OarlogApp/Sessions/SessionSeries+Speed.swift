import OarlogAPI
import OarlogCore
import OarlogDSP
import OarlogSession

/// The boat's fused speed a session stores (`SessionReader.forEachBoatSpeed`, minor version 6)
/// for the plots: each stroke's mean fused speed (the mean of the samples from its catch to its
/// next catch, when they cover the stroke), which the stroke series' `speed` and `split` use in
/// place of the stroke's GPS split, and the in-stroke speed (`boat_speed`) in the series'
/// buckets — each bucket's slowest, fastest and mean sample, so a 10-hour session's swing is
/// still drawn in `N` points. Read in one pass, nothing held per sample.
struct SessionSpeedSeries {
    /// A stroke's samples must reach this close to its catch and to its next catch.
    static let coverage: Seconds = 0.5

    /// Per stroke (in the order given), its mean fused speed; nil where the samples do not cover it.
    private(set) var strokeSpeeds: [MetresPerSecond?]
    private(set) var boatSpeed: SeriesBuckets
    let buckets: Int
    let width: Seconds

    init(strokes count: Int, buckets n: Int, width: Seconds) {
        strokeSpeeds = [MetresPerSecond?](repeating: nil, count: count)
        boatSpeed = SeriesBuckets(count: n)
        buckets = n
        self.width = width
    }

    /// The stored fused speed of `reader` for `strokes` and the buckets; nil for a session that
    /// stores none (recorded before the fused speed, or without it).
    static func read(_ reader: SessionReader, strokes: [StrokeMetrics], buckets n: Int, width: Seconds) throws -> SessionSpeedSeries? {
        var series = SessionSpeedSeries(strokes: strokes.count, buckets: n, width: width)
        var means = StrokeMeans(strokes)
        try reader.forEachBoatSpeed { sample in
            series.add(sample)
            means.add(sample)
        }
        guard series.boatSpeed.samples > 0 || means.heardAny else { return nil }
        series.strokeSpeeds = means.finish()
        return series
    }

    mutating func add(_ sample: BoatSpeedSample) {
        guard sample.time.isFinite, buckets > 0 else { return }
        let b = width > 0 ? min(buckets - 1, max(0, Int(sample.time / width))) : 0
        boatSpeed.add(sample.speed, bucket: b)
    }

    /// `boat_speed_mps`: `{"samples", "min", "max", "mean"}` (m/s, 3 decimals).
    func write(_ w: inout JSONWriter) {
        w.beginObject(key: SeriesRequest.Field.boatSpeed.key)
        w.field("samples", boatSpeed.samples)
        boatSpeed.write(&w, places: 3)
        w.endObject()
    }

    /// `boat_speed_mps` of a session that stores no fused speed: no samples, every bucket null.
    static func writeNone(_ w: inout JSONWriter, buckets n: Int) {
        SessionSpeedSeries(strokes: 0, buckets: n, width: 0).write(&w)
    }
}

/// Each stroke's mean fused speed over catch to next catch (`driveDuration + recoveryDuration`),
/// from samples that come in time order: the strokes are visited in catch order, one at a time.
private struct StrokeMeans {
    private struct Span {
        var stroke: Int
        var start: Seconds
        var end: Seconds
        var sum: Double = 0
        var count = 0
        var first: Seconds = .nan
        var last: Seconds = .nan
    }

    private var spans: [Span]
    private var current = 0
    private(set) var heardAny = false
    private let strokeCount: Int

    init(_ strokes: [StrokeMetrics]) {
        strokeCount = strokes.count
        spans = strokes.indices.compactMap { k in
            let e = strokes[k].stroke
            guard let recovery = e.recoveryDuration, e.catchTime.isFinite else { return nil }
            let end = e.catchTime + e.driveDuration + recovery
            return end > e.catchTime ? Span(stroke: k, start: e.catchTime, end: end) : nil
        }.sorted { $0.start < $1.start }
    }

    mutating func add(_ sample: BoatSpeedSample) {
        heardAny = true
        let t = sample.time
        guard t.isFinite, sample.speed.isFinite else { return }
        while current < spans.count, spans[current].end <= t { current += 1 }
        guard current < spans.count, spans[current].start <= t else { return }
        spans[current].sum += sample.speed
        spans[current].count += 1
        if spans[current].first.isNaN { spans[current].first = t }
        spans[current].last = t
    }

    func finish() -> [MetresPerSecond?] {
        var out = [MetresPerSecond?](repeating: nil, count: strokeCount)
        for s in spans where s.count > 0 && s.first - s.start <= SessionSpeedSeries.coverage
            && s.end - s.last <= SessionSpeedSeries.coverage {
            out[s.stroke] = s.sum / Double(s.count)
        }
        return out
    }
}
