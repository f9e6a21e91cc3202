import OarlogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams the native CSV trace (docs/TRACE_FORMAT.md) from a file, record by record, in
/// bounded memory: the file is read in 256 KiB chunks into one reused buffer and parsed in
/// place; numeric rows allocate nothing. Plain accelerometer rows take a one-pass fast path
/// (`FastAccelRow`); every other line, and any accel row it declines, the general path. What is an error and what is a counted skip is the
/// documented policy (docs/TRACE_FORMAT.md, "Reading policy"); `statistics` counts both kinds of
/// line as it goes.
///
/// An error is final: the reader stays on the bad line and throws the same error again.
/// The reader owns an open file; do not use two copies of one reader.
public struct NativeTraceReader: RecordSource, TraceStatisticsReporting {
    /// The format version this reader understands (`# oarlog-trace: 1`).
    public static let formatVersion = "1"
    /// Bytes read from the file at a time.
    public static let defaultChunkBytes = 256 * 1024
    /// A longer line is an error (`TraceError.lineTooLong`): no row of the format comes close.
    public static let defaultMaxLineBytes = 64 * 1024

    var input: ChunkedLineBuffer
    /// Whether values are held to `TraceLimits` (always, but in tests of the number parser over
    /// the whole Float and Double range).
    let checksPlausibility: Bool
    private var counts = TraceReadStatistics()
    /// Time of the last delivered (or skipped-for-NaN) data row; rows before it are skipped.
    private var lastTime: Double = 0
    /// Whether a data row has been consumed (a later `t,` header is then skipped).
    private var sawDataRow = false

    public var path: String { input.path }

    /// Counts so far; final once `next()` has returned nil.
    public var statistics: TraceReadStatistics {
        var s = counts
        s.linesRead = input.lineNumber - 1
        return s
    }

    /// Opens `path`. Throws if it cannot be opened, is empty, or is not text (gzip, NUL bytes,
    /// invalid UTF-8 in the first 4 KiB).
    public init(path: String,
                chunkBytes: Int = NativeTraceReader.defaultChunkBytes,
                maxLineBytes: Int = NativeTraceReader.defaultMaxLineBytes) throws {
        try self.init(path: path, chunkBytes: chunkBytes, maxLineBytes: maxLineBytes, checkingPlausibility: true)
    }

    /// `checkingPlausibility: false` reads every finite value as it is (for tests of the number
    /// parser over the whole Float and Double range); the readers never do.
    init(path: String, chunkBytes: Int, maxLineBytes: Int, checkingPlausibility: Bool) throws {
        input = try ChunkedLineBuffer(path: path, chunkBytes: max(chunkBytes, 64), maxLineBytes: max(maxLineBytes, 64))
        checksPlausibility = checkingPlausibility
    }

    // MARK: Record by record

    public mutating func next() throws -> TraceRecord? {
        // A plain accel row wholly in the buffer, in order: the common case, kept small. (At the
        // end of the buffer the parser meets the `\n` sentinel and declines.)
        let ls = input.pos
        if let (sample, nl) = FastAccelRow.parse(input.base, at: ls), nl < input.end, sample.time >= lastTime {
            input.pos = nl &+ 1
            input.lineNumber &+= 1
            lastTime = sample.time
            counts.accelRows &+= 1
            sawDataRow = true
            return .accel(sample)
        }
        return try nextRecord()
    }

    /// `next()` for everything else: refills, other row kinds, skips, errors.
    @inline(never)
    private mutating func nextRecord() throws -> TraceRecord? {
        while true {
            let ls = input.pos
            if ls == input.end {
                if input.atEOF { return try finish() }
                try input.refill()
                continue
            }
            let c = input.base[ls]
            if Self.startsNumber(c) {
                switch fastAccelRow(at: ls) {
                case .sample(let sample, let nl):
                    input.consumeLine(endingAt: nl)
                    lastTime = sample.time
                    counts.accelRows += 1
                    sawDataRow = true
                    return .accel(sample)
                case .needMore:
                    try input.refill()
                    continue
                case .other:
                    if let record = try dataRow(at: ls) { return record }
                }
            } else if let record = try otherLine(at: ls) {
                return record
            }
        }
    }

    // MARK: Accelerometer batches

    /// Reads consecutive accelerometer rows straight into `buffer`, the fastest way through an
    /// accel-heavy trace. Returns how many were written; it stops early at the first line that is
    /// not a plain accel row (a fix, a note, metadata, a blank line, an error, a skip) and leaves
    /// that line for `next()`. 0 with a non-empty buffer means: call `next()` (it returns nil at
    /// the end of the trace).
    public mutating func readAccel(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        guard let out = buffer.baseAddress else { return 0 }
        var n = 0
        try accelLoop(maxCount: buffer.count) { out[n] = $0; n += 1 }
        return n
    }

    /// `readAccel(into:)` for an array: replaces the contents of `samples` with up to `maxCount`
    /// samples (capacity kept, so a reused array allocates nothing).
    @discardableResult
    public mutating func readAccel(into samples: inout [AccelSample], maxCount: Int) throws -> Int {
        samples.removeAll(keepingCapacity: true)
        samples.reserveCapacity(maxCount)
        var n = 0
        try accelLoop(maxCount: maxCount) { samples.append($0); n += 1 }
        return n
    }

    @inline(__always)
    private mutating func accelLoop(maxCount: Int, _ emit: (AccelSample) -> Void) throws {
        var n = 0
        defer {
            counts.accelRows += n
            if n > 0 { sawDataRow = true }
        }
        loop: while n < maxCount {
            // Whole rows already in the buffer, with the cursor, the line count and the last
            // time in locals (stores to the caller's buffer cannot alias them).
            let p = input.base
            let end = input.end
            var pos = input.pos
            var last = lastTime
            var got = 0
            let limit = maxCount - n
            while got < limit, let (sample, nl) = FastAccelRow.parse(p, at: pos), nl < end, sample.time >= last {
                emit(sample)
                got += 1
                last = sample.time
                pos = nl + 1
            }
            input.pos = pos
            input.lineNumber += got
            lastTime = last
            n += got
            if got == limit { break }
            // The row at `pos` is not a plain accel row, or the buffer ends in it: decide with
            // the refill and end-of-file rules.
            if pos == end {
                if input.atEOF { break }
                try input.refill()
                continue
            }
            switch fastAccelRow(at: pos) {
            case .sample(let sample, let nl):
                emit(sample)
                n += 1
                lastTime = sample.time
                input.consumeLine(endingAt: nl)
            case .needMore:
                try input.refill()
            case .other:
                break loop
            }
        }
    }

    // MARK: Fast path

    private enum FastAccel {
        case sample(AccelSample, Int)
        case needMore
        /// Not a plain, valid, in-order accel row: the general path decides.
        case other
    }

    @inline(__always)
    private static func startsNumber(_ c: UInt8) -> Bool {
        (c &- ASCII.zero) <= 9 || c == ASCII.minus || c == ASCII.plus || c == ASCII.dot
    }

    /// `t,accel,ax,ay,az` with finite values and `t` not before the last row.
    @inline(__always)
    private func fastAccelRow(at ls: Int) -> FastAccel {
        guard let (sample, nl) = FastAccelRow.parse(input.base, at: ls) else { return .other }
        if nl == input.end && !input.atEOF { return .needMore }
        guard sample.time >= lastTime else { return .other }
        return .sample(sample, nl)
    }

    // MARK: General path

    /// Any data row, with full checks and messages. Returns nil when the line was consumed
    /// without a record (a skip) or more input was read.
    private mutating func dataRow(at ls: Int) throws -> TraceRecord? {
        let nl = input.newline(from: ls)
        guard input.isComplete(nl) else { try input.refill(); return nil }
        try checkLength(ls, nl)
        let p = input.base
        let isUnterminatedLastLine = nl == input.end
        var le = nl
        if le > ls && p[le - 1] == ASCII.carriageReturn { le -= 1 }
        var row = RowScanner(p: p, lineStart: ls, lineEnd: le, i: ls, file: input.path, line: input.lineNumber)
        let line = input.lineNumber
        do {
            var values = PlausibleValues()
            values.enabled = checksPlausibility
            let (record, finite, plausible) = try NativeDataRow.parse(&row, &values)
            sawDataRow = true
            guard let record else {
                if isUnterminatedLastLine {
                    return skip(.truncatedLastLine, nl: nl)
                }
                return skip(.unknownKind, nl: nl)
            }
            let t = record.time ?? 0
            if !finite { lastTime = max(lastTime, 0); return skip(.nonFiniteValue, nl: nl) }
            if t < 0 {
                throw TraceError(.malformed, file: input.path, line: line, column: 1,
                                 "expected a time ≥ 0 s, found \(row.found(at: ls))")
            }
            if checksPlausibility && (!plausible || t > TraceLimits.maxSessionSeconds) {
                return skip(.implausibleValue, nl: nl)
            }
            if t < lastTime { return skip(.timeWentBackward, nl: nl) }
            lastTime = t
            input.consumeLine(endingAt: nl)
            counts.count(record)
            counts.recordDroppedValues(values.dropped, line: line)
            return record
        } catch let error as TraceError where error.kind == .malformed && isUnterminatedLastLine && counts.dataRows > 0 {
            sawDataRow = true
            return skip(.truncatedLastLine, nl: nl)
        }
    }

    private mutating func skip(_ reason: TraceReadStatistics.SkipReason, nl: Int) -> TraceRecord? {
        counts.recordSkip(reason, line: input.lineNumber)
        input.consumeLine(endingAt: nl)
        return nil
    }

    private func checkLength(_ ls: Int, _ nl: Int) throws {
        if nl - ls > input.maxLineBytes {
            throw TraceError(.lineTooLong, file: input.path, line: input.lineNumber, column: input.maxLineBytes + 1,
                             "line is longer than \(input.maxLineBytes) bytes")
        }
    }

    /// Lines that do not start with a number: blank, `#` metadata or comment, `t,` header.
    private mutating func otherLine(at ls: Int) throws -> TraceRecord? {
        let nl = input.newline(from: ls)
        guard input.isComplete(nl) else { try input.refill(); return nil }
        try checkLength(ls, nl)
        let p = input.base
        var le = nl
        if le > ls && p[le - 1] == ASCII.carriageReturn { le -= 1 }
        var k = ls
        while k < le && (p[k] == ASCII.space || p[k] == ASCII.tab) { k += 1 }
        if k == le {
            counts.blankLines += 1
            input.consumeLine(endingAt: nl)
            return nil
        }
        let c = p[ls]
        if c == ASCII.hash {
            let record = try metadata(ls + 1, le)
            input.consumeLine(endingAt: nl)
            if let record { counts.count(record) } else { counts.commentLines += 1 }
            return record
        }
        if c == 0x74 && ls + 1 < le && p[ls + 1] == ASCII.comma {   // "t,"
            if sawDataRow { return skip(.headerAfterData, nl: nl) }
            counts.headerLines += 1
            input.consumeLine(endingAt: nl)
            return nil
        }
        // Anything else is a data row (`nan`/`inf` times are skipped; other text is an error
        // "expected a number for t").
        return try dataRow(at: ls)
    }

    /// `# key: value` → metadata; any other `#` line is a comment (nil).
    private func metadata(_ start: Int, _ le: Int) throws -> TraceRecord? {
        let p = input.base
        var k = start
        while k < le && (p[k] == ASCII.space || p[k] == ASCII.tab) { k += 1 }
        let keyStart = k
        while k < le && Self.isKeyByte(p[k]) { k += 1 }
        let keyEnd = k
        while k < le && (p[k] == ASCII.space || p[k] == ASCII.tab) { k += 1 }
        guard keyEnd > keyStart, k < le, p[k] == ASCII.colon else { return nil }
        k += 1
        while k < le && (p[k] == ASCII.space || p[k] == ASCII.tab) { k += 1 }
        var valueEnd = le
        while valueEnd > k && (p[valueEnd - 1] == ASCII.space || p[valueEnd - 1] == ASCII.tab) { valueEnd -= 1 }
        let key = String(decoding: UnsafeBufferPointer(start: p + keyStart, count: keyEnd - keyStart), as: UTF8.self)
        guard let value = UTF8Check.string(UnsafeBufferPointer(start: p + k, count: valueEnd - k)) else {
            throw TraceError(.notText, file: input.path, line: input.lineNumber, column: k - (start - 1) + 1,
                             "metadata value for \(key) is not valid UTF-8")
        }
        if key == "oarlog-trace" && value != Self.formatVersion {
            throw TraceError(.unsupportedVersion, file: input.path, line: input.lineNumber, column: k - (start - 1) + 1,
                             "expected trace format version \(Self.formatVersion), found \"\(value)\"")
        }
        return .metadata(key: key, value: value)
    }

    /// A byte a metadata key may hold (`[A-Za-z0-9_.-]`); `TraceWriter` writes no other.
    @inline(__always)
    static func isKeyByte(_ c: UInt8) -> Bool {
        (c &- ASCII.zero) <= 9 || (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A)
            || c == 0x5F || c == ASCII.minus || c == ASCII.dot
    }

    private mutating func finish() throws -> TraceRecord? {
        if counts.totalRecords == 0 && counts.totalSkipped == 0 {
            throw TraceError(.empty, file: input.path, line: input.lineNumber,
                             "no records: the file holds no data rows and no metadata")
        }
        return nil
    }
}

extension NativeTraceReader {
    /// The pipeline's batch path: consecutive accel rows parsed straight into `buffer`.
    public mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        try readAccel(into: buffer)
    }
}
