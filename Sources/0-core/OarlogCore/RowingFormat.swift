#if canImport(Glibc)
import Glibc
#endif

/// How a rower reads numbers: splits as m:ss.t per 500 m, times as h:mm:ss.t, rates to a tenth,
/// distances in whole metres. A value with no data shows as "—".
public enum RowingFormat {
    public static let noData = "—"

    /// Whether a stroke count is a figure or "no data": strokes were found, or there was an
    /// accelerometer or another device's strokes to find them in (0 strokes then means none rowed).
    public static func strokesKnown(strokes: Int, accelerometerSamples: Int, referenceStrokes: Int) -> Bool {
        strokes > 0 || accelerometerSamples > 0 || referenceStrokes > 0
    }

    /// `1:59.4` (a split, s/500 m), or "—".
    public static func split(_ value: SecondsPer500m?) -> String {
        guard let value, value.isFinite, value >= 0 else { return noData }
        return clock(value, hours: false)
    }

    /// `10:00.0` or `1:15:13.0` (an elapsed time), or "—".
    public static func duration(_ value: Seconds?) -> String {
        guard let value, value.isFinite, value >= 0 else { return noData }
        return clock(value, hours: true)
    }

    /// `14,360 m`, or "—".
    public static func distance(_ value: Metres?) -> String {
        guard let value, value.isFinite else { return noData }
        return grouped(DecimalText.fixed(value, places: 0, nonFinite: noData)) + " m"
    }

    /// A number with a fixed count of decimals (`24.0`), or "—" (`DecimalText.fixed`).
    public static func decimal(_ value: Double?, places: Int = 1, unit: String = "") -> String {
        guard let value, value.isFinite else { return noData }
        return DecimalText.fixed(value, places: places, nonFinite: noData) + (unit.isEmpty ? "" : " " + unit)
    }

    /// `decimal(value, places: places)`: the command line's name for it.
    public static func fixed(_ value: Double, places: Int) -> String {
        decimal(value, places: places)
    }

    /// `m:ss.t`, or `h:mm:ss.t` when `hours` and there is a whole hour, of a finite `value` ≥ 0.
    private static func clock(_ value: Double, hours: Bool) -> String {
        let tenths = (value * 10).rounded()
        guard tenths < 9e15 else { return hugeClock(value, hours: hours) }
        var t = Int(tenths), text = ""
        if hours, t >= 36_000 {
            text = "\(t / 36_000):" + pad2(t % 36_000 / 600) + ":"
            t %= 600
        } else {
            text = "\(t / 600):"
        }
        return text + pad2(t % 600 / 10) + ".\(t % 10)"
    }

    /// `clock` of a value too large for whole tenths in an `Int` (over 28 million years): the
    /// leading count in full digits, the rest from the exact remainder.
    private static func hugeClock(_ value: Double, hours: Bool) -> String {
        let unit: Double = hours ? 3600 : 60
        let rest = value.truncatingRemainder(dividingBy: unit)
        let lead = DecimalText.fixed(((value - rest) / unit).rounded(), places: 0, nonFinite: noData)
        let restTenths = min(Int(unit) * 10 - 1, Int((rest * 10).rounded()))
        let tail = pad2(restTenths % 600 / 10) + ".\(restTenths % 10)"
        return lead + ":" + (hours ? pad2(restTenths / 600) + ":" : "") + tail
    }

    private static func pad2(_ n: Int) -> String { DecimalText.zeroPadded(n, width: 2) }

    /// `-12345` → `-12,345`.
    private static func grouped(_ number: String) -> String {
        let negative = number.hasPrefix("-")
        let digits = negative ? number.dropFirst() : Substring(number)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (negative ? "-" : "") + out
    }
}
