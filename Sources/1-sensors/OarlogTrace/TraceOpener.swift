import OarlogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a trace file of any supported format, detecting the format from its first bytes when
/// none is given.
public enum TraceOpener {
    /// Bytes read to detect a format.
    public static let sniffBytes = 4096

    /// A record source for `path`. With `format` nil the format is detected (`detectFormat`).
    /// Every source this returns also reports `TraceReadStatistics` (see `statistics(of:)`),
    /// except the Quiske reader (which refuses a bad row rather than skipping it).
    /// `lookahead`: work on every accelerometer sample on the parsing thread, for a native trace
    /// long enough to be parsed ahead (`AccelLookahead`); any other source leaves it unattached.
    public static func open(path: String, format: TraceFormat? = nil,
                            options: TraceOpenOptions = TraceOpenOptions(),
                            lookahead: (any AccelLookahead)? = nil) throws -> any RecordSource {
        switch try format ?? detectFormat(path: path) {
        case .native: return try openNative(path: path, lookahead: lookahead)
        case .speedcoach: return try SpeedCoachReader(path: path)
        case .nkLogbook: return try NKLogbookReader(path: path)
        case .talos: return try makeTalosReader(path: path)
        case .quiske: return try makeQuiskeReader(path: path)
        case .speedcoachV1: return try SpeedCoachV1Reader(path: path)
        case .boatcoach: return try BoatCoachReader(path: path)
        case .coxmate: return try CoxMateReader(path: path)
        case .tcx: return try TCXReader(path: path, options: options)
        case .gpx: return try GPXReader(path: path, options: options)
        case .fit: return try FITReader(path: path, options: options)
        }
    }

    /// The statistics of a source this opener returned (a snapshot; ask again for fresh counts),
    /// or nil if that reader keeps none.
    public static func statistics(of source: any RecordSource) -> TraceReadStatistics? {
        (source as? any TraceStatisticsReporting)?.statistics
    }

    /// A native trace at least this long is parsed ahead on a second thread
    /// (`ParseAheadTraceReader`); a shorter one is read on the caller's thread.
    public static let parseAheadMinimumBytes = 1 << 20

    /// The native reader: parsing ahead on a second thread for a long file, else on this one
    /// (and on this one, too, if no thread can be started). The records, errors and statistics
    /// are the same either way.
    static func openNative(path: String, lookahead: (any AccelLookahead)? = nil) throws -> any RecordSource {
        let reader = try NativeTraceReader(path: path)
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) >= parseAheadMinimumBytes else {
            return reader
        }
        return (try? ParseAheadTraceReader(reader: reader, lookahead: lookahead)) ?? reader
    }

    /// The Talos Rowing log reader.
    static func makeTalosReader(path: String) throws -> any RecordSource {
        try TalosLogReader(path: path)
    }

    /// The Quiske per-stroke reader (curves chained into a trace at the recorded rate).
    static func makeQuiskeReader(path: String) throws -> any RecordSource {
        try QuiskeCurveReader(path: path)
    }

    /// Reads the first `sniffBytes` of `path` and detects the format. Throws a clear error for
    /// a file that cannot be opened, is empty, binary, or of no known format.
    public static func detectFormat(path: String) throws -> TraceFormat {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw TraceError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: sniffBytes)
        var count = 0
        while count < sniffBytes {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, sniffBytes - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw TraceError(.io, file: path, "read failed: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        if bytes.isEmpty { throw TraceError(.empty, file: path, "the file is empty") }
        if bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B {
            throw TraceError(.notText, file: path, "this is a gzip-compressed file, not a trace: decompress it first")
        }
        if isFIT(bytes) { return .fit }
        if bytes.contains(0) { throw TraceError(.notText, file: path, "NUL bytes: this is a binary file, not a trace") }
        if let refusal = SummaryOnlyExports.refusal(prefix: bytes) { throw TraceError(.unsupportedFormat, file: path, refusal) }
        guard let format = detectFormat(prefix: bytes) else {
            throw TraceError(.unsupportedFormat, file: path,
                             "unrecognised trace format; the formats are: \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")) (name one explicitly if detection fails)")
        }
        return format
    }

    /// Detects the format from the first bytes of a file:
    /// - speedcoach: the first line starts `Session Information:`;
    /// - nk-logbook: the first line (a header) names `sessionStrokeIndex` or `gpsTotalDistance`;
    /// - quiske: the first line starts `Quiske,`;
    /// - talos: the first line is `<digits> <UPPER_CASE_EVENT> ...@@`;
    /// - native: the first non-blank line starts with `#`, with `t,`, or is a number followed by
    ///   a known row kind (`accel`, `gps`, `note`, `gap`, `ref`).
    public static func detectFormat(prefix: [UInt8]) -> TraceFormat? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let lines = bytes.split(separator: ASCII.newline, omittingEmptySubsequences: false)
            .map { $0.last == ASCII.carriageReturn ? $0.dropLast() : $0 }
        guard let firstLine = lines.first else { return nil }
        let first = String(decoding: firstLine, as: UTF8.self)
        let texts = lines.prefix(40).map { String(decoding: $0, as: UTF8.self) }
        if first.hasPrefix("Session Information:") || SpeedCoachReader.recognises(lines: texts) { return .speedcoach }
        if SpeedCoachV1Reader.recognises(lines: texts) { return .speedcoachV1 }
        if BoatCoachReader.recognises(lines: texts) { return .boatcoach }
        if CoxMateReader.recognises(lines: texts) { return .coxmate }
        if TCXReader.recognises(lines: texts) { return .tcx }
        if GPXReader.recognises(lines: texts) { return .gpx }
        if first.hasPrefix("Quiske,") { return .quiske }
        if first.contains("sessionStrokeIndex") || first.contains("gpsTotalDistance") { return .nkLogbook }
        if isTalosLine(first) { return .talos }
        guard let line = lines.first(where: { !$0.allSatisfy { $0 == ASCII.space || $0 == ASCII.tab } }) else { return nil }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("#") || text.hasPrefix("t,") { return .native }
        let fields = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        if fields.count >= 2, Double(fields[0]) != nil, ["accel", "gps", "note", "gap", "ref"].contains(fields[1]) {
            return .native
        }
        return nil
    }

    /// A FIT file: a header of 12 or 14 bytes with ".FIT" at bytes 8–11.
    public static func isFIT(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && (bytes[0] == 12 || bytes[0] == 14) && Array(bytes[8..<12]) == Array(".FIT".utf8)
    }

    /// `1288708916857 LOGFILE_VERSION -1 3@@`: digits, a space, an upper-case event name, and `@@`
    /// at the end.
    static func isTalosLine(_ line: String) -> Bool {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, line.hasSuffix("@@"),
              parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
              parts[1].allSatisfy({ ($0.isASCII && $0.isUppercase) || $0 == "_" || ($0.isASCII && $0.isNumber) }),
              parts[1].first?.isUppercase == true
        else { return false }
        return true
    }
}
