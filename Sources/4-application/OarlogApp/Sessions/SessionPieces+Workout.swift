import OarlogCore
import OarlogWorkouts

/// The pieces of a session that rowed a plan: one per interval the workout tracker recorded
/// (warm-up, pieces, rests, cool-down, in the order rowed), with the interval's own figures.
extension SessionPieces {
    /// An interval as a piece: its boundaries, distance, strokes and rate as the tracker gave them;
    /// the strokes for its curve are the session's catches at or after its start and before its end.
    static func interval(_ interval: WorkoutInterval, strokes: [StrokeMetrics]) -> Piece {
        let first = strokes.firstIndex { $0.stroke.catchTime >= interval.start }
        let after = strokes.firstIndex { $0.stroke.catchTime >= interval.end } ?? strokes.count
        let range = first.flatMap { $0 < after ? $0...(after - 1) : nil }
        return Piece(label: name(interval), start: interval.start, end: interval.end, distance: interval.distance,
                     strokes: interval.strokes, strokeRange: range, recordedRate: interval.averageStrokeRate, interval: interval)
    }

    /// "Piece 2", "Rest", "Warm-up", "Cool-down" (the step's own label is a key of its own).
    static func name(_ interval: WorkoutInterval) -> String {
        switch interval.kind {
        case .work: "Piece \(interval.pieceNumber ?? 0)"
        case .rest: "Rest"
        case .warmup: "Warm-up"
        case .cooldown: "Cool-down"
        }
    }

    /// Where an interval's average rate and split stand against its bands (nil: no band, or no
    /// figure): the page's in / under / over marker beside the share of the interval in band.
    static func averageBands(_ interval: WorkoutInterval) -> (strokeRate: TargetBand?, split: TargetBand?) {
        var rate: TargetBand?, split: TargetBand?
        if let band = interval.target.strokeRate, let value = interval.averageStrokeRate {
            rate = TargetBand(value, in: band, tolerance: TargetBand.strokeRateTolerance)
        }
        if let band = interval.target.split, let value = interval.averageSplit {
            split = TargetBand(value, in: band, tolerance: TargetBand.splitTolerance)
        }
        return (rate, split)
    }
}

extension JSONWriter {
    /// A workout piece's own keys, beside the piece's: the interval's `index` (from 1), `kind`
    /// (`work`|`rest`), `step` (warmup|work|rest|cooldown), `piece_number`, `step_label`, `target`
    /// (`targetField`), the shares in band, where the averages stand against the bands
    /// (`stroke_rate_band`, `split_band`: under|in|over), metres per stroke and `completed`.
    mutating func intervalFields(of interval: WorkoutInterval) {
        field("index", interval.index)
        field("kind", interval.workOrRest)
        field("step", interval.kind.rawValue)
        field("piece_number", interval.pieceNumber)
        field("step_label", interval.label)
        targetField("target", interval.target)
        field("stroke_rate_in_band", interval.strokeRateInBand, places: 3)
        field("split_in_band", interval.splitInBand, places: 3)
        let bands = SessionPieces.averageBands(interval)
        field("stroke_rate_band", bands.strokeRate?.rawValue)
        field("split_band", bands.split?.rawValue)
        field("distance_per_stroke_m", interval.distancePerStroke, places: 2)
        field("completed", interval.completed)
    }
}
