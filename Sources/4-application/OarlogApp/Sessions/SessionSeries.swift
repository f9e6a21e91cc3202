import OarlogAPI
import OarlogCore
import OarlogSession

/// A session's series for the web app's plots (`/api/sessions/{id}/series`), downsampled on the
/// server so that a 10-hour session's plots stay small: the session's time is cut into equal
/// buckets and each bucket keeps the minimum, the maximum and the mean of each series over the
/// strokes whose catch falls in it (so a spike is not averaged away); a bucket without a stroke
/// (a rest) is `null`. The heart rates, power, angles and forces of the records
/// (`SessionRecordSeries`) go into the same buckets by their own times. A stroke's `speed` and
/// `split` are its stored split's (the analyzer's: from the fused speed where the accelerometer
/// drove it); with the boat's fused speed stored (`speeds`), `boat_speed` is the in-stroke speed.
public struct SessionSeries {
    public let duration: Seconds
    public let strokes: [StrokeMetrics]
    /// The session's stored fused speed in this series' buckets; nil when it stores none.
    var speeds: SessionSpeedSeries?

    public init(strokes: [StrokeMetrics], duration: Seconds) {
        self.strokes = strokes
        self.duration = duration.isFinite ? max(0, duration) : 0
    }

    /// The value of `field` at a stroke, or nil when it has none (or it is not a stroke's).
    static func value(_ field: SeriesRequest.Field, _ m: StrokeMetrics) -> Double? {
        let v: Double?
        switch field {
        case .split: v = m.split
        case .rate: v = m.smoothedRate ?? m.stroke.strokeRate
        case .speed: v = m.split.flatMap { $0 > 0 ? 500 / $0 : nil }
        case .distance: v = m.distance
        default: v = nil
        }
        guard let v, v.isFinite else { return nil }
        return v
    }

    /// The value of `field` at stroke `k`.
    func value(_ field: SeriesRequest.Field, stroke k: Int) -> Double? {
        Self.value(field, strokes[k])
    }

    /// Reads the stored fused speed of `reader` into this series' buckets for `request`, when
    /// it asks for `boat_speed` and the file may hold one (a closed file's summary counts its
    /// samples: none, nothing is walked).
    mutating func readSpeeds(_ reader: SessionReader, _ request: SeriesRequest) throws {
        guard request.fields.contains(.boatSpeed) else { return }
        if let stored = reader.summary?.statistics, stored.boatSpeedSamples == 0 { return }
        let (n, width) = layout(request)
        speeds = try SessionSpeedSeries.read(reader, buckets: n, width: width)
    }

    /// Whether `request` wants a series of the records other than the fused speed (heart rate,
    /// power, the oarlock's): they are read for it.
    static func wantsRecords(_ request: SeriesRequest) -> Bool {
        request.fields.contains { !$0.isPerStroke && $0 != .boatSpeed }
    }

    /// The buckets for `request`: none for a session without strokes when only stroke series
    /// are asked for (else `points`), each `width` seconds.
    public func layout(_ request: SeriesRequest) -> (count: Int, width: Seconds) {
        let n = strokes.isEmpty && !request.wantsRecords ? 0 : request.points
        return (n, n > 0 ? max(duration, strokes.last?.stroke.catchTime ?? 0) / Double(n) : 0)
    }

    /// The answer as JSON: `t_s` (each bucket's start), `bucket_s`, `strokes` (per bucket) and,
    /// per field, `{"min": [...], "max": [...], "mean": [...]}` (the records' series as
    /// `SessionRecordSeries.write` gives them).
    func json(_ request: SeriesRequest, records: SessionRecordSeries? = nil, zones: HeartRateZoneTable = HeartRateZoneTable()) -> String {
        let (n, width) = layout(request)
        let fields = request.fields.filter(\.isPerStroke)
        var values = [SeriesBuckets](repeating: SeriesBuckets(count: n), count: fields.count)
        var perBucket = [Int](repeating: 0, count: n)
        for (k, m) in strokes.enumerated() where n > 0 {
            let t = m.stroke.catchTime
            guard t.isFinite else { continue }
            let b = width > 0 ? min(n - 1, max(0, Int(t / width))) : 0
            perBucket[b] += 1
            for (f, field) in fields.enumerated() { values[f].add(value(field, stroke: k), bucket: b) }
        }
        var w = JSONWriter()
        w.beginObject()
        w.field("points", n)
        w.field("bucket_s", width, places: 3)
        w.field("duration_s", duration, places: 3)
        w.array("t_s", (0..<n).lazy.map { b in Double(b) * width }, places: 2)
        w.array("strokes", perBucket)
        for field in request.fields {
            if let f = fields.firstIndex(of: field) {
                w.beginObject(key: field.key)
                values[f].write(&w, places: field == .distance ? 1 : 2)
                w.endObject()
            } else if field == .boatSpeed {
                if let speeds { speeds.write(&w) } else { SessionSpeedSeries.writeNone(&w, buckets: n) }
            } else {
                (records ?? SessionRecordSeries(buckets: n, width: width)).write(field, &w, zones: zones)
            }
        }
        w.endObject()
        return w.take()
    }
}
