import OarlogAPI
import OarlogCore
import OarlogDSP
import OarlogSession

/// The boat's fused speed a session stores (`SessionReader.forEachBoatSpeed`, minor version 6)
/// for the plots: the in-stroke speed (`boat_speed`) in the series' buckets — each bucket's
/// slowest, fastest and mean sample, so a 10-hour session's swing is still drawn in `N` points.
/// (A stroke's `speed` and `split` are its stored split: the analyzer's, from the same fused
/// speed sample by sample — one rule for the stroke list, the plots and the exports.) Read in
/// one pass, nothing held per sample.
struct SessionSpeedSeries {
    private(set) var boatSpeed: SeriesBuckets
    let buckets: Int
    let width: Seconds

    init(buckets n: Int, width: Seconds) {
        boatSpeed = SeriesBuckets(count: n)
        buckets = n
        self.width = width
    }

    /// The stored fused speed of `reader` in the buckets; nil for a session that stores none
    /// (recorded before the fused speed, or without it).
    static func read(_ reader: SessionReader, buckets n: Int, width: Seconds) throws -> SessionSpeedSeries? {
        var series = SessionSpeedSeries(buckets: n, width: width)
        try reader.forEachBoatSpeed { series.add($0) }
        return series.boatSpeed.samples > 0 ? series : nil
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
        SessionSpeedSeries(buckets: n, width: 0).write(&w)
    }
}
