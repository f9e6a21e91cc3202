#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore

/// What `SessionRecovery` found and kept.
public struct RecoveryReport: Sendable, CustomStringConvertible {
    public enum Outcome: Sendable, Equatable {
        /// Every byte of data was intact (the index and summary may have been rebuilt).
        case intact
        /// Something was discarded; everything intact was kept.
        case lossy
        /// Nothing could be kept.
        case unrecoverable
    }

    /// A stretch of data lost between two kept chunks (or before the first / after the last).
    public struct LostSpan: Sendable, Equatable {
        /// Last data time kept before the loss.
        public var after: Seconds?
        /// First data time kept after the loss (`nil`: the loss runs to the end of the file).
        public var before: Seconds?
    }

    public var path: String
    public var outcome: Outcome = .unrecoverable
    /// What the kept chunks hold.
    public var kept = SessionStatistics()
    /// Chunks missing from the sequence (damaged, or torn at the end).
    public var chunksLost = 0
    public var damage: [DamageNote] = []
    public var bytesDiscarded = 0
    public var lostSpans: [LostSpan] = []
    /// The metadata frame was damaged; the fixed file has placeholder metadata.
    public var metadataLost = false
    /// The file's first 12 bytes were damaged.
    public var preambleDamaged = false
    /// The file had an intact footer (it was closed normally).
    public var hadFooter = false
    /// The summary frame (with the analyzer's totals) was intact and is kept.
    public var summaryKept = false
    /// Where the fixed file was written, if it was.
    public var output: String?

    public var description: String {
        var lines: [String] = []
        switch outcome {
        case .intact where !hadFooter: lines.append("\(path): ends early — everything in it is intact")
        case .intact: lines.append("\(path): intact — nothing lost")
        case .lossy: lines.append("\(path): damaged — recovered what was intact")
        case .unrecoverable: lines.append("\(path): unrecoverable — nothing could be kept")
        }
        var keptLine = "  kept " + [count(kept.chunks, "chunk"), count(kept.accelerometerSamples, "accelerometer sample"),
                                      count(kept.fixes, "fix", "fixes"), count(kept.strokes, "stroke"), count(kept.notes, "note"),
                                      count(kept.gaps, "gap"), count(kept.events, "event")].joined(separator: ", ")
        if let a = kept.firstTime, let b = kept.lastTime { keptLine += " (t = \(fmt(a))…\(fmt(b)) s)" }
        lines.append(keptLine)
        if bytesDiscarded > 0 || chunksLost > 0 {
            lines.append("  lost \(bytesDiscarded) bytes\(chunksLost > 0 ? ", \(chunksLost) chunk(s) of about 1 s each" : "")")
        }
        for span in lostSpans {
            let from = span.after.map { "t = \(fmt($0)) s" } ?? "the start"
            let to = span.before.map { "t = \(fmt($0)) s" } ?? "the end of the recording"
            lines.append("  data missing between \(from) and \(to)")
        }
        for d in damage.prefix(10) { lines.append("  damage at \(d)") }
        if damage.count > 10 { lines.append("  … and \(damage.count - 10) more damaged places") }
        if preambleDamaged { lines.append("  the file header was damaged and has been rewritten") }
        if metadataLost { lines.append("  the metadata (title, start time, devices) was lost") }
        if !hadFooter {
            lines.append("  the session was not closed normally (a power cut, a full disk or a crash): no index; the index was rebuilt")
            if let a = kept.firstTime, let b = kept.lastTime, outcome != .unrecoverable {
                lines.append("  the file holds the session from t = \(fmt(a)) s to t = \(fmt(b)) s (\(duration(b - a)) of it); "
                             + "anything after t = \(fmt(b)) s never reached the file")
            }
        }
        if !summaryKept { lines.append("  no recorded summary (replay the session to recompute it)") }
        if let output { lines.append("  written to \(output)") }
        return lines.joined(separator: "\n")
    }

    private func count(_ n: Int, _ one: String, _ many: String? = nil) -> String {
        "\(n) " + (n == 1 ? one : many ?? one + "s")
    }

    /// h:mm:ss or m:ss, whole seconds (a span of a recording, for a person).
    private func duration(_ seconds: Seconds) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return "\(seconds) s" }
        let whole = Int(seconds.rounded())
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        let mmss = (m < 10 && h > 0 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
        return h > 0 ? "\(h):\(mmss)" : mmss
    }

    private func fmt(_ t: Seconds) -> String {
        let tenths = (t * 10).rounded() / 10
        return "\(tenths)"
    }
}

/// Scans a damaged session file, keeps every chunk whose CRC checks (before and after the damage),
/// and writes a fixed file with a fresh index, summary and footer. Memory is bounded: one frame
/// at a time, a sparse index.
public enum SessionRecovery {
    /// Scans `path`; writes the fixed session to `output` if given (atomically: a temporary file
    /// renamed into place, so `output` may be `path` itself). `sync: false` skips fsync (tests).
    /// Throws for a file that is not a session at all, a newer major version, or an I/O error.
    /// Fixing a file in place (`output` is `path`) holds its exclusive `SessionFileLock`, so a
    /// note or rename at the same moment waits for it instead of being lost with the old copy.
    public static func recover(_ path: String, to output: String? = nil, sync: Bool = true) throws -> RecoveryReport {
        if let output, output == path {
            return try SessionFileLock.withExclusive(path) { try recoverUnlocked(path, to: output, sync: sync) }
        }
        return try recoverUnlocked(path, to: output, sync: sync)
    }

    private static func recoverUnlocked(_ path: String, to output: String?, sync: Bool) throws -> RecoveryReport {
        var report = RecoveryReport(path: path)
        let file = try RandomAccessFile(path: path)
        let scanner = FrameScanner(file: file)
        let framesStart = try firstFrame(of: file, scanner, path: path, report: &report)
        // A name of this call's own: two recoveries (or renames) at once never share one, and
        // this one removes only its own if it fails.
        let temporary = output.map { SessionFileLock.temporaryPath(for: $0, purpose: "recovering") }
        var finished = false
        var fixed = try RecoveredFile(creating: temporary)
        defer { if !finished, let temporary { _ = unlink(temporary) } }
        var walk = FrameWalk()
        try walk.run(scanner, from: framesStart, fileSize: file.size, into: &fixed, report: &report)
        if !fixed.metadataWritten && report.kept.chunks == 0 {
            report.outcome = .unrecoverable
            return report
        }
        if fixed.writeMetadataIfMissing() { report.metadataLost = true }
        report.summaryKept = walk.analysis?.analysis != nil
        try fixed.finish(index: walk.index, summary: RecordedSummary(statistics: report.kept, analysis: walk.analysis?.analysis))
        if let temporary, let output {
            try fixed.install(temporary, as: output, sync: sync)
            finished = true
            report.output = output
        }
        let lost = report.bytesDiscarded > 0 || report.metadataLost || report.preambleDamaged || report.chunksLost > 0
        report.outcome = lost ? .lossy : .intact
        return report
    }

    /// Where the frames begin: after an intact preamble, or — when the preamble is damaged — at
    /// the first intact frame (the bytes before it are reported discarded). Throws for a newer
    /// major version, or a file with neither a preamble nor an intact frame (not a session).
    private static func firstFrame(of file: RandomAccessFile, _ scanner: FrameScanner, path: String,
                                   report: inout RecoveryReport) throws -> Int {
        let preamble = try file.bytes(at: 0, count: SessionFormat.preambleSize)
        if preamble.count == SessionFormat.preambleSize && preamble.prefix(8).elementsEqual(SessionFormat.magic) {
            let major = UInt16(preamble[8]) | UInt16(preamble[9]) << 8
            let minor = UInt16(preamble[10]) | UInt16(preamble[11]) << 8
            if major != SessionFormat.majorVersion {
                throw SessionError.unsupportedVersion(path: path, major: major, minor: minor)
            }
            return SessionFormat.preambleSize
        }
        // The header is damaged (or this is not a session): go on only if intact frames follow.
        guard let first = try scanner.nextSync(from: 0),
              case .frame = try scanner.frame(at: first) else {
            throw SessionError.notASession(path: path, detail: SessionReader.describeStart(preamble))
        }
        report.preambleDamaged = true
        report.damage.append(DamageNote(offset: 0, reason: "the file header is damaged"))
        report.bytesDiscarded += first
        return first
    }

    /// The walk through a damaged file's frames: what it keeps goes to the fixed file, what it
    /// finds (losses, damage, counts) to the report.
    private struct FrameWalk {
        /// The fixed file's chunks, rebuilt.
        var index = SparseChunkIndex()
        /// The recorded summary frame, if one was intact.
        var analysis: RecordedSummary?
        private var lastSequence: UInt32?
        /// Data lost since the last kept chunk, until the next one.
        private var openLoss: RecoveryReport.LostSpan?
        private var sawFooter = false

        mutating func run(_ scanner: FrameScanner, from start: Int, fileSize: Int, into fixed: inout RecoveredFile,
                          report: inout RecoveryReport) throws {
            var offset = start
            scan: while true {
                let here = offset
                switch try scanner.frame(at: here) {
                case .frame(let kind, let payload, let next):
                    offset = next
                    let whole = UnsafeRawBufferPointer(start: payload.baseAddress! - SessionFormat.frameHeaderSize, count: next - here)
                    try take(kind, payload: payload, whole: whole, at: here, into: &fixed, report: &report)
                case .endOfFile:
                    break scan
                case .trailingMagic:
                    report.hadFooter = sawFooter
                    break scan
                case .damaged(let reason, _):
                    report.damage.append(DamageNote(offset: here, reason: reason))
                    if openLoss == nil { openLoss = RecoveryReport.LostSpan(after: report.kept.lastTime, before: nil) }
                    let resume = try scanner.nextSync(from: here + 1) ?? fileSize
                    report.bytesDiscarded += resume - here
                    offset = resume
                }
            }
            if let loss = openLoss {
                report.lostSpans.append(loss)
                // A torn tail: the chunk being written was lost; count it.
                if report.kept.chunks > 0 { report.chunksLost += 1 }
            }
        }

        /// An intact frame (`whole`, at `here`): kept, read, or dropped to be rebuilt.
        private mutating func take(_ kind: UInt8, payload: UnsafeRawBufferPointer, whole: UnsafeRawBufferPointer, at here: Int,
                                   into fixed: inout RecoveredFile, report: inout RecoveryReport) throws {
            switch FrameKind(rawValue: kind) {
            case .metadata:
                try fixed.keepMetadata(whole)
            case .chunk:
                try keepChunk(payload: payload, whole: whole, at: here, into: &fixed, report: &report)
            case .summary:
                var r = ByteReader(payload)
                analysis = try? RecordedSummary.decode(&r)
            case .footer:
                sawFooter = true
            case .index:
                break  // rebuilt
            case nil:
                try fixed.keep(whole)  // a newer writer's frame kind: keep it as it is
            }
        }

        /// A chunk whose records can be read is kept and indexed; the sequence numbers it skips
        /// are lost chunks, and it closes an open loss.
        private mutating func keepChunk(payload: UnsafeRawBufferPointer, whole: UnsafeRawBufferPointer, at here: Int,
                                        into fixed: inout RecoveredFile, report: inout RecoveryReport) throws {
            var r = ByteReader(payload)
            guard let header = try? ChunkHeader.decode(&r), let counts = try? SessionRecovery.countRecords(&r, header) else {
                report.damage.append(DamageNote(offset: here, reason: "a chunk cannot be read"))
                report.bytesDiscarded += whole.count
                return
            }
            if fixed.writeMetadataIfMissing() { report.metadataLost = true }
            if let last = lastSequence, header.sequence != last &+ 1, header.sequence > last {
                report.chunksLost += Int(header.sequence - last - 1)
            }
            lastSequence = header.sequence
            if var loss = openLoss {
                loss.before = header.firstTime.isNaN ? nil : header.firstTime
                report.lostSpans.append(loss)
                openLoss = nil
            }
            let chunkOffset = fixed.offset
            try fixed.keep(whole)
            index.add(offset: chunkOffset, sequence: header.sequence, firstTime: header.firstTime, lastTime: header.lastTime)
            report.kept.add(counts)
        }
    }

    /// The fixed file as recovery writes it: a fresh preamble, then the kept frames, gathered
    /// 64 KiB at a time and handed to the temporary file (or only counted, without an output).
    private struct RecoveredFile {
        private let out: AppendFile?
        private var pending = ByteWriter(capacity: 1 << 16)
        /// Bytes of the fixed file already handed to `out` (or counted, without output).
        private var written = 0
        private(set) var metadataWritten = false

        init(creating temporary: String?) throws {
            out = try temporary.map { try AppendFile(creating: $0) }
            SessionHeader.appendPreamble(to: &pending)
        }

        /// Where the next kept frame goes in the fixed file.
        var offset: Int { written + pending.count }

        mutating func keep(_ frame: UnsafeRawBufferPointer) throws {
            pending.raw(frame)
            if pending.count >= 1 << 16 { try flush() }
        }

        /// The first intact metadata frame is kept; any later one is dropped.
        mutating func keepMetadata(_ frame: UnsafeRawBufferPointer) throws {
            guard !metadataWritten else { return }
            try keep(frame)
            metadataWritten = true
        }

        /// Before the first chunk (or the tail) of a file whose metadata frame was lost: a
        /// placeholder. True when it wrote one.
        mutating func writeMetadataIfMissing() -> Bool {
            guard !metadataWritten else { return false }
            SessionHeader.appendMetadataFrame(SessionMetadata.lost(), to: &pending)
            metadataWritten = true
            return true
        }

        /// Writes the index, the summary and the footer after the kept frames.
        mutating func finish(index: SparseChunkIndex, summary: RecordedSummary) throws {
            SessionTail.encode(index: index, summary: summary, dataEnd: offset, into: &pending)
            try flush()
        }

        /// Puts the finished temporary file in place of `output`.
        func install(_ temporary: String, as output: String, sync: Bool) throws {
            guard let out else { return }
            if sync { try out.sync() }
            try out.close()
            if rename(temporary, output) != 0 {
                throw SessionError.io(path: output, operation: "renaming the recovered session to", errno: errno, detail: "")
            }
            if sync { SessionFileLock.syncDirectory(of: output) }
        }

        private mutating func flush() throws {
            if let out { try pending.bytes.withUnsafeBytes { try out.append($0, what: "the recovered session") } }
            written += pending.count
            pending.removeAll()
        }
    }

    /// Counts a chunk's records by kind (accelerometer blocks by their sample count).
    static func countRecords(_ r: inout ByteReader, _ header: ChunkHeader) throws -> SessionStatistics {
        var s = SessionStatistics()
        s.chunks = 1
        if !header.firstTime.isNaN { s.see(header.firstTime) }
        if !header.lastTime.isNaN { s.see(header.lastTime) }
        while !r.isAtEnd {
            let kind = try r.u8()
            let length = try r.length(limit: r.remaining)
            var p = ByteReader(base: r.base, start: r.position, end: r.position + length)
            r.position += length
            switch RecordKind(rawValue: kind) {
            case .accelBlock: s.accelerometerSamples += try p.length(limit: Int(UInt32.max))
            case .fix: s.fixes += 1
            case .note: s.notes += 1
            case .gap: s.gaps += 1
            case .reference: s.referenceStrokes += 1
            case .traceMetadata: s.traceMetadata += 1
            case .heartRate, .oarlock: break
            case .stroke: s.strokes += 1
            case .event, .workout: s.events += 1
            case .strokeCaught: s.strokeCatches += 1
            case .strokeWithdrawn: s.strokeCatches -= 1
            case .boatSpeed: s.boatSpeedSamples += try BoatSpeedBlock.sampleCount(&p)
            case nil: break
            }
        }
        return s
    }
}
