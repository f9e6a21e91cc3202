import OarlogCore

/// Matches detected stroke times to known (ground-truth) stroke times, one to one, nearest first,
/// within a tolerance. What is left over on either side is a missed or an extra stroke.
public struct StrokeMatch: Sendable, Equatable {
    public var truthCount: Int
    public var detectedCount: Int
    public var matched: Int
    public var missed: Int { truthCount - matched }
    public var extra: Int { detectedCount - matched }
    /// |detected − truth| of every matched stroke, ascending.
    public var errors: [Seconds]
    /// Largest and median |detected − truth| over the matched strokes.
    public var maxError: Seconds? { errors.last }
    public var medianError: Seconds? { errors.isEmpty ? nil : errors[errors.count / 2] }

    public init(truthCount: Int = 0, detectedCount: Int = 0, matched: Int = 0, errors: [Seconds] = []) {
        self.truthCount = truthCount
        self.detectedCount = detectedCount
        self.matched = matched
        self.errors = errors.sorted()
    }

    /// Two evaluations taken together (for a table row over several sessions).
    public func combined(with other: StrokeMatch) -> StrokeMatch {
        StrokeMatch(truthCount: truthCount + other.truthCount, detectedCount: detectedCount + other.detectedCount,
                    matched: matched + other.matched, errors: errors + other.errors)
    }

    /// Both lists sorted ascending. Greedy in time order: each truth stroke takes the nearest
    /// unmatched detected stroke within `tolerance`. Linear time.
    public static func match(detected: [Seconds], truth: [Seconds], tolerance: Seconds) -> StrokeMatch {
        var errors: [Seconds] = []
        var j = 0
        for t in truth {
            while j < detected.count && detected[j] < t - tolerance { j += 1 }
            guard j < detected.count, abs(detected[j] - t) <= tolerance else { continue }
            // The next truth stroke may be nearer to this detection: only take it if it is ours.
            errors.append(abs(detected[j] - t))
            j += 1
        }
        return StrokeMatch(truthCount: truth.count, detectedCount: detected.count, matched: errors.count, errors: errors)
    }
}
