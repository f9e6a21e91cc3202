/// Exports that hold only summaries (one row per interval or workout, no strokes and no track):
/// recognised so that the refusal says what the file lacks and which export to use instead.
enum SummaryOnlyExports {
    /// The refusal for a summary-only export, or nil if `prefix` is not one.
    static func refusal(prefix: [UInt8]) -> String? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = String(decoding: bytes.prefix { $0 != ASCII.newline && $0 != ASCII.carriageReturn }, as: UTF8.self)
        if first.hasPrefix("Workout #,Workout Name,Interval #") {
            return "this is CrewNerd's interval summary (one row per interval: no strokes, no positions, "
                + "nothing to replay); export the workout from CrewNerd as TCX or its per-stroke CSV instead"
        }
        return nil
    }
}
