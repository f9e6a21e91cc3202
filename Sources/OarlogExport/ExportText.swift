import OarlogCore

/// Text helpers for the exporters: UTC times as ISO 8601 (via `UTCTime`), numbers in fixed
/// decimals (XML schema decimals and CSV cells must never use exponents), XML escaping and CSV
/// quoting (JSON strings: `JSONString`). No Foundation, so the output never depends on a locale.
public enum ExportText {
    /// Seconds from 1970-01-01T00:00:00Z to the FIT epoch, 1989-12-31T00:00:00Z.
    public static let fitEpochOffset: Double = 631_065_600

    /// `2026-05-02T07:14:03.250Z`: UTC with milliseconds rounded to the nearest (`UTCTime`).
    public static func iso8601(_ epochSeconds: Double) -> String {
        UTCTime.iso8601(epochSeconds, millisecondRounding: .toNearestOrAwayFromZero)
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

    /// A CSV cell: quoted when it holds a comma, quote or line break.
    public static func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var out = "\""
        for c in text {
            if c == "\"" { out += "\"\"" } else { out.append(c) }
        }
        return out + "\""
    }

    static func pad<I: BinaryInteger>(_ value: I, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
