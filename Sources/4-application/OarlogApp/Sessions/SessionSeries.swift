import OarlogAPI
import OarlogCore

/// A session's per-stroke series for the web app's plots (`/api/sessions/{id}/series`),
/// downsampled on the server so that a 10-hour session's plots stay small: the session's time is
/// cut into equal buckets and each bucket keeps the minimum, the maximum and the mean of each
/// series over the strokes whose catch falls in it (so a spike is not averaged away); a bucket
/// without a stroke (a rest) is `null`.
public struct SessionSeries {
    public let duration: Seconds
    public let strokes: [StrokeMetrics]

    public init(strokes: [StrokeMetrics], duration: Seconds) {
        self.strokes = strokes
        self.duration = duration.isFinite ? max(0, duration) : 0
    }

    /// The value of `field` at a stroke, or nil when it has none.
    static func value(_ field: SeriesRequest.Field, _ m: StrokeMetrics) -> Double? {
        let v: Double?
        switch field {
        case .split: v = m.split
        case .rate: v = m.smoothedRate ?? m.stroke.strokeRate
        case .speed: v = m.split.flatMap { $0 > 0 ? 500 / $0 : nil }
        case .distance: v = m.distance
        }
        guard let v, v.isFinite else { return nil }
        return v
    }

    /// The answer as JSON: `t_s` (each bucket's start), `bucket_s`, `strokes` (per bucket) and,
    /// per field, `{"min": [...], "max": [...], "mean": [...]}`.
    public func json(_ request: SeriesRequest) -> String {
        let n = strokes.isEmpty ? 0 : request.points
        let width = n > 0 ? max(duration, strokes.last?.stroke.catchTime ?? 0) / Double(n) : 0
        let fields = request.fields
        var low = [[Double?]](repeating: [Double?](repeating: nil, count: n), count: fields.count)
        var high = low
        var sum = [[Double]](repeating: [Double](repeating: 0, count: n), count: fields.count)
        var counted = [[Int]](repeating: [Int](repeating: 0, count: n), count: fields.count)
        var perBucket = [Int](repeating: 0, count: n)
        for m in strokes where n > 0 {
            let t = m.stroke.catchTime
            guard t.isFinite else { continue }
            let b = width > 0 ? min(n - 1, max(0, Int(t / width))) : 0
            perBucket[b] += 1
            for (f, field) in fields.enumerated() {
                guard let v = Self.value(field, m) else { continue }
                low[f][b] = min(low[f][b] ?? v, v)
                high[f][b] = max(high[f][b] ?? v, v)
                sum[f][b] += v
                counted[f][b] += 1
            }
        }
        var w = JSONWriter()
        w.beginObject()
        w.field("points", n)
        w.field("bucket_s", width, places: 3)
        w.field("duration_s", duration, places: 3)
        w.array("t_s", (0..<n).lazy.map { b in Double(b) * width }, places: 2)
        w.array("strokes", perBucket)
        for (f, field) in fields.enumerated() {
            w.beginObject(key: field.key)
            let places = field == .distance ? 1 : 2
            w.array("min", low[f], places: places)
            w.array("max", high[f], places: places)
            w.array("mean", (0..<n).lazy.map { b in counted[f][b] > 0 ? sum[f][b] / Double(counted[f][b]) : nil }, places: places)
            w.endObject()
        }
        w.endObject()
        return w.take()
    }
}
