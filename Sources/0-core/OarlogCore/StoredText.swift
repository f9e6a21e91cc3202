/// Text a person typed (a note, a session title) as Oarlog keeps it, and stored text as a terminal
/// shows it. A phone, a boat over MQTT or an old file can carry control characters: ESC starts a
/// terminal escape sequence (it can rewrite the screen `oarlog show` prints), BEL rings, NUL cuts
/// C strings, and the bidirectional overrides make "tsal" read as "last". None of them belongs in
/// a one-line note or title.
public enum StoredText {
    /// `text` as it is stored: tabs and line breaks (LF, CR, U+2028, U+2029, NEL) become one space
    /// each (a note or title is one line); every other C0 or C1 control character, DEL, and the
    /// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are removed.
    /// Leading and trailing spaces are dropped. Everything else — accents, emoji, right-to-left
    /// scripts themselves — is kept as typed.
    public static func cleaned(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isLineBreakOrTab(scalar.value) {
                out.append(" ")
            } else if !isControl(scalar.value) {
                out.append(scalar)
            }
        }
        return String(out).trimmingWhitespace()
    }

    /// `text` safe to print on a terminal: each control character and bidirectional control is
    /// shown as `\u{1B}` (newlines too, unless `keepingNewlines`: a table's own line ends). Clean
    /// text is unchanged.
    public static func escapedForTerminal(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0.value) || isLineBreakOrTab($0.value) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if keepingNewlines && v == 0x0A {
                out.unicodeScalars.append(scalar)
            } else if isControl(v) || isLineBreakOrTab(v) {
                out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Tab, LF, VT, FF, CR, NEL (U+0085), line and paragraph separators.
    static func isLineBreakOrTab(_ v: UInt32) -> Bool {
        (0x09...0x0D).contains(v) || v == 0x85 || v == 0x2028 || v == 0x2029
    }

    /// C0 (other than the line breaks and tab), DEL, C1, and the bidi embeddings, overrides and isolates.
    static func isControl(_ v: UInt32) -> Bool {
        if isLineBreakOrTab(v) { return false }
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }
}
