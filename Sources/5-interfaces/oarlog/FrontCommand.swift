import OarlogTrace

/// What the front does with a command line: the top-level help, a plain replay, or everything
/// else (handed to `oarlog-full`, which parses and checks it).
enum FrontCommand: Equatable {
    case help
    case replay(PlainReplayRequest)
    case full

    /// A command line is a plain replay when it is `replay`, one trace and nothing but `--json`,
    /// `--strokes` and a known `--format` (each at most once); anything else, even a help flag,
    /// an unknown option or a second file, is `oarlog-full`'s to read (and to refuse).
    init(_ arguments: [String]) {
        if arguments.count == 1, ["--help", "-h", "help"].contains(arguments[0]) {
            self = .help
            return
        }
        guard arguments.first == "replay", let request = PlainReplayRequest(arguments.dropFirst()) else {
            self = .full
            return
        }
        self = .replay(request)
    }
}

/// `oarlog replay TRACE [--json] [--strokes] [--format F]`.
struct PlainReplayRequest: Equatable {
    var trace: String
    var json = false
    var strokes = false
    var format: TraceFormat?

    init?(_ words: ArraySlice<String>) {
        var trace: String?
        var seen: Set<String> = []
        var i = words.startIndex
        while i < words.endIndex {
            let word = words[i]
            var name = word
            var value: String?
            if word.hasPrefix("--format=") {
                name = "--format"
                value = String(word.dropFirst("--format=".count))
            } else if word == "--format" {
                i += 1
                guard i < words.endIndex else { return nil }
                value = words[i]
            }
            if name.hasPrefix("-") {
                guard !seen.contains(name) else { return nil }
                seen.insert(name)
            }
            switch name {
            case "--json": json = true
            case "--strokes": strokes = true
            case "--format":
                guard let value, let format = TraceFormat(rawValue: value) else { return nil }
                self.format = format
            default:
                guard !word.hasPrefix("-"), trace == nil else { return nil }
                trace = word
            }
            i += 1
        }
        guard let trace else { return nil }
        self.trace = trace
    }
}
