/// UTC calendar conversions without Foundation (so no locale, no time zone database): civil dates
/// to and from days since 1970-01-01 on the proleptic Gregorian calendar (Howard Hinnant's
/// civil-days algorithms), ISO 8601 text with milliseconds, and its parsing.
public enum UTCTime {
    /// Days from 1970-01-01 to a calendar date (negative before it).
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date `days` after 1970-01-01.
    public static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Seconds since 1970-01-01T00:00:00Z of a UTC calendar time.
    public static func epochSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0,
                                    second: Double = 0) -> Double {
        Double(daysSince1970(year: year, month: month, day: day)) * 86_400 + Double(hour * 3600 + minute * 60) + second
    }

    /// `2026-05-02T07:14:03.250Z` (milliseconds, always UTC). By default the milliseconds are
    /// truncated, as a clock reads; `.toNearestOrAwayFromZero` rounds them instead.
    public static func iso8601(_ epochSeconds: Double,
                               millisecondRounding: FloatingPointRoundingRule = .down) -> String {
        let milliseconds = Int64((epochSeconds * 1000).rounded(millisecondRounding))
        var days = milliseconds / 86_400_000
        var ofDay = milliseconds % 86_400_000
        if ofDay < 0 {
            ofDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = civilDate(daysSince1970: Int(days))
        let hour = ofDay / 3_600_000, minute = ofDay / 60_000 % 60, second = ofDay / 1000 % 60, ms = ofDay % 1000
        return "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))"
            + "T\(zeroPadded(hour, 2)):\(zeroPadded(minute, 2)):\(zeroPadded(second, 2)).\(zeroPadded(ms, 3))Z"
    }

    /// Parses ISO 8601 UTC as traces write it: `YYYY-MM-DDTHH:MM:SS[.fff]` (or a space for the
    /// `T`) followed by nothing, `Z`, or an offset such as `+02:00` / `-0130` / `+02` (applied).
    /// Returns seconds since 1970, or nil.
    public static func parseISO8601(_ text: String) -> Double? {
        let b = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var v = 0
            for i in start..<(start + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32, b[13] == 58, b[16] == 58,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
        }
        var offsetSeconds = 0
        if i == b.count || (b[i] == 90 && i + 1 == b.count) {
            offsetSeconds = 0
        } else if b[i] == 43 || b[i] == 45, let h = number(i + 1, 2) {
            var m = 0
            if i + 3 < b.count {
                let colon = b[i + 3] == 58 ? 1 : 0
                guard let mm = number(i + 3 + colon, 2), i + 5 + colon == b.count else { return nil }
                m = mm
            } else if i + 3 != b.count {
                return nil
            }
            offsetSeconds = (b[i] == 43 ? 1 : -1) * (h * 3600 + m * 60)
        } else {
            return nil
        }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
    }

    /// `value` in decimal, left-padded with zeros to `width` digits.
    static func zeroPadded<I: BinaryInteger>(_ value: I, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
