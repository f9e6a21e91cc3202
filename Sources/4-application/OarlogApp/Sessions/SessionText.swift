import OarlogCore
import OarlogSession

/// How sessions are named and dated for a person: ids, UTC dates, file sizes.
public enum SessionText {
    /// `2026-05-02 07:00` (UTC).
    public static func date(_ utc: Double) -> String {
        let iso = UTCTime.iso8601(utc)
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }

    /// `2026-05-02T07:00:00Z`.
    public static func iso(_ utc: Double) -> String {
        String(UTCTime.iso8601(utc).prefix(19)) + "Z"
    }

    /// `1.2 MB`.
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return RowingFormat.decimal(Double(bytes) / Double(1 << 20), places: 1) + " MB" }
        if bytes >= 1 << 10 { return RowingFormat.decimal(Double(bytes) / Double(1 << 10), places: 1) + " KB" }
        return "\(bytes) bytes"
    }

    /// The session id of a path (its file name without `.oarlog`).
    public static func id(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = "." + SessionFormat.fileExtension
        return name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
    }

    /// The title a person sees: the session's own, else its date.
    public static func title(_ metadata: SessionMetadata) -> String {
        metadata.title.isEmpty ? date(metadata.startUTC) + " UTC" : metadata.title
    }

    /// `12:30` (m:ss), `1:02:30` (h:mm:ss), `750` or `750s` → seconds; decimals allowed in the
    /// last field; nil for anything else.
    public static func sessionTime(_ text: String) -> Seconds? {
        var t = text.filter { !$0.isWhitespace }
        if t.hasSuffix("s") { t.removeLast() }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let last = Double(parts[parts.count - 1]), last >= 0, last.isFinite else { return nil }
        var total = last
        var scale = 60.0
        for (i, part) in parts.dropLast().enumerated().reversed() {
            guard let v = Int(part), v >= 0 else { return nil }
            if i > 0 && v >= 60 { return nil }
            total += Double(v) * scale
            scale *= 60
        }
        if parts.count > 1 && last >= 60 { return nil }
        return total
    }
}
