import OarlogCore
import OarlogSession

extension StrokeDeviceFigures {
    /// Each stroke's figures from a kept session's heart-rate and oarlock records (read alone, in
    /// one pass beside the strokes, which are in time order); nil when the session has none.
    static func atStrokes(_ strokes: [StrokeMetrics], reader: SessionReader) throws -> [AtStroke]? {
        var figures = StrokeDeviceFigures()
        var out: [AtStroke] = []
        out.reserveCapacity(strokes.count)
        try reader.forEachHeartRateAndOarlock { record in
            guard let t = record.time else { return }
            // A stroke is answered once every record up to half a stroke after its catch is in.
            while out.count < strokes.count, strokes[out.count].stroke.catchTime + halfStroke(strokes[out.count]) < t {
                out.append(figures.at(strokes, out.count))
            }
            figures.add(record)
        }
        guard figures.heartRates + figures.oarlockStrokes > 0 else { return nil }
        while out.count < strokes.count { out.append(figures.at(strokes, out.count)) }
        return out
    }

    /// The figures at stroke `k` of `strokes`, between its neighbours' catches.
    private func at(_ strokes: [StrokeMetrics], _ k: Int) -> AtStroke {
        at(strokes[k], previousCatch: k > 0 ? strokes[k - 1].stroke.catchTime : nil,
           nextCatch: k + 1 < strokes.count ? strokes[k + 1].stroke.catchTime : nil)
    }
}
