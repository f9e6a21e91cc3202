/// Plain-text tables for a terminal: a label/value list and aligned columns, and the padding
/// every column of text in the reports uses.
public enum TextTable {
    /// `s` followed by spaces up to `width` characters (left-aligned); a longer `s` is not cut.
    public static func padRight(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    /// Spaces then `s`, up to `width` characters (right-aligned); a longer `s` is not cut.
    public static func padLeft(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    /// `label  value` lines, labels padded to the longest.
    public static func labelled(_ rows: [(String, String)]) -> String {
        let width = rows.map { $0.0.count }.max() ?? 0
        var out = ""
        for (label, value) in rows { out += padRight(label, width) + "  " + value + "\n" }
        return out
    }

    /// Rows in columns two spaces apart; the columns in `rightAligned` padded on the left; the
    /// last column not padded.
    public static func columns(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        guard let first = rows.first else { return "" }
        let widths = (0..<first.count).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        var out = ""
        for row in rows {
            var line = ""
            for (c, cell) in row.enumerated() {
                if c > 0 { line += "  " }
                line += rightAligned.contains(c) ? padLeft(cell, widths[c]) : (c == row.count - 1 ? cell : padRight(cell, widths[c]))
            }
            out += line + "\n"
        }
        return out
    }
}
