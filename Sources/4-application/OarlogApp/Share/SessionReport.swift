import OarlogAPI
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogSession

/// A kept session as one self-contained HTML file anyone can open offline (`oarlog export ID
/// --format html`, the session page's Share button): the figures of `oarlog show`, the track
/// (the map's trail, drawn as SVG with the course it was recorded with), split and rate against
/// time, the session page's pieces (the plan's intervals, the course's legs or the runs between
/// rests) and the notes. Whatever the session's length, the report holds at most
/// `trackPointLimit` track points and `plotPointLimit` points per plot, so its size stays bounded.
public struct SessionReport {
    public static let trackPointLimit = 1_500
    public static let plotPointLimit = 600

    public let id: String
    public let metadata: SessionMetadata
    /// The figures without their strokes (they are read once, into the plots and the pieces).
    public let figures: SessionFigures
    public let notes: [Note]
    /// The trail's points, thinned as they are read; `trackFixes` is how many the trail has.
    public let track: [SessionTrail.Point]
    public let trackFixes: Int
    /// The fences recorded with the session (none when it had none, or they no longer parse).
    public let fences: FenceFile?
    public let pieces: SessionPieces
    public let split: PlotSeries
    public let rate: PlotSeries

    /// Reads the report of the session `reader` opened: its figures (the stored summary, or
    /// recomputed as `oarlog show` does), strokes, fixes, notes, events and plan.
    public init(_ reader: SessionReader) throws {
        id = SessionText.id(of: reader.path)
        metadata = reader.metadata
        var figures = try SessionFigures.load(reader, includeStrokes: true)
        let strokes = figures.strokes ?? []
        figures.strokes = nil
        self.figures = figures
        notes = try reader.notes(onDamage: .skipDamagedChunks)
        (track, trackFixes) = try SessionTrail.streamed(reader, limit: Self.trackPointLimit)
        fences = reader.metadata.fencesGeoJSON.flatMap { try? FenceFile.parse($0) }
        pieces = try SessionPieces.read(reader, strokes: strokes)
        let duration = figures.duration
        var split = PlotSeries(duration: duration, points: Self.plotPointLimit)
        var rate = PlotSeries(duration: duration, points: Self.plotPointLimit)
        for m in strokes {
            split.add(time: m.stroke.catchTime, SessionSeries.value(.split, m))
            rate.add(time: m.stroke.catchTime, SessionSeries.value(.rate, m))
        }
        (self.split, self.rate) = (split, rate)
    }

    /// The title a person sees: the session's own, else its date.
    public var title: String { SessionText.title(metadata) }
}

/// One plotted figure against session time, cut into `points` equal buckets, each the mean of
/// the strokes whose catch falls in it (nil: no stroke, a rest): a fixed size however many strokes.
public struct PlotSeries: Sendable {
    public let duration: Seconds
    public let bucketSeconds: Seconds
    private var sums: [Double]
    private var counts: [Int]

    public init(duration: Seconds, points: Int) {
        let duration = duration.isFinite ? max(0, duration) : 0
        self.duration = duration
        // At least 5 s: a bucket of a few strokes (a plot that small could not show more).
        let bucketSeconds = max(5, duration / Double(max(1, points)))
        let n = max(1, min(points, Int((duration / bucketSeconds).rounded(.up))))
        self.bucketSeconds = bucketSeconds
        sums = [Double](repeating: 0, count: n)
        counts = [Int](repeating: 0, count: n)
    }

    /// Adds one stroke's value at its catch (a stroke with no value, or out of time, is left out).
    public mutating func add(time: Seconds, _ value: Double?) {
        guard let value, value.isFinite, time.isFinite, time >= 0 else { return }
        let b = min(sums.count - 1, Int(time / bucketSeconds))
        sums[b] += value
        counts[b] += 1
    }

    /// Each bucket's start time and mean, nil for a bucket without a value.
    public var points: [(time: Seconds, value: Double?)] {
        sums.indices.map { b in (Double(b) * bucketSeconds, counts[b] > 0 ? sums[b] / Double(counts[b]) : nil) }
    }

    /// The means' values at two shares of their sorted list (0 the lowest, 1 the highest; nil
    /// when no bucket has a value): what an axis spans without a few outliers flattening the rest.
    public func percentiles(_ low: Double, _ high: Double) -> ClosedRange<Double>? {
        let values = points.compactMap(\.value).sorted()
        guard !values.isEmpty else { return nil }
        func at(_ share: Double) -> Double { values[min(values.count - 1, max(0, Int((share * Double(values.count - 1)).rounded())))] }
        let (a, b) = (at(low), at(high))
        return min(a, b)...max(a, b)
    }
}

extension SessionTrail {
    /// The trail as the map draws it (the same fixes, from the same accumulator), thinned to at
    /// most `limit` points while it is read, and how many points the whole trail has.
    static func streamed(_ reader: SessionReader, limit: Int) throws -> ([Point], Int) {
        var thinner = StreamingThinner<Point>(limit: limit)
        try forEachPoint(reader) { thinner.add($0) }
        return (thinner.points, thinner.count)
    }
}
