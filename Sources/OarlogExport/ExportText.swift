/// Text helpers for the exporters: UTC times as ISO 8601, numbers in fixed decimals (XML schema
/// decimals and CSV cells must never use exponents), XML and JSON escaping. No Foundation, so the
/// output never depends on a locale.
public enum ExportText {
    /// Seconds from 1970-01-01T00:00:00Z to the FIT epoch, 1989-12-31T00:00:00Z.
    public static let fitEpochOffset: Double = 631_065_600

    /// `2026-05-02T07:14:03.250Z` (milliseconds, always UTC).
    public static func iso8601(_ epochSeconds: Double) -> String {
        let milliseconds = Int64((epochSeconds * 1000).rounded())
        var days = milliseconds / 86_400_000
        var ofDay = milliseconds % 86_400_000
        if ofDay < 0 {
            ofDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = ofDay / 3_600_000, minute = ofDay / 60_000 % 60, second = ofDay / 1000 % 60, ms = ofDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(ms, 3))Z"
    }

    /// Parses ISO 8601 UTC as traces write it: `YYYY-MM-DDTHH:MM:SS[.fff]` followed by `Z` or
    /// `+00:00` (or an offset such as `+02:00`, applied). Returns seconds since 1970, or nil.
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

    /// `value` with exactly `decimals` digits after the point, rounded half away from zero
    /// (`-0.000` prints as `0.000`). Non-finite values print as `nan`; callers leave them out.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "nan" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e17 else { return String(value) }
        let units = Int64(scaled)
        let p = Int64(scale)
        let whole = units / p, frac = units % p
        let sign = value < 0 && units != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + pad(frac, decimals)
    }

    /// Text escaped for XML element content and attribute values.
    public static func xmlEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters: drop them.
                if c.value < 0x20 && c != "\n" && c != "\t" && c != "\r" { continue }
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A JSON string literal (quotes included).
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 {
                    out += "\\u00" + hexByte(UInt8(c.value))
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }

    /// A CSV cell: quoted when it holds a comma, quote or line break.
    public static func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var out = "\""
        for c in text {
            if c == "\"" { out += "\"\"" } else { out.append(c) }
        }
        return out + "\""
    }

    static func hexByte(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
    }

    static func pad<I: BinaryInteger>(_ value: I, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil-days method).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date `days` after 1970-01-01.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = Int(days) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
