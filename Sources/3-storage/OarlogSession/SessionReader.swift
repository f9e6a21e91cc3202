import OarlogCore
import OarlogDSP

/// What a reader does when a frame fails its CRC or the file ends inside a frame.
public enum DamagePolicy: Sendable, Equatable {
    /// Throw `SessionError.damaged` after delivering everything before the damage.
    case throwError
    /// Note the damage (`SessionEntryIterator.damage`), find the next intact chunk and go on.
    case skipDamagedChunks
}

/// A place where a reader or recovery found damage.
public struct DamageNote: Sendable, Equatable, CustomStringConvertible {
    /// Byte offset of the damaged frame.
    public var offset: Int
    public var reason: String
    public var description: String { "byte \(offset): \(reason)" }
}

/// Opens a session file: checks the magic and version, reads the metadata, and — when the file
/// was closed normally — the footer, index and summary. A file without a footer (cut short by a
/// power loss or a kill) is still readable: its chunks are found by a linear scan.
///
/// Entries are read chunk by chunk through one buffer: memory does not grow with the session.
public final class SessionReader {
    public let path: String
    public let majorVersion: UInt16
    public let minorVersion: UInt16
    public let metadata: SessionMetadata
    /// The summary frame of a finished file (`nil` for a file cut short).
    public let summary: RecordedSummary?
    /// The file has a valid footer, index and summary.
    public let isComplete: Bool
    public let fileSize: Int
    /// The sparse chunk index of a finished file (see `SparseChunkIndex`).
    public let chunkIndex: [ChunkIndexEntry]?
    /// Offset of the first frame after the metadata.
    let dataStart: Int
    /// Offset where the data frames end (the index, for a finished file).
    let dataEnd: Int
    let file: RandomAccessFile

    /// Opens the session at `path` (waiting, if a note or edit is being written into it, until
    /// it is whole again: see `SessionFileLock`).
    public convenience init(path: String) throws {
        try self.init(path: path, lockedForOpening: true)
    }

    /// `lockedForOpening: false` only for a change that already holds the file's exclusive lock.
    init(path: String, lockedForOpening: Bool) throws {
        self.path = path
        let file = try RandomAccessFile(path: path, lockedForOpening: lockedForOpening)
        defer { file.unlock() }
        self.file = file
        fileSize = file.size
        let preamble = try file.bytes(at: 0, count: SessionFormat.preambleSize)
        guard preamble.count >= 8, preamble.prefix(8).elementsEqual(SessionFormat.magic) else {
            throw SessionError.notASession(path: path, detail: Self.describeStart(preamble))
        }
        guard preamble.count == SessionFormat.preambleSize else {
            throw SessionError.damaged(path: path, offset: preamble.count, detail: "the file ends inside its header")
        }
        majorVersion = UInt16(preamble[8]) | UInt16(preamble[9]) << 8
        minorVersion = UInt16(preamble[10]) | UInt16(preamble[11]) << 8
        guard majorVersion == SessionFormat.majorVersion else {
            throw SessionError.unsupportedVersion(path: path, major: majorVersion, minor: minorVersion)
        }
        let scanner = FrameScanner(file: file, readAhead: 1 << 12)
        var metadata: SessionMetadata?
        var dataStart = SessionFormat.preambleSize
        switch try scanner.frame(at: SessionFormat.preambleSize) {
        case .frame(let kind, let payload, let next) where kind == FrameKind.metadata.rawValue:
            var r = ByteReader(payload)
            metadata = try? SessionMetadata.decode(&r)
            dataStart = next
        case .damaged(let reason, _):
            throw SessionError.damaged(path: path, offset: SessionFormat.preambleSize, detail: "the metadata: " + reason)
        default:
            break
        }
        guard let metadata else {
            throw SessionError.damaged(path: path, offset: SessionFormat.preambleSize, detail: "the metadata frame is missing")
        }
        self.metadata = metadata
        self.dataStart = dataStart
        let tail = Self.readTail(scanner, fileSize: fileSize, dataStart: dataStart)
        summary = tail?.summary
        chunkIndex = tail?.index
        isComplete = tail != nil
        dataEnd = tail?.dataEnd ?? fileSize
    }

    /// The footer, index and summary, if all are intact and consistent.
    private static func readTail(_ scanner: FrameScanner, fileSize: Int, dataStart: Int)
        -> (summary: RecordedSummary, index: [ChunkIndexEntry], dataEnd: Int)?
    {
        let footerOffset = fileSize - SessionFormat.tailSize
        guard footerOffset >= dataStart,
              let magic = try? scanner.peek(fileSize - 8, 8), magic.elementsEqual(SessionFormat.magic),
              case .frame(let kind, let payload, _)? = try? scanner.frame(at: footerOffset),
              kind == FrameKind.footer.rawValue
        else { return nil }
        var r = ByteReader(payload)
        guard let footer = try? Footer.decode(&r),
              footer.dataEnd >= UInt64(dataStart), footer.indexOffset >= footer.dataEnd,
              footer.summaryOffset > footer.indexOffset, footer.summaryOffset < UInt64(footerOffset)
        else { return nil }
        guard case .frame(let ik, let ip, _)? = try? scanner.frame(at: Int(footer.indexOffset)), ik == FrameKind.index.rawValue
        else { return nil }
        var ir = ByteReader(ip)
        guard let index = try? SparseChunkIndex.decode(&ir) else { return nil }
        guard case .frame(let sk, let sp, _)? = try? scanner.frame(at: Int(footer.summaryOffset)), sk == FrameKind.summary.rawValue
        else { return nil }
        var sr = ByteReader(sp)
        guard let summary = try? RecordedSummary.decode(&sr) else { return nil }
        return (summary, index.entries, Int(footer.dataEnd))
    }

    /// "it is empty", "it starts with \"time,ax,ay\"", or the first bytes in hex.
    static func describeStart(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "it is empty" }
        if bytes.starts(with: [0x89, 0x4D, 0x43, 0x41, 0x50]) { return "it is an MCAP file" }
        let printable = bytes.prefix(12).allSatisfy { $0 >= 0x20 && $0 < 0x7F || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if printable {
            let text = String(decoding: bytes.prefix(12), as: UTF8.self).replacingNewlines()
            return "it starts with \"\(text)\", which looks like text"
        }
        let hex = bytes.prefix(8).map { b in let s = String(b, radix: 16); return s.count == 1 ? "0" + s : s }
        return "it starts with bytes \(hex.joined(separator: " "))"
    }

    /// Every entry in order; from `time` on if given (using the index when there is one).
    public func entries(from time: Seconds? = nil, onDamage: DamagePolicy = .throwError) -> SessionEntryIterator {
        var start = dataStart
        if let time, let chunkIndex {
            // The last indexed chunk that starts at or before `time`.
            var lo = 0, hi = chunkIndex.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if chunkIndex[mid].firstTime <= time { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { start = chunkIndex[lo - 1].offset }
        }
        return SessionEntryIterator(reader: self, start: start, from: time, policy: onDamage)
    }

    /// The raw records as a `RecordSource` (what the pipeline replays).
    public func records(from time: Seconds? = nil, onDamage: DamagePolicy = .throwError) -> SessionRecordSource {
        SessionRecordSource(entries: entries(from: time, onDamage: onDamage))
    }

    /// The recorded strokes, in order: each as the analyzer concluded it, and after them any
    /// stroke recorded at its catch whose conclusion never came (a session cut short by a power
    /// cut keeps every stroke its display counted; those have only their catch and rate).
    public func strokes(onDamage: DamagePolicy = .throwError) throws -> [StrokeMetrics] {
        var out: [StrokeMetrics] = []
        var caught: [StrokeMetrics] = []   // awaiting their conclusion: a few at most
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { k, r in
            switch RecordKind(rawValue: k) {
            case .stroke:
                let m = try RecordCoding.decodeStroke(&r)
                caught.removeAll { $0.stroke.index <= m.stroke.index }
                out.append(m)
            case .strokeCaught:
                let m = try RecordCoding.decodeStroke(&r, stage: .caught)
                caught.removeAll { $0.stroke.index >= m.stroke.index }
                if caught.count == 64 { caught.removeFirst() }
                caught.append(m)
            case .strokeWithdrawn:
                let index = try RecordCoding.decodeStroke(&r).stroke.index
                caught.removeAll { $0.stroke.index == index }
            default:
                break
            }
        }
        let lastIndex = out.last?.stroke.index ?? 0
        out += caught.filter { $0.stroke.index > lastIndex }
        return out
    }

    /// Every record of `kind`, decoded, in file order; records of other kinds are not decoded.
    func decoded<T>(_ kind: RecordKind, onDamage: DamagePolicy, _ decode: (inout ByteReader) throws -> T) throws -> [T] {
        var out: [T] = []
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { k, r in
            if k == kind.rawValue { out.append(try decode(&r)) }
        }
        return out
    }

    /// The accelerometer samples block by block, column-wise (the fast path: no per-sample enum).
    /// The columns passed to `body` are reused for the next block.
    /// From the chunk holding `time` on, when given (the index's chunk at or before it: a block
    /// may start a little earlier).
    public func forEachAccelerometerBlock(from time: Seconds? = nil, onDamage: DamagePolicy = .throwError,
                                          _ body: (AccelColumns) throws -> Void) throws {
        var it = entries(from: time, onDamage: onDamage)
        var columns = AccelColumns(capacity: 1024)
        while case (let kind, var r)? = try it.nextChunkRecord() {
            guard kind == RecordKind.accelBlock.rawValue else { continue }
            do {
                try columns.decode(&r)
            } catch let error as DecodeError {
                try it.skipChunk(noting: "a record cannot be read: \(error)")
                continue
            }
            try body(columns)
        }
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

/// Walks a session's entries chunk by chunk. Damage is handled by the policy it was made with;
/// with `.skipDamagedChunks` the places skipped are in `damage`.
public struct SessionEntryIterator {
    let reader: SessionReader
    let scanner: FrameScanner
    let startTime: Seconds?
    let policy: DamagePolicy
    var offset: Int
    var chunkOffset = 0
    var chunk: ByteReader?
    var accel = AccelColumns(capacity: 1024)
    var accelPosition = 0
    /// Damage met so far (with `.skipDamagedChunks`).
    public private(set) var damage: [DamageNote] = []
    /// Chunks delivered so far.
    public private(set) var chunksRead = 0

    init(reader: SessionReader, start: Int, from time: Seconds?, policy: DamagePolicy) {
        self.reader = reader
        scanner = FrameScanner(file: reader.file)
        offset = start
        startTime = time
        self.policy = policy
    }

    public mutating func next() throws -> SessionEntry? {
        while true {
            if accelPosition < accel.count {
                let s = accel[accelPosition]
                accelPosition += 1
                if let t0 = startTime, !(s.time >= t0) { continue }
                return .record(.accel(s))
            }
            if var r = chunk {
                if r.isAtEnd {
                    chunk = nil
                    continue
                }
                do {
                    let entry = try decodeRecord(&r)
                    chunk = r
                    if let entry, passes(entry) { return entry }
                } catch let error as DecodeError {
                    chunk = nil
                    try noteDamage(at: chunkOffset, "a record in chunk \(chunksRead) cannot be read: \(error)")
                }
                continue
            }
            guard try advanceToChunk() else { return nil }
        }
    }

    /// The next raw record, passing over strokes and events: `next()` with the accelerometer
    /// samples of the decoded block handed out directly (the replay path). The common case — a
    /// sample of the current block — stays small enough to inline; the rest is out of line.
    @inline(__always)
    mutating func nextRecord() throws -> TraceRecord? {
        if accelPosition < accel.count && startTime == nil {
            let s = accel[accelPosition]
            accelPosition += 1
            return .accel(s)
        }
        return try nextRecordAfterBlock()
    }

    @inline(never)
    private mutating func nextRecordAfterBlock() throws -> TraceRecord? {
        while true {
            if accelPosition < accel.count {
                let s = accel[accelPosition]
                accelPosition += 1
                if let t0 = startTime, !(s.time >= t0) { continue }
                return .accel(s)
            }
            guard let entry = try next() else { return nil }
            if case .record(let r) = entry { return r }
        }
    }

    private func passes(_ entry: SessionEntry) -> Bool {
        guard let t0 = startTime else { return true }
        switch entry {
        case .record(let r): return r.time.map { $0 >= t0 } ?? false
        case .stroke(let m), .caught(let m): return m.stroke.catchTime >= t0
        case .withdrawn(let s): return s.catchTime >= t0
        case .event(let e): return e.time >= t0
        }
    }

    /// Decodes the record at `r`; `nil` for an accelerometer block (now in `accel`) or an
    /// unknown kind (skipped).
    private mutating func decodeRecord(_ r: inout ByteReader) throws -> SessionEntry? {
        let kind = try r.u8()
        let length = try r.length(limit: r.remaining)
        var p = ByteReader(base: r.base, start: r.position, end: r.position + length)
        r.position += length
        switch RecordKind(rawValue: kind) {
        case .accelBlock:
            try accel.decode(&p)
            accelPosition = 0
            return nil
        case .fix: return .record(.fix(try RecordCoding.decodeFix(&p)))
        case .note: return .record(.note(Note(time: try p.f64(), text: try p.string())))
        case .gap: return try RecordCoding.decodeGap(&p).map { .record(.gap($0)) }
        case .reference: return .record(.reference(try RecordCoding.decodeReference(&p)))
        case .heartRate: return .record(.heartRate(try RecordCoding.decodeHeartRate(&p)))
        case .oarlock: return .record(.oarlock(try RecordCoding.decodeOarlock(&p)))
        case .traceMetadata: return .record(.metadata(key: try p.string(), value: try p.string()))
        case .stroke: return .stroke(try RecordCoding.decodeStroke(&p))
        case .strokeCaught: return .caught(try RecordCoding.decodeStroke(&p, stage: .caught))
        case .strokeWithdrawn: return .withdrawn(try RecordCoding.decodeStroke(&p, stage: .withdrawn).stroke)
        case .event, .workout: return .event(try RecordCoding.decodeEvent(&p))
        case .boatSpeed, nil: return nil  // the fused speed: `forEachBoatSpeed`
        }
    }

    /// Moves to the next chunk whose CRC checks; `false` at the end of the data.
    private mutating func advanceToChunk() throws -> Bool {
        while offset < reader.dataEnd {
            let here = offset
            switch try scanner.frame(at: here) {
            case .frame(let kind, let payload, let next):
                offset = next
                guard kind == FrameKind.chunk.rawValue else { continue }  // other or unknown frames
                var r = ByteReader(payload)
                guard let header = try? ChunkHeader.decode(&r) else {
                    try noteDamage(at: here, "a chunk header cannot be read")
                    continue
                }
                if let t0 = startTime, !header.lastTime.isNaN, header.lastTime < t0 { continue }
                chunkOffset = here
                chunk = r
                chunksRead += 1
                return true
            case .endOfFile, .trailingMagic:
                return false
            case .damaged(let reason, _):
                try noteDamage(at: here, reason)
                guard let sync = try scanner.nextSync(from: here + 1), sync < reader.dataEnd else {
                    offset = reader.dataEnd
                    return false
                }
                offset = sync
            }
        }
        return false
    }

    private mutating func noteDamage(at offset: Int, _ reason: String) throws {
        if policy == .throwError { throw SessionError.damaged(path: reader.path, offset: offset, detail: reason) }
        damage.append(DamageNote(offset: offset, reason: reason))
    }

    /// The kind and payload of the next record of any chunk; nil at the end of the data.
    @inline(__always)
    mutating func nextChunkRecord() throws -> (kind: UInt8, payload: ByteReader)? {
        while true {
            if var r = chunk {
                if r.isAtEnd {
                    chunk = nil
                    continue
                }
                do {
                    let kind = try r.u8()
                    let length = try r.length(limit: r.remaining)
                    let payload = ByteReader(base: r.base, start: r.position, end: r.position + length)
                    r.position += length
                    chunk = r
                    return (kind, payload)
                } catch let error as DecodeError {
                    try skipChunk(noting: "a record cannot be read: \(error)")
                    continue
                }
            }
            guard try advanceToChunk() else { return nil }
        }
    }

    /// Notes damage in the current chunk and passes over the rest of it.
    mutating func skipChunk(noting reason: String) throws {
        chunk = nil
        try noteDamage(at: chunkOffset, reason)
    }

    /// Calls `body` with the kind and payload of every record of every chunk (no decoding of
    /// kinds `body` does not want).
    mutating func forEachChunkRecord(_ body: (UInt8, inout ByteReader) throws -> Void) throws {
        while try advanceToChunk() {
            guard var r = chunk else { continue }
            chunk = nil
            do {
                while !r.isAtEnd {
                    let kind = try r.u8()
                    let length = try r.length(limit: r.remaining)
                    var p = ByteReader(base: r.base, start: r.position, end: r.position + length)
                    r.position += length
                    try body(kind, &p)
                }
            } catch let error as DecodeError {
                try noteDamage(at: chunkOffset, "a record cannot be read: \(error)")
            }
        }
    }
}

/// A session's raw records as a `RecordSource`: replaying a session is replaying a trace.
public struct SessionRecordSource: RecordSource {
    public private(set) var entries: SessionEntryIterator
    public mutating func next() throws -> TraceRecord? {
        try entries.nextRecord()
    }
}
