#if canImport(Glibc)
import Glibc
#endif
import OarlogCore
import OarlogTrace

/// A recorded trace opened for a replay: its reader (any supported format, detected unless
/// given), read ahead just far enough to know when it started, and what the reader skipped.
public struct TraceInput {
    public let path: String
    public let format: TraceFormat?
    /// The records, from the first (those read ahead come out first; the batch path passes on).
    public var source: LeadingRecords<AnyRecordSource>
    /// UTC at trace time 0: the trace's `start_utc`, else its first fix with a UTC time.
    public let startUTC: Double?
    /// The metadata the trace opens with (`device`, `device_serial`, `start_local`, `session_name`
    /// …), in order: read ahead with the records before the first that is not metadata.
    public let metadata: [(key: String, value: String)]

    /// `lookahead`: work on every accelerometer sample on the parsing thread of a native trace
    /// parsed ahead (`TraceOpener.open`).
    public init(path: String, format: TraceFormat? = nil, options: TraceOpenOptions = TraceOpenOptions(),
                lookahead: (any AccelLookahead)? = nil) throws {
        self.path = path
        self.format = format
        let ahead = try LeadingRecords.readingAhead(try TraceOpener.open(path: path, format: format, options: options,
                                                                         lookahead: lookahead))
        source = ahead.records
        startUTC = ahead.startUTC
        metadata = ahead.metadata
    }

    /// The last value of a leading metadata key, if the trace has it (and it is not empty).
    public func metadata(_ key: String) -> String? {
        metadata.last(where: { $0.key == key }).map(\.value).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where a saved replay is placed in UTC: the trace's own start, else the file's modification time.
    public var startUTCOrFileTime: Double {
        startUTC ?? Self.modificationTime(path) ?? 0
    }

    /// The reader's statistics (rows read and skipped, by reason).
    public var statistics: TraceReadStatistics? { TraceOpener.statistics(of: source.rest.base) }

    /// One line for the person, if the reader skipped rows (they are counted, never silently
    /// lost), naming the first line of each kind of skip.
    public var skipNote: String? { Self.skipNote(statistics, path: path) }

    public static func skipNote(_ statistics: TraceReadStatistics?, path: String) -> String? {
        guard let statistics, statistics.totalSkipped > 0 || statistics.droppedValues > 0 else { return nil }
        var parts: [String] = []
        if statistics.totalSkipped > 0 {
            var skips: [String] = []
            for reason in TraceReadStatistics.SkipReason.allCases where statistics.skipped(reason) > 0 {
                var part = "\(statistics.skipped(reason)) \(reason)"
                if let line = statistics.firstSkippedLine(reason) { part += " (first at line \(line))" }
                skips.append(part)
            }
            parts.append("skipped \(statistics.totalSkipped) rows: " + skips.joined(separator: ", "))
        }
        if statistics.droppedValues > 0 {
            parts.append("read \(statistics.droppedValues) physically impossible values as unknown (speed, course, accuracy, "
                + "a device's figure…)" + (statistics.firstDroppedValueLine.map { ", first at line \($0)" } ?? ""))
        }
        return "\(path): " + parts.joined(separator: "; ")
    }

    /// Modification time of a file, seconds since 1970.
    public static func modificationTime(_ path: String) -> Double? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) * 1e-9
    }
}
