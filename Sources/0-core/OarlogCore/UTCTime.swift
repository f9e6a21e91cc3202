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
    /// truncated, as a clock reads; `.toNearestOrAwayFromZero` rounds them instead. A time that
    /// is not a number, or outside the four-digit years 0000–9999, prints as `invalidISO8601`.
    public static func iso8601(_ epochSeconds: Double,
                               millisecondRounding: FloatingPointRoundingRule = .down) -> String {
        let milliseconds = (epochSeconds * 1000).rounded(millisecondRounding)
        guard milliseconds >= minimumMilliseconds, milliseconds <= maximumMilliseconds else { return invalidISO8601 }
        return iso8601(millisecondsSince1970: Int64(milliseconds))
    }

    /// Parses a start time as a person types it (`oarlog simulate --start-utc`):
    /// `YYYY-MM-DDTHH:MM[:SS[.fff]]` with a `T` or a space, an optional `Z`, surrounding spaces
    /// and unpadded numbers allowed, years 0–9999; always UTC (no offsets, unlike
    /// `parseISO8601`, which reads what traces write). Returns seconds since 1970, or nil.
    public static func parseTypedUTC(_ text: String) -> Double? {
        var body = text.trimmingWhitespace()
        if body.hasSuffix("Z") || body.hasSuffix("z") { body.removeLast() }
        let halves = body.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard halves.count == 2 else { return nil }
        let date = halves[0].split(separator: "-")
        let time = halves[1].split(separator: ":")
        guard date.count == 3, time.count == 3 || time.count == 2,
              let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
              let hour = Int(time[0]), let minute = Int(time[1]), (0...9999).contains(year),
              (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        let second = time.count == 3 ? Double(time[2]) : 0
        guard let second, second >= 0, second < 61 else { return nil }
        return epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// `iso8601` of a whole count of milliseconds since 1970-01-01T00:00:00Z.
    public static func iso8601(millisecondsSince1970 milliseconds: Int64) -> String {
        guard milliseconds >= Int64(minimumMilliseconds), milliseconds <= Int64(maximumMilliseconds) else { return invalidISO8601 }
        var days = milliseconds / 86_400_000
        var ofDay = milliseconds % 86_400_000
        if ofDay < 0 {
            ofDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = civilDate(daysSince1970: Int(days))
        let hour = ofDay / 3_600_000, minute = ofDay / 60_000 % 60, second = ofDay / 1000 % 60, ms = ofDay % 1000
        func d(_ n: some BinaryInteger, _ width: Int) -> String { DecimalText.zeroPadded(n, width: width) }
        return "\(d(year, 4))-\(d(month, 2))-\(d(day, 2))T\(d(hour, 2)):\(d(minute, 2)):\(d(second, 2)).\(d(ms, 3))Z"
    }

    /// What `iso8601` prints for a time it cannot show: the shape of a time, with month and day
    /// 00, which no reader takes for a date (`parseISO8601` gives nil).
    public static let invalidISO8601 = "0000-00-00T00:00:00.000Z"
    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    static let minimumMilliseconds = -62_167_219_200_000.0
    static let maximumMilliseconds = 253_402_300_799_999.0

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
}
