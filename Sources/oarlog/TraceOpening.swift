import OarlogCore
import OarlogReport
import OarlogTrace

/// Opens a trace of any supported format (detected unless given).
func openTrace(_ path: String, format: TraceFormat?) throws -> any RecordSource {
    try TraceOpener.open(path: path, format: format)
}

/// Tells the user, on standard error, about rows the reader skipped (they are counted, never
/// silently lost), naming the first line of each kind of skip.
func reportSkips(of source: any RecordSource, path: String) {
    guard let statistics = TraceOpener.statistics(of: source), statistics.totalSkipped > 0 else { return }
    var parts: [String] = []
    for reason in TraceReadStatistics.SkipReason.allCases where statistics.skipped(reason) > 0 {
        var part = "\(statistics.skipped(reason)) \(reason)"
        if let line = statistics.firstSkippedLine(reason) { part += " (first at line \(line))" }
        parts.append(part)
    }
    StandardStreams.error("note: \(path): skipped \(statistics.totalSkipped) rows: " + parts.joined(separator: ", ") + "\n")
}
