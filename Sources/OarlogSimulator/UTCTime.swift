import OarlogCore

/// UTC calendar conversions for metadata (`start_utc`), without Foundation.
/// Proleptic Gregorian calendar, days counted from 1970-01-01 (H. Hinnant's civil algorithms).
public enum UTCTime {
    /// Seconds since 1970-01-01T00:00:00Z of a UTC calendar time.
    public static func epochSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0,
                                    second: Double = 0) -> Double {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days) * 86_400 + Double(hour * 3600 + minute * 60) + second
    }

    /// ISO 8601 text with milliseconds, e.g. `2026-05-02T07:14:03.250Z`.
    public static func iso8601(_ epochSeconds: Double) -> String {
        let millisecondsTotal = Int64((epochSeconds * 1000).rounded(.down))
        var days = millisecondsTotal / 86_400_000
        var millisecondsOfDay = millisecondsTotal % 86_400_000
        if millisecondsOfDay < 0 {
            millisecondsOfDay += 86_400_000
            days -= 1
        }
        let z = Int(days) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let ms = Int(millisecondsOfDay)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(ms / 3_600_000, 2)):"
            + "\(pad(ms / 60_000 % 60, 2)):\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z` (the `Z` may be omitted; UTC is assumed).
    public static func parseISO8601(_ text: String) -> Double? {
        var body = text.trimmingSpaces()
        if body.hasSuffix("Z") || body.hasSuffix("z") { body.removeLast() }
        let halves = body.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard halves.count == 2 else { return nil }
        let date = halves[0].split(separator: "-")
        let time = halves[1].split(separator: ":")
        guard date.count == 3, time.count == 3 || time.count == 2,
              let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
              let hour = Int(time[0]), let minute = Int(time[1]),
              (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        let second = time.count == 3 ? Double(time[2]) : 0
        guard let second, second >= 0, second < 61 else { return nil }
        return epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
