#if canImport(Glibc)
import Glibc
#endif
import OarlogCore

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
        return minutesSeconds(value)
    }

    /// `10:00.0` or `1:15:13.0` (an elapsed time), or "—".
    public static func duration(_ value: Seconds?) -> String {
        guard let value, value.isFinite, value >= 0 else { return noData }
        let tenths = Int((value * 10).rounded())
        let hours = tenths / 36000
        if hours > 0 {
            let rest = tenths - hours * 36000
            return "\(hours):" + pad2(rest / 600) + ":" + pad2((rest % 600) / 10) + ".\(rest % 10)"
        }
        return minutesSeconds(value)
    }

    /// `14,360 m`, or "—".
    public static func distance(_ value: Metres?) -> String {
        guard let value, value.isFinite else { return noData }
        return grouped(Int(value.rounded())) + " m"
    }

    /// A number with a fixed count of decimals (`24.0`), or "—".
    public static func decimal(_ value: Double?, places: Int = 1, unit: String = "") -> String {
        guard let value, value.isFinite else { return noData }
        return fixed(value, places: places) + (unit.isEmpty ? "" : " " + unit)
    }

    /// Fixed-point formatting without Foundation.
    public static func fixed(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let negative = value < 0 && scaled > 0
        let whole = Int(scaled / scale)
        let frac = Int(scaled - Double(whole) * scale)
        var fracText = String(frac)
        while fracText.count < places { fracText = "0" + fracText }
        return (negative ? "-" : "") + String(whole) + (places > 0 ? "." + fracText : "")
    }

    private static func minutesSeconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 600):" + pad2((tenths % 600) / 10) + ".\(tenths % 10)"
    }

    private static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private static func grouped(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
