import Foundation

/// What the web API may say about files: their names, never where they are. An absolute path in
/// an answer or an error message tells a stranger on the boat's Wi-Fi the board's layout (the
/// user, the data directory), so every absolute path is cut to its last component.
public enum PathText {
    /// `text` with every absolute path (`/a/b/c.oarlog`, two segments or more) cut to its file
    /// name (`c.oarlog`); text without one is returned unchanged.
    public static func fileNamesOnly(_ text: String) -> String {
        guard text.contains("/") else { return text }
        var out = ""
        var rest = Substring(text)
        while let slash = rest.firstIndex(of: "/") {
            let before = rest[..<slash]
            // A path starts at a slash that does not follow a word character ("1/2", "km/h" stay).
            if let last = before.last, !isSeparator(last) {
                out += rest[...slash]
                rest = rest[rest.index(after: slash)...]
                continue
            }
            out += before
            let end = rest[slash...].firstIndex(where: isSeparator) ?? rest.endIndex
            let path = rest[slash..<end]
            let parts = path.split(separator: "/")
            out += parts.count >= 2 ? String(parts.last!) : String(path)
            rest = rest[end...]
        }
        return out + rest
    }

    /// What ends a path in a message: white space and the quotes and brackets around it.
    private static func isSeparator(_ c: Character) -> Bool {
        c.isWhitespace || c == "'" || c == "\"" || c == "`" || c == "(" || c == ")" || c == "," || c == ";" || c == "<" || c == ">"
    }
}
