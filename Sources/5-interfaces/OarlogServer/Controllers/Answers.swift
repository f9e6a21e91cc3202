/// The small answers the controllers give as Codable values (the long ones — a session with
/// its strokes, a trail, the fleet — are written by `JSONWriter` as they are made).
enum Answers {
    /// A recording started or stopped: the session's id.
    struct Recorded: Encodable {
        let id: String
    }

    /// A phone paired: the token for the controls.
    struct Paired: Encodable {
        let token: String
    }

    /// A session's share key and the link that plays it back.
    struct Share: Encodable {
        let share: String
        let link: String
    }

    /// Whether this server is a coach's launch.
    struct Coach: Encodable {
        let coach: Bool
    }
}
