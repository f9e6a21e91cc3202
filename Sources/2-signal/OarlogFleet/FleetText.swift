/// How long each text in a fleet message may be, in UTF-8 bytes: the boat cuts its texts to these
/// (on a character boundary, `clip`) before it publishes, and a receiver refuses a payload with a
/// longer one. One table for both sides, so that whatever the boat may send, the coach and the
/// archive accept: a 200-character title of emoji ("🚣" is 4 bytes) is 800 bytes, within 1,024.
public enum FleetText {
    /// The session's title (the web app and `PATCH` allow 200 characters).
    public static let titleBytes = 1024
    /// The boat's name as the crew wrote it.
    public static let nameBytes = 200
    /// A note (the web app allows 2,000 characters; most are far shorter).
    public static let noteBytes = 8192
    /// A fence event's display line.
    public static let fenceTextBytes = 4096
    /// A fence, gate or course name.
    public static let fenceNameBytes = 200
    /// A fence event's name (`fence.cross`), and a field's key.
    public static let eventNameBytes = 64
    /// A fence event field's value.
    public static let fieldValueBytes = 400
    /// Fields of one fence event.
    public static let fenceFields = 32

    /// `text` cut to at most `bytes` bytes of UTF-8 without splitting a character (a flag, an
    /// emoji with its skin tone, a letter with its accents stay whole or go whole).
    public static func clip(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var out = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= bytes else { break }
            out.append(character)
            used += size
        }
        return out
    }
}
