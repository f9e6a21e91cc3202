import OarlogCore

/// A BoatCoach `DateTime`: `2017-09-25 17:22:24.1 GMT+02:00` (local wall clock and its offset
/// from UTC; the offset may be missing, or written `GMT`, `UTC`, `Z`, `+0200`).
struct BoatCoachTime {
    /// Seconds since 1970: UTC when the offset is known, else the wall clock read as if UTC.
    var instant: Double { wholeSeconds + fraction }
    /// `instant` in whole seconds and the fraction, so that rows a second apart differ by
    /// exactly their tenths (not by 1e-7 s of a large number's rounding).
    private let wholeSeconds: Double, fraction: Double
    let hasOffset: Bool
    /// The wall clock, `2017-09-25T17:22:24` (whole seconds).
    let localText: String?

    /// The time in field `field` of `row`; nil when it is empty or `--`. Throws naming the line
    /// and column when it is not a date and time.
    init?(_ row: CSVRow, field: Int) throws {
        let text = row[field].trimmingWhitespace()
        if text.isEmpty || text == "--" { return nil }
        let parts = text.split(separator: " ")
        func bad() -> TraceError {
            row.error(field: field, "expected a date and time like 2017-09-25 17:22:24.1 GMT+02:00, found \(text.debugDescription)")
        }
        guard parts.count == 2 || parts.count == 3 else { throw bad() }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, clock.count == 3, let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
              let hour = Int(clock[0]), let minute = Int(clock[1]),
              clock[2].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let second = Double(clock[2]),
              (1900...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), second >= 0, second < 61 else { throw bad() }
        var offset: Double?
        if parts.count == 3 {
            guard let o = Self.offsetSeconds(parts[2]) else { throw bad() }
            offset = o
        }
        let whole = second.rounded(.down)
        wholeSeconds = UTCTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: whole)
            - (offset ?? 0)
        fraction = second - whole
        hasOffset = offset != nil
        func p(_ n: Int, _ width: Int) -> String { DecimalText.zeroPadded(n, width: width) }
        localText = "\(p(year, 4))-\(p(month, 2))-\(p(day, 2))T\(p(hour, 2)):\(p(minute, 2)):\(p(min(Int(whole), 59), 2))"
    }

    /// Seconds from `origin` to this time.
    func seconds(since origin: BoatCoachTime) -> Double {
        (wholeSeconds - origin.wholeSeconds) + (fraction - origin.fraction)
    }

    /// `GMT+02:00`, `GMT-5`, `UTC`, `Z`, `+0200` → seconds east of UTC (at most 14 hours); nil if
    /// not an offset.
    static func offsetSeconds(_ zone: Substring) -> Double? {
        var rest = zone
        for prefix in ["GMT", "UTC", "Z"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        if rest.isEmpty { return 0 }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        let hm = rest.split(separator: ":", omittingEmptySubsequences: false)
        var hours: Int?, minutes: Int? = 0
        if hm.count == 2 {
            hours = Int(hm[0]); minutes = Int(hm[1])
        } else if hm.count == 1, rest.count == 4 {
            hours = Int(rest.prefix(2)); minutes = Int(rest.suffix(2))
        } else if hm.count == 1, rest.count <= 2 {
            hours = Int(rest)
        }
        guard let hours, let minutes, rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }),
              (0...14).contains(hours), (0...59).contains(minutes) else { return nil }
        let seconds = Double(hours * 3600 + minutes * 60)
        return sign == "-" ? -seconds : seconds
    }
}
