import OarlogAPI
import OarlogCore
import OarlogFences
import OarlogSession

/// Two outings, or two pieces, on the same water side by side (`oarlog compare`, `GET
/// /api/compare`): each cut at every 500 m of its own GPS distance (`SessionTrail`: the distance
/// accumulator's, fix by fix; the time at a mark interpolated between the two fixes around it),
/// or at the gates of a course; per segment each side's time at its end, the segment's time,
/// split, strokes and rate, and the gap — B's time at the mark minus A's (positive: A ahead) —
/// with what A gained in the segment. Segments run to the shorter side's end; the last may be a
/// partial one (flagged).
///
/// A side is a whole session (from when its GPS distance first grows to when it last grows: not
/// the wait at the landing stage before or after) or one of its pieces
/// (`SessionPieces`: the intervals of the plan it rowed, its recorded course legs, or the runs of
/// rowing between rests; `ID:K`, K from 1, or `--interval K` for the K-th interval of each side's
/// plan), from the piece's start (a run's first catch) to its end. With a course, each side's stretch runs
/// from its start-gate crossing to its finish (the first complete passage in the stretch, else
/// the one that got furthest), the crossings found by `FenceMonitor` over the session's fixes.
///
/// Strokes are the catches in the segment (`[start, end)`); the rate counts the stroke under way
/// at each end as the fraction of its cycle done, so a constant 30 spm gives 30.0 whatever the
/// segment's phase. No accelerometer (and no device strokes): strokes and rate are nil ("—").
public struct SessionComparison {
    /// Why a comparison cannot be made: a session or piece that is not there (`notFound`: the
    /// API's 404), or one that cannot be compared (no GPS, a damaged file, a course it never
    /// rowed: 422).
    public struct Failure: Error, CustomStringConvertible, Equatable, Sendable {
        public enum Kind: Sendable { case notFound, unusable }
        public let kind: Kind
        public let description: String
        public init(_ kind: Kind, _ description: String) {
            self.kind = kind
            self.description = description
        }
    }

    /// One side: which session and piece, and its stretch of trail.
    public struct Side: Sendable {
        public var id: String
        public var title: String
        public var startUTC: Double
        /// The piece (from 1) and its label, nil for the whole session.
        public var piece: Int?
        public var pieceLabel: String?
        /// The piece's interval number in the plan the session rowed (from 1; the same as `piece`
        /// when the session rowed a plan), nil otherwise.
        public var interval: Int?
        /// The stretch compared, session seconds.
        public var from: Seconds
        public var to: Seconds
        /// The trail over the stretch: session times; distances from the stretch's start.
        public var points: [SessionTrail.Point]
        /// Every catch of the session (session seconds), in order.
        public var catches: [Seconds]
        /// False when the session had neither an accelerometer nor a device's strokes.
        public var strokesKnown: Bool

        public var time: Seconds { to - from }
        public var distance: Metres { points.last?.distance ?? 0 }
        /// The side's whole stretch as a leg (its time, distance, split, strokes, rate).
        public var total: Leg { leg(from: from, to: to, distance: distance, elapsed: time) }

        /// The leg between session times `t0` and `t1`.
        func leg(from t0: Seconds?, to t1: Seconds?, distance: Metres, elapsed: Seconds?) -> Leg {
            guard let t0, let t1, t1 >= t0 else { return Leg(elapsed: elapsed, time: nil, distance: distance, strokes: nil, rate: nil) }
            guard strokesKnown else { return Leg(elapsed: elapsed, time: t1 - t0, distance: distance, strokes: nil, rate: nil) }
            let strokes = SessionComparison.catches(catches, before: t1) - SessionComparison.catches(catches, before: t0)
            var rate: StrokesPerMinute?
            if strokes >= 2, t1 > t0 {
                rate = (SessionComparison.strokesRowed(catches, by: t1) - SessionComparison.strokesRowed(catches, by: t0)) / (t1 - t0) * 60
            }
            return Leg(elapsed: elapsed, time: t1 - t0, distance: distance, strokes: strokes, rate: rate)
        }
    }

    /// One side's figures over a segment.
    public struct Leg: Sendable, Equatable {
        /// Time from the side's start to the segment's end (nil: a course gate it did not cross).
        public var elapsed: Seconds?
        /// The segment's time.
        public var time: Seconds?
        public var distance: Metres
        /// Catches in the segment; nil without stroke data.
        public var strokes: Int?
        public var rate: StrokesPerMinute?
        public var split: SecondsPer500m? {
            guard let time, time > 0, distance > 0 else { return nil }
            return time / distance * 500
        }
    }

    public struct Segment: Sendable, Equatable {
        public var number: Int
        /// `0–500 m`, or a course leg's `Start → 500 m`.
        public var label: String
        /// Where it starts and ends: metres from each side's start (along the course's gates).
        public var from: Metres
        public var to: Metres
        /// The last segment, to the shorter side's end, when it is shorter than the others.
        public var partial: Bool
        public var a: Leg
        public var b: Leg
        public var distance: Metres { to - from }
        /// B's time at the segment's end minus A's: positive, A is ahead by that much.
        public var gap: Seconds? {
            guard let ta = a.elapsed, let tb = b.elapsed else { return nil }
            return tb - ta
        }
        /// What A gained on B in this segment (B's segment time minus A's); negative: A lost.
        public var gained: Seconds? {
            guard let ta = a.time, let tb = b.time else { return nil }
            return tb - ta
        }
    }

    public static let defaultSegment: Metres = 500

    public let a: Side
    public let b: Side
    /// Metres per segment; nil when cut at a course's gates.
    public let segmentLength: Metres?
    public let courseName: String?
    public let segments: [Segment]

}
