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
    /// (`-0.000` prints as `0.000`), never an exponent (`DecimalText.fixed`). NaN and ±infinity
    /// print as nothing: a CSV cell with no value. The XML writers never get one (the assembler
    /// keeps only finite times, positions, altitudes and speeds); JSON uses `jsonNumber`.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        DecimalText.fixed(value, places: decimals, nonFinite: "")
    }

    /// `fixed` for JSON: `null` when `value` is not a number.
    public static func jsonNumber(_ value: Double, _ decimals: Int) -> String {
        DecimalText.fixed(value, places: decimals, nonFinite: "null")
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
}
