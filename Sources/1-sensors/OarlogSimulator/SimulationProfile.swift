import OarlogCore

/// What the crew does over the session: a list of segments, each rowing at a rate and pressure
/// or resting (no strokes; the boat glides to a stop).
public struct SimulationProfile: Sendable, Equatable, CustomStringConvertible {
    public enum Activity: Sendable, Equatable {
        /// Rowing at `rate`; `power` is the pressure, 1 = firm racing pressure, 0.3–0.5 = easy
        /// paddling. Speed and acceleration amplitude grow with both.
        case rowing(rate: StrokesPerMinute, power: Double)
        case rest
    }

    public struct Segment: Sendable, Equatable {
        public var duration: Seconds
        public var activity: Activity
        public init(duration: Seconds, activity: Activity) {
            self.duration = duration
            self.activity = activity
        }
        public static func rowing(_ duration: Seconds, rate: StrokesPerMinute, power: Double = 1) -> Segment {
            Segment(duration: duration, activity: .rowing(rate: rate, power: power))
        }
        public static func rest(_ duration: Seconds) -> Segment {
            Segment(duration: duration, activity: .rest)
        }
    }

    public var name: String
    public var segments: [Segment]
    /// The boat is already moving at the first segment's speed at t = 0 (a "flying start"),
    /// rather than starting from rest.
    public var flyingStart: Bool

    public init(name: String, segments: [Segment], flyingStart: Bool) {
        self.name = name
        self.segments = segments
        self.flyingStart = flyingStart
    }

    public var description: String { name }

    /// Total planned duration of the segments.
    public var totalDuration: Seconds { segments.reduce(0) { $0 + $1.duration } }

    /// Rowing at one rate for `duration`, from a flying start.
    public static func constant(rate: StrokesPerMinute, power: Double = 1, duration: Seconds) -> SimulationProfile {
        SimulationProfile(name: "constant:\(DecimalText.fixed(rate, places: 1, nonFinite: ""))",
                          segments: [.rowing(duration, rate: rate, power: power)], flyingStart: true)
    }

    /// A training session from rest: easy warm-up paddling at 18, a build, pieces at 24, 32 and
    /// 40 spm and a rate ladder 18→22→26→30 with rests between, then easy paddling. The main
    /// part repeats to fill `duration`, and the whole is cut at `duration`.
    public static func workout(duration: Seconds) -> SimulationProfile {
        let warmUp: [Segment] = [
            .rowing(240, rate: 18, power: 0.4),
            .rowing(60, rate: 20, power: 0.65),
            .rest(60),
        ]
        let main: [Segment] = [
            .rowing(120, rate: 24, power: 0.9),
            .rest(60),
            .rowing(60, rate: 32, power: 1.0),
            .rest(90),
            .rowing(40, rate: 40, power: 1.1),
            .rest(120),
            .rowing(60, rate: 18, power: 0.8),
            .rowing(60, rate: 22, power: 0.85),
            .rowing(60, rate: 26, power: 0.9),
            .rowing(60, rate: 30, power: 0.95),
            .rest(60),
            .rowing(180, rate: 18, power: 0.4),
        ]
        var segments = warmUp
        var total = warmUp.reduce(0) { $0 + $1.duration }
        while total < duration {
            for segment in main where total < duration {
                segments.append(segment)
                total += segment.duration
            }
        }
        return SimulationProfile(name: "workout", segments: segments, flyingStart: false).truncated(to: duration)
    }

    /// Continuous rowing climbing 18 → 40 spm in 2 spm steps of equal length filling `duration`.
    public static func ladder(duration: Seconds) -> SimulationProfile {
        let rates = Array(stride(from: 18.0, through: 40.0, by: 2.0))
        let step = duration / Double(rates.count)
        return SimulationProfile(name: "ladder",
                                 segments: rates.map { .rowing(step, rate: $0, power: 0.6 + 0.4 * ($0 - 18) / 22) },
                                 flyingStart: true)
    }

    /// The segments cut at `duration`.
    public func truncated(to duration: Seconds) -> SimulationProfile {
        var kept: [Segment] = []
        var start: Seconds = 0
        for segment in segments where start < duration {
            var cut = segment
            cut.duration = min(segment.duration, duration - start)
            kept.append(cut)
            start += segment.duration
        }
        return SimulationProfile(name: name, segments: kept, flyingStart: flyingStart)
    }

    /// Parses a profile for a session of `duration`:
    /// - `constant` (at `rate`), `constant:24` or just `24`: one rate throughout, flying start;
    /// - `workout`: `SimulationProfile.workout`; `ladder`: `SimulationProfile.ladder`;
    /// - a list `DURATION:RATE[@POWER]` or `DURATION:rest`, comma-separated, from rest, e.g.
    ///   `300:18@0.5,60:rest,120:24`; durations in seconds, or minutes with an `m` suffix (`5m`).
    public static func parse(_ text: String, duration: Seconds, rate: StrokesPerMinute = 24) throws -> SimulationProfile {
        let trimmed = text.trimmingWhitespace().lowercased()
        switch trimmed {
        case "constant", "": return .constant(rate: rate, duration: duration)
        case "workout": return .workout(duration: duration)
        case "ladder": return .ladder(duration: duration)
        default: break
        }
        if let value = Double(trimmed) {
            return .constant(rate: try checkedRate(value, in: text), duration: duration)
        }
        if trimmed.hasPrefix("constant:"), let value = Double(trimmed.dropFirst("constant:".count)) {
            return .constant(rate: try checkedRate(value, in: text), duration: duration)
        }
        var segments: [Segment] = []
        for part in trimmed.split(separator: ",") {
            let fields = part.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace() }
            guard fields.count == 2, let length = parseDuration(fields[0]), length > 0 else {
                throw SimulationConfigurationError(
                    "profile '\(text)': segment '\(part)' is not DURATION:RATE[@POWER] or DURATION:rest "
                        + "(or use constant, constant:24, workout, ladder)")
            }
            if fields[1] == "rest" {
                segments.append(.rest(length))
                continue
            }
            let ratePower = fields[1].split(separator: "@", maxSplits: 1).map(String.init)
            guard let segmentRate = Double(ratePower[0]) else {
                throw SimulationConfigurationError("profile '\(text)': '\(fields[1])' is not a rate in spm or 'rest'")
            }
            var power = 1.0
            if ratePower.count == 2 {
                guard let value = Double(ratePower[1]), value > 0, value <= 2 else {
                    throw SimulationConfigurationError("profile '\(text)': power '\(ratePower[1])' must be in (0, 2]")
                }
                power = value
            }
            segments.append(.rowing(length, rate: try checkedRate(segmentRate, in: text), power: power))
        }
        return SimulationProfile(name: trimmed, segments: segments, flyingStart: false).truncated(to: duration)
    }

    private static func parseDuration(_ text: String) -> Seconds? {
        if text.hasSuffix("m"), let minutes = Double(text.dropLast()) { return minutes * 60 }
        if text.hasSuffix("s"), let seconds = Double(text.dropLast()) { return seconds }
        return Double(text)
    }

    private static func checkedRate(_ rate: Double, in text: String) throws -> StrokesPerMinute {
        guard rate >= 10, rate <= 60 else {
            throw SimulationConfigurationError("profile '\(text)': rate \(rate) spm is outside 10–60")
        }
        return rate
    }
}
