import ArgumentParser

/// How a person names a kept session on the command line (`SessionStore.path(of:)` finds it).
enum SessionArgument {
    static let help: ArgumentHelp = "The session: a path, an id (or the start of one) in the data directory, or `last`."
}
