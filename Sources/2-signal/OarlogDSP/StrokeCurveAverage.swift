import OarlogCore

/// The average stroke curve over a normalised stroke: each stroke, from its catch to the next
/// catch, is resampled at `points` evenly spaced moments (linear interpolation between samples),
/// so strokes of different lengths line up catch to catch, and the curve is the mean and the
/// standard deviation at each moment. The one resampling and averaging used by the live
/// analyzer (`StrokeQualityMeter`'s piece curve) and by a stored session's curve
/// (`/api/sessions/{id}/curve`, the web app's curve plot).
///
/// Memory is fixed at init (two arrays of `points`); adding a stroke allocates nothing.
public struct StrokeCurveAverage: Sendable, Equatable {
    /// Moments per stroke (at least 2): moment k is at phase k / (points − 1), 0 = the catch,
    /// 1 = the next catch.
    public let points: Int
    /// Strokes averaged so far.
    public private(set) var strokes = 0
    private var sum: [Double]
    private var sumSquares: [Double]
    private var durationSum: Seconds = 0
    private var driveSum: Seconds = 0

    /// The greatest distance allowed between the stroke's first sample and its catch, and
    /// between its last sample and its end: a stroke the samples do not cover is not taken.
    public static let coverageTolerance: Seconds = 0.05

    public init(points: Int = 100) {
        self.points = max(2, points)
        sum = [Double](repeating: 0, count: self.points)
        sumSquares = sum
    }

    /// Forgets every stroke (a new piece).
    public mutating func reset() {
        strokes = 0
        durationSum = 0
        driveSum = 0
        for k in 0..<points {
            sum[k] = 0
            sumSquares[k] = 0
        }
    }

    /// Adds one stroke from `start` (its catch) to `end` (the next catch) whose drive lasted
    /// `drive`, from `count` samples in time order: `time(i)` and `value(i)` (m/s²) of sample `i`.
    /// Returns false (and adds nothing) when the samples do not cover the stroke: fewer than 8,
    /// the first more than `coverageTolerance` after the catch or the last as much before the end.
    @discardableResult @inline(__always)
    public mutating func add(start: Seconds, end: Seconds, drive: Seconds, count: Int,
                             time: (Int) -> Seconds, value: (Int) -> Double) -> Bool {
        guard end > start, count >= 8, time(0) - start < Self.coverageTolerance,
              end - time(count - 1) < Self.coverageTolerance else { return false }
        let n = points
        let step = (end - start) / Double(n - 1)
        let first = time(0), lastIndex = count - 1
        // Walk the samples once: (a, va)–(b, vb) is the pair around moment k.
        var j = 0
        var a = first, va = value(0)
        var b = count > 1 ? time(1) : first, vb = count > 1 ? value(1) : va
        sum.withUnsafeMutableBufferPointer { sums in
            sumSquares.withUnsafeMutableBufferPointer { squares in
                for k in 0..<n {
                    let t = start + step * Double(k)
                    while j + 1 < lastIndex && b < t {
                        j += 1
                        a = b
                        va = vb
                        b = time(j + 1)
                        vb = value(j + 1)
                    }
                    let v: Double
                    if t <= first {
                        v = value(0)
                    } else if t >= b && j + 1 >= lastIndex {
                        v = value(lastIndex)
                    } else {
                        v = b > a ? va + (vb - va) * (t - a) / (b - a) : va
                    }
                    sums[k] += v
                    squares[k] += v * v
                }
            }
        }
        strokes += 1
        durationSum += end - start
        driveSum += drive
        return true
    }

    /// Mean value at moment `k`; `nil` before any stroke.
    public func mean(at k: Int) -> Double? {
        strokes > 0 ? sum[k] / Double(strokes) : nil
    }

    /// Standard deviation (population) at moment `k`; `nil` before any stroke.
    public func standardDeviation(at k: Int) -> Double? {
        guard let m = mean(at: k) else { return nil }
        return max(0, sumSquares[k] / Double(strokes) - m * m).squareRoot()
    }

    /// Mean stroke length (catch to next catch) and mean drive, s.
    public var meanStrokeDuration: Seconds? { strokes > 0 ? durationSum / Double(strokes) : nil }
    public var meanDriveDuration: Seconds? { strokes > 0 ? driveSum / Double(strokes) : nil }

    /// The mean curve, `points` values (nil before any stroke).
    public var meanCurve: [Double?] { (0..<points).map { mean(at: $0) } }
}
