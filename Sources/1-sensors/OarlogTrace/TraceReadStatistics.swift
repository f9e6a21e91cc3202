import OarlogCore

/// What a trace reader has seen so far: records by kind, lines it ignored, and rows it skipped
/// by reason with the first line number of each reason, so a user can find the bad spot.
/// Readable while reading (counts so far) and after the end.
public struct TraceReadStatistics: Sendable, Equatable {
    /// Why a row was skipped rather than delivered. Skips are deliberate, documented policy
    /// (docs/TRACE_FORMAT.md); anything else that is wrong is a `TraceError`.
    public enum SkipReason: Int, Sendable, Equatable, CaseIterable, CustomStringConvertible {
        /// A row kind this reader does not know (written by a newer version).
        case unknownKind
        /// The row's time is earlier than the previous row's: time never runs backward.
        case timeWentBackward
        /// NaN or infinity in a value that must be finite (time, acceleration, position).
        case nonFiniteValue
        /// The last line had no newline and did not parse: a recording cut off mid-write.
        case truncatedLastLine
        /// A `t,` header line after the first data row.
        case headerAfterData
        /// A foreign-format row whose position is unknown: its reference stroke is kept, no fix.
        case noPosition
        /// A foreign-format row with a value the device marks unknown where one is required.
        case unusableRow
        /// A foreign-format record of a kind that is not converted (NK interval/split records).
        case otherRecordType
        /// A required value beyond what any boat or sensor can produce (`TraceLimits`): a time
        /// more than 7 days into the session, an acceleration over 2000 m/s², a Talos sensor
        /// stamp far from the time the row was logged.
        case implausibleValue

        public var description: String {
            switch self {
            case .unknownKind: return "unknown row kind"
            case .timeWentBackward: return "time went backward"
            case .nonFiniteValue: return "NaN or infinite value"
            case .truncatedLastLine: return "truncated last line"
            case .headerAfterData: return "header after data"
            case .noPosition: return "no position (reference kept, no fix)"
            case .unusableRow: return "unusable row"
            case .otherRecordType: return "record type not converted"
            case .implausibleValue: return "physically implausible value"
            }
        }
    }

    public var accelRows = 0
    public var fixRows = 0
    public var noteRows = 0
    public var gapRows = 0
    public var referenceRows = 0
    /// Heart-rate rows (a strap's, or a device's per stroke or per second).
    public var heartRateRows = 0
    /// Instrumented oarlocks' strokes (EmPower figures).
    public var oarlockRows = 0
    /// `# key: value` lines delivered as `.metadata` (or metadata records a foreign reader made).
    public var metadataRecords = 0
    /// `#` lines that are not `key: value`: comments, ignored.
    public var commentLines = 0
    public var blankLines = 0
    /// `t,...` header lines before the first data row, ignored.
    public var headerLines = 0
    /// Lines consumed so far (complete lines, plus a last line without a newline).
    public var linesRead = 0
    /// Optional values (a speed, course, accuracy, altitude, UTC time or reference figure) beyond
    /// their physical bound (`TraceLimits`), read as unknown; their rows were kept.
    public private(set) var droppedValues = 0
    /// The 1-based line of the first dropped value, if any.
    public private(set) var firstDroppedValueLine: Int?

    private var skipCounts = [Int](repeating: 0, count: SkipReason.allCases.count)
    private var firstSkipLines = [Int](repeating: 0, count: SkipReason.allCases.count)

    public init() {}

    /// How many rows were skipped for `reason`.
    public func skipped(_ reason: SkipReason) -> Int { skipCounts[reason.rawValue] }

    /// The 1-based line of the first row skipped for `reason`, if any.
    public func firstSkippedLine(_ reason: SkipReason) -> Int? {
        let line = firstSkipLines[reason.rawValue]
        return line == 0 ? nil : line
    }

    public var totalSkipped: Int { skipCounts.reduce(0, +) }

    /// Records delivered (data rows plus metadata).
    public var totalRecords: Int {
        accelRows + fixRows + noteRows + gapRows + referenceRows + heartRateRows + oarlockRows + metadataRecords
    }

    /// Records with a time (everything but metadata).
    public var dataRows: Int { accelRows + fixRows + noteRows + gapRows + referenceRows + heartRateRows + oarlockRows }

    mutating func recordSkip(_ reason: SkipReason, line: Int) {
        skipCounts[reason.rawValue] += 1
        // The earliest line (readers that judge rows after reading them all may count out of order).
        if firstSkipLines[reason.rawValue] == 0 || line < firstSkipLines[reason.rawValue] {
            firstSkipLines[reason.rawValue] = line
        }
    }

    mutating func recordDroppedValues(_ count: Int, line: Int) {
        guard count > 0 else { return }
        droppedValues += count
        if firstDroppedValueLine.map({ line < $0 }) ?? true { firstDroppedValueLine = line }
    }

    mutating func count(_ record: TraceRecord) {
        switch record {
        case .accel: accelRows += 1
        case .fix: fixRows += 1
        case .note: noteRows += 1
        case .gap: gapRows += 1
        case .reference: referenceRows += 1
        case .heartRate: heartRateRows += 1
        case .oarlock: oarlockRows += 1
        case .metadata: metadataRecords += 1
        }
    }
}

/// A record source that keeps `TraceReadStatistics` (every reader in this module does).
public protocol TraceStatisticsReporting {
    var statistics: TraceReadStatistics { get }
}
