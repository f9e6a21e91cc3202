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
        let preamble = try file.bytes(at: 0, count: SessionFormat.preambleSize)
        var offset = SessionFormat.preambleSize
        if preamble.count == SessionFormat.preambleSize && preamble.prefix(8).elementsEqual(SessionFormat.magic) {
            let major = UInt16(preamble[8]) | UInt16(preamble[9]) << 8
            let minor = UInt16(preamble[10]) | UInt16(preamble[11]) << 8
            if major != SessionFormat.majorVersion {
                throw SessionError.unsupportedVersion(path: path, major: major, minor: minor)
            }
        } else {
            // The header is damaged (or this is not a session): go on only if intact frames follow.
            guard let first = try scanner.nextSync(from: 0),
                  case .frame = try scanner.frame(at: first) else {
                throw SessionError.notASession(path: path, detail: SessionReader.describeStart(preamble))
            }
            report.preambleDamaged = true
            report.damage.append(DamageNote(offset: 0, reason: "the file header is damaged"))
            report.bytesDiscarded += first
            offset = first
        }

        var out: AppendFile?
        // A name of this call's own: two recoveries (or renames) at once never share one, and
        // this one removes only its own if it fails.
        let temporary = output.map { SessionFileLock.temporaryPath(for: $0, purpose: "recovering") }
        var finished = false
        if let temporary {
            out = try AppendFile(creating: temporary)
        }
        defer { if !finished, let temporary { _ = unlink(temporary) } }
        var pending = ByteWriter(capacity: 1 << 16)
        var written = 0  // bytes of the fixed file already handed to `out` (or counted, without output)
        func flushPending() throws {
            if let out { try pending.bytes.withUnsafeBytes { try out.append($0, what: "the recovered session") } }
            written += pending.count
            pending.removeAll()
        }
        pending.raw(SessionFormat.magic)
        pending.u16(SessionFormat.majorVersion)
        pending.u16(SessionFormat.minorVersion)
        var metadataWritten = false
        var index = SparseChunkIndex()
        var analysis: RecordedSummary?
        var lastSequence: UInt32?
        var openLoss: RecoveryReport.LostSpan?
        var sawFooter = false

        func keep(_ frame: UnsafeRawBufferPointer) throws {
            pending.raw(frame)
            if pending.count >= 1 << 16 { try flushPending() }
        }
        func writeMetadataIfNeeded() throws {
            guard !metadataWritten else { return }
            var f = FrameBuilder(capacity: 256)
            f.begin(.metadata)
            SessionMetadata.lost().encode(into: &f.w)
            f.end()
            pending.raw(f.w)
            metadataWritten = true
            report.metadataLost = true
        }

        scan: while true {
            let here = offset
            switch try scanner.frame(at: here) {
            case .frame(let kind, let payload, let next):
                offset = next
                let whole = UnsafeRawBufferPointer(start: payload.baseAddress! - SessionFormat.frameHeaderSize, count: next - here)
                switch FrameKind(rawValue: kind) {
                case .metadata:
                    if !metadataWritten {
                        try keep(whole)
                        metadataWritten = true
                    }
                case .chunk:
                    var r = ByteReader(payload)
                    guard let header = try? ChunkHeader.decode(&r), let counts = try? countRecords(&r, header) else {
                        report.damage.append(DamageNote(offset: here, reason: "a chunk cannot be read"))
                        report.bytesDiscarded += next - here
                        continue scan
                    }
                    try writeMetadataIfNeeded()
                    if let last = lastSequence, header.sequence != last &+ 1, header.sequence > last {
                        report.chunksLost += Int(header.sequence - last - 1)
                    }
                    lastSequence = header.sequence
                    if var loss = openLoss {
                        loss.before = header.firstTime.isNaN ? nil : header.firstTime
                        report.lostSpans.append(loss)
                        openLoss = nil
                    }
                    let chunkOffset = written + pending.count
                    try keep(whole)
                    index.add(offset: chunkOffset, sequence: header.sequence, firstTime: header.firstTime, lastTime: header.lastTime)
                    report.kept.add(counts)
                case .summary:
                    var r = ByteReader(payload)
                    analysis = try? RecordedSummary.decode(&r)
                case .footer:
                    sawFooter = true
                case .index:
                    break  // rebuilt
                case nil:
                    try keep(whole)  // a newer writer's frame kind: keep it as it is
                }
            case .endOfFile:
                break scan
            case .trailingMagic:
                report.hadFooter = sawFooter
                break scan
            case .damaged(let reason, _):
                report.damage.append(DamageNote(offset: here, reason: reason))
                if openLoss == nil { openLoss = RecoveryReport.LostSpan(after: report.kept.lastTime, before: nil) }
                let resume = try scanner.nextSync(from: here + 1) ?? file.size
                report.bytesDiscarded += resume - here
                offset = resume
            }
        }
        if let loss = openLoss {
            report.lostSpans.append(loss)
            // A torn tail: the chunk being written was lost; count it.
            if report.kept.chunks > 0 { report.chunksLost += 1 }
        }
        if !metadataWritten && report.kept.chunks == 0 {
            report.outcome = .unrecoverable
            return report
        }
        try writeMetadataIfNeeded()
        report.summaryKept = analysis?.analysis != nil
        let dataEnd = written + pending.count
        SessionTail.encode(index: index, summary: RecordedSummary(statistics: report.kept, analysis: analysis?.analysis),
                           dataEnd: dataEnd, into: &pending)
        try flushPending()
        if let out, let temporary, let output {
            if sync { try out.sync() }
            try out.close()
            if rename(temporary, output) != 0 {
                throw SessionError.io(path: output, operation: "renaming the recovered session to", errno: errno, detail: "")
            }
            finished = true
            if sync { SessionFileLock.syncDirectory(of: output) }
            report.output = output
        }
        let lost = report.bytesDiscarded > 0 || report.metadataLost || report.preambleDamaged || report.chunksLost > 0
        report.outcome = lost ? .lossy : .intact
        return report
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
            case .stroke: s.strokes += 1
            case .event: s.events += 1
            case .strokeCaught: s.strokeCatches += 1
            case .strokeWithdrawn: s.strokeCatches -= 1
            case nil: break
            }
        }
        return s
    }
}
