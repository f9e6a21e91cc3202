#if canImport(Glibc)
import Glibc
#endif
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogFences
import OarlogWorkouts

/// Records a session to a `.oarlog` file as the pipeline runs: a `PipelineSink` that wants every
/// raw record. Records are gathered into a chunk that is closed — written with one write(2) and,
/// by default, fsync'd — as soon as it holds `maximumChunkDuration` (1 s) of data or
/// `maximumChunkBytes`, so a power cut loses at most the open second. `finish(summary:)` (or
/// `close`) writes the index, the summary and the footer.
///
/// Memory is bounded: one chunk buffer, one accelerometer block, a sparse index of at most
/// `indexCapacity` entries. After an I/O error (disk full, read-only filesystem) the writer
/// throws a `SessionError.io` that says what is kept, and every later call fails.
public final class SessionWriter: PipelineSink {
    /// When written chunks are forced to the storage device.
    public enum Durability: Sendable, Equatable {
        /// fsync after every chunk: at most one chunk (≤ 1 s) lost on power loss. For live sessions.
        case syncEveryChunk
        /// fsync once at the end: for replays and bulk conversion, where the input still exists.
        case syncAtClose
        /// Never fsync (tests, benchmarks).
        case never
    }

    public struct Options: Sendable, Equatable {
        public var durability: Durability = .syncEveryChunk
        /// A chunk is closed before it would span this much data time.
        public var maximumChunkDuration: Seconds = 1.0
        /// …or once its payload reaches this many bytes.
        public var maximumChunkBytes = 256 << 10
        /// The accelerometer's resolution (m/s² per count), if the device reports integer counts:
        /// samples that are exact multiples are stored as int16 (6 bytes instead of 12).
        public var accelerometerCountsScale: Float?
        /// Maximum entries in the in-memory index (see `SparseChunkIndex`).
        public var indexCapacity = 4096
        public init(durability: Durability = .syncEveryChunk) { self.durability = durability }
    }

    public let path: String
    public let metadata: SessionMetadata
    public let options: Options
    /// What has been written (completed chunks only).
    public private(set) var statistics = SessionStatistics()
    /// Bytes written so far.
    public var bytesWritten: Int { file.size }
    public var wantsRawRecords: Bool { true }

    private let file: AppendFile
    private var frame = FrameBuilder(capacity: 64 << 10)
    private var scratch = ByteWriter(capacity: 16 << 10)
    private var accel = AccelColumns(capacity: 1024)
    /// The fused speed samples of the open chunk, written as one block when the chunk closes.
    private var speeds = BoatSpeedBlock()
    private var index: SparseChunkIndex
    private var chunkOpen = false
    private var chunkSequence: UInt32 = 0
    private var chunkFirstTime = Seconds.nan
    private var chunkLastTime = Seconds.nan
    private var chunkEntries: UInt32 = 0
    /// The workout plan, written with the first record that has a time.
    private var pendingPlan: WorkoutPlan?
    private var chunkStatistics = SessionStatistics()
    private var failure: SessionError?
    private var closed = false

    /// Creates the file at `path` (which must not exist) and writes the preamble and metadata.
    public init(path: String, metadata: SessionMetadata, options: Options = Options()) throws {
        self.path = path
        self.metadata = metadata
        self.options = options
        index = SparseChunkIndex(capacity: options.indexCapacity)
        file = try AppendFile(creating: path)
        do {
            try writeOrFail(SessionHeader.bytes(for: metadata), what: "the session header")
            if options.durability == .syncEveryChunk { try syncOrFail() }
        } catch {
            // Nothing usable was written: no empty or headless file is left behind.
            try? file.close()
            unlink(path)
            throw SessionError.io(path: path, operation: "starting", errno: (error as? SessionError)?.errnoCode ?? EIO,
                                  detail: "nothing was written; no file is left")
        }
    }

    /// Creates a new session in `directory`, named by its start time and title so that names sort
    /// by date (see `SessionDirectory.fileName`). Creates the directory if needed.
    public static func create(in directory: SessionDirectory = .default, metadata: SessionMetadata,
                              options: Options = Options()) throws -> SessionWriter {
        try directory.createIfNeeded()
        // The name is taken by creating the file (O_EXCL): two sessions started within the same
        // second, or two saves at once, each get their own name, never an error.
        for attempt in 1...10_000 {
            let name = SessionDirectory.fileName(startUTC: metadata.startUTC, title: metadata.title, suffix: attempt)
            do {
                return try SessionWriter(path: directory.path + "/" + name, metadata: metadata, options: options)
            } catch SessionError.io(_, "creating", EEXIST, _) {
                continue
            }
        }
        throw SessionError.io(path: directory.path, operation: "finding a free name in", errno: EEXIST,
                              detail: "10,000 sessions with this start and title")
    }

    deinit {
        // Not closed: the file keeps its complete chunks and no footer; readers scan it linearly.
        try? file.close()
    }

    // MARK: PipelineSink

    public func receive(_ event: PipelineEvent) throws {
        switch event {
        case .record(let record): try append(record)
        case .analysis(.stroke(let metrics)): try append(metrics)
        case .analysis(.caught(let metrics)): try appendCaught(metrics)
        case .analysis(.withdrawn(let stroke)): try appendWithdrawn(stroke)
        case .fence(let fenceEvent): try append(SessionEvent(fenceEvent))
        case .analysis(.live): break  // live figures are recomputed from the records
        case .analysis(.speed(let sample)): try append(sample)
        case .workout(.planned(let plan)): pendingPlan = plan
        case .workout(let workoutEvent):
            for record in SessionEvent.workoutRecords(workoutEvent) { try appendWorkout(record) }
        case .ghost: break  // the race against a ghost is not recorded (its gates are, as crossings)
        }
    }

    public func finish(summary: SessionSummary) throws {
        try close(summary: summary)
    }

    // MARK: Appending

    public func append(_ record: TraceRecord) throws {
        try checkUsable()
        if pendingPlan != nil, let t = record.time { try writePendingPlan(at: t) }
        switch record {
        case .accel(let s):
            try startRecord(at: s.time)
            accel.append(s)
            chunkEntries &+= 1
            chunkStatistics.accelerometerSamples += 1
            if accel.count >= 4096 { try endAccelBlock() }
        case .fix(let f):
            try startRecord(at: f.time)
            try endAccelBlock()
            scratch.removeAll()
            RecordCoding.encodeFix(f, into: &scratch)
            put(.fix)
            chunkStatistics.fixes += 1
        case .note(let n):
            try startRecord(at: n.time)
            try endAccelBlock()
            scratch.removeAll()
            scratch.f64(n.time)
            scratch.string(n.text)
            put(.note)
            chunkStatistics.notes += 1
        case .gap(let g):
            try startRecord(at: g.start)
            try endAccelBlock()
            scratch.removeAll()
            RecordCoding.encodeGap(g, into: &scratch)
            put(.gap)
            chunkStatistics.gaps += 1
        case .reference(let r):
            try startRecord(at: r.time)
            try endAccelBlock()
            scratch.removeAll()
            RecordCoding.encodeReference(r, into: &scratch)
            put(.reference)
            chunkStatistics.referenceStrokes += 1
        case .heartRate(let h):
            try startRecord(at: h.time)
            try endAccelBlock()
            scratch.removeAll()
            scratch.f64(h.time)
            scratch.f64(h.bpm)
            scratch.string(h.sensor ?? "")
            put(.heartRate)
        case .oarlock(let o):
            try startRecord(at: o.time)
            try endAccelBlock()
            scratch.removeAll()
            RecordCoding.encodeOarlock(o, into: &scratch)
            put(.oarlock)
        case .metadata(let key, let value):
            try startRecord(at: nil)
            try endAccelBlock()
            scratch.removeAll()
            scratch.string(key)
            scratch.string(value)
            put(.traceMetadata)
            chunkStatistics.traceMetadata += 1
        }
        try closeChunkIfFull()
    }

    /// Records a stroke as the analyzer concluded it.
    public func append(_ stroke: StrokeMetrics) throws {
        try appendStroke(stroke, as: .stroke)
        chunkStatistics.strokes += 1
        try closeChunkIfFull()
    }

    /// Records a stroke at its catch (`AnalyzerEvent.caught`). Live (`syncEveryChunk`) the chunk
    /// holding it is closed and synced at once: a stroke the display has counted is on the disk
    /// within milliseconds, not at the end of the second.
    public func appendCaught(_ stroke: StrokeMetrics) throws {
        try appendStroke(stroke, as: .strokeCaught)
        chunkStatistics.strokeCatches += 1
        if options.durability == .syncEveryChunk { try closeChunk() } else { try closeChunkIfFull() }
    }

    /// Records that a catch recorded by `appendCaught` was no stroke.
    public func appendWithdrawn(_ stroke: StrokeEvent) throws {
        try appendStroke(StrokeMetrics(stroke: stroke), as: .strokeWithdrawn)
        chunkStatistics.strokeCatches -= 1
        try closeChunkIfFull()
    }

    /// A record with the stroke record's payload (a stroke, a catch, a catch withdrawn).
    private func appendStroke(_ stroke: StrokeMetrics, as kind: RecordKind) throws {
        try checkUsable()
        try startRecord(at: nil)
        try endAccelBlock()
        scratch.removeAll()
        RecordCoding.encodeStroke(stroke, into: &scratch)
        put(kind)
    }

    /// Records a sample of the boat's fused speed (`AnalyzerEvent.speed`): gathered into a block
    /// (`BoatSpeedBlock`) written when the chunk closes, or sooner when it is full. Its time does
    /// not count in the chunk's times (the analyzer's conclusions trail the raw records). A
    /// sample that cannot be stored (not finite, beyond ±1,000 m/s) is left out.
    public func append(_ sample: BoatSpeedSample) throws {
        try checkUsable()
        guard BoatSpeedBlock.storable(sample) else { return }
        try startRecord(at: nil)
        if !speeds.fits(sample) || speeds.isFull { try endSpeedBlock() }
        speeds.append(sample)
        chunkStatistics.boatSpeedSamples += 1
        try closeChunkIfFull()
    }

    /// Records a workout record (`SessionWorkoutRecords`): the plan's, held until the session's
    /// first record gives it a time, goes first.
    public func appendWorkout(_ event: SessionEvent) throws {
        try writePendingPlan(at: event.time)
        try appendEvent(event, as: .workout)
    }

    private func writePendingPlan(at time: Seconds) throws {
        guard let plan = pendingPlan else { return }
        pendingPlan = nil
        for record in SessionEvent.planRecords(plan, time: time) { try appendEvent(record, as: .workout) }
    }

    /// Records a named event (a geofence crossing, a mark).
    public func append(_ event: SessionEvent) throws {
        try appendEvent(event, as: .event)
    }

    /// An event's payload as a record of `kind` (`event`, or `workout` from minor version 4).
    private func appendEvent(_ event: SessionEvent, as kind: RecordKind) throws {
        try checkUsable()
        try startRecord(at: event.time)
        try endAccelBlock()
        scratch.removeAll()
        RecordCoding.encodeEvent(event, into: &scratch)
        put(kind)
        chunkStatistics.events += 1
        try closeChunkIfFull()
    }

    /// Closes the open chunk now (a live recorder may call this from a 1 s timer so that a
    /// sensor that stops sending does not leave data open).
    public func flush() throws {
        try checkUsable()
        try closeChunk()
        if options.durability == .syncEveryChunk { try syncOrFail() }
    }

    /// Closes the open chunk, writes the index, summary and footer, syncs and closes the file.
    /// `summary` is the analyzer's totals, if the session was analysed.
    public func close(summary: SessionSummary? = nil) throws {
        if closed { return }
        try checkUsable()
        try writePendingPlan(at: 0)
        try closeChunk()
        let dataEnd = file.size
        var tail = ByteWriter(capacity: 64 << 10)
        SessionTail.encode(index: index, summary: RecordedSummary(statistics: statistics, analysis: summary),
                           dataEnd: dataEnd, into: &tail)
        try writeOrFail(tail.bytes, what: "the index and summary")
        if options.durability != .never { try syncOrFail() }
        closed = true
        do { try file.close() } catch let e as SessionError { failure = e; throw e }
    }

    // MARK: Chunks

    /// Opens a chunk if none is open; closes the open one first if `time` would make it span
    /// more than the maximum duration.
    @inline(__always)
    private func startRecord(at time: Seconds?) throws {
        if chunkOpen, let t = time, !chunkFirstTime.isNaN, t - chunkFirstTime >= options.maximumChunkDuration {
            try closeChunk()
        }
        if !chunkOpen { openChunk() }
        if let t = time, !t.isNaN {
            if chunkFirstTime.isNaN || t < chunkFirstTime { chunkFirstTime = t }
            if chunkLastTime.isNaN || t > chunkLastTime { chunkLastTime = t }
            chunkStatistics.see(t)
        }
    }

    private func openChunk() {
        frame.begin(.chunk)
        frame.w.u32(chunkSequence)
        frame.w.f64(.nan)
        frame.w.f64(.nan)
        frame.w.u32(0)
        frame.w.u32(0)
        chunkOpen = true
        chunkFirstTime = .nan
        chunkLastTime = .nan
        chunkEntries = 0
        chunkStatistics = SessionStatistics()
    }

    /// Appends the record in `scratch` to the chunk.
    private func put(_ kind: RecordKind) {
        frame.w.u8(kind.rawValue)
        frame.w.varint(UInt64(scratch.count))
        frame.w.raw(scratch)
        chunkEntries &+= 1
    }

    private func endAccelBlock() throws {
        guard !accel.isEmpty else { return }
        scratch.removeAll()
        accel.encode(into: &scratch, countsScale: options.accelerometerCountsScale)
        put(.accelBlock)
        chunkEntries &-= 1  // the samples were counted as they came
        accel.removeAll()
    }

    /// Puts the gathered fused speed samples in the chunk as one record (the accelerometer's
    /// block before them, so the raw records still read back in their order).
    private func endSpeedBlock() throws {
        guard !speeds.isEmpty else { return }
        try endAccelBlock()
        scratch.removeAll()
        speeds.encode(into: &scratch)
        put(.boatSpeed)
        speeds.removeAll()
    }

    private func closeChunkIfFull() throws {
        if frame.payloadCount + accel.count * 12 + speeds.count * 4 >= options.maximumChunkBytes { try closeChunk() }
    }

    private func closeChunk() throws {
        guard chunkOpen else { return }
        try endAccelBlock()
        try endSpeedBlock()
        let header = SessionFormat.frameHeaderSize
        frame.w.patchU32(chunkSequence, at: header)
        frame.w.bytes.withUnsafeMutableBytes { b in
            b.storeBytes(of: chunkFirstTime.bitPattern.littleEndian, toByteOffset: header + 4, as: UInt64.self)
            b.storeBytes(of: chunkLastTime.bitPattern.littleEndian, toByteOffset: header + 12, as: UInt64.self)
        }
        frame.w.patchU32(chunkEntries, at: header + 20)
        frame.w.patchU32(UInt32(truncatingIfNeeded: chunkStatistics.accelerometerSamples), at: header + 24)
        frame.end()
        let offset = file.size
        try writeOrFail(frame.w.bytes, what: "chunk \(chunkSequence)")
        if options.durability == .syncEveryChunk { try syncOrFail() }
        index.add(offset: offset, sequence: chunkSequence, firstTime: chunkFirstTime, lastTime: chunkLastTime)
        chunkStatistics.chunks = 1
        statistics.add(chunkStatistics)
        chunkSequence &+= 1
        chunkOpen = false
    }

    // MARK: Failure

    private func checkUsable() throws {
        if let failure { throw SessionError.writerClosed(path: path, detail: "an earlier error: \(failure)") }
        if closed { throw SessionError.writerClosed(path: path, detail: "it was already closed") }
    }

    private func writeOrFail(_ bytes: [UInt8], what: String) throws {
        do {
            try bytes.withUnsafeBytes { try file.append($0, what: what) }
        } catch let e as SessionError {
            failure = e
            throw e
        }
    }

    private func syncOrFail() throws {
        do { try file.sync() } catch let e as SessionError {
            failure = e
            throw e
        }
    }
}

/// The end of a finished file: index frame, summary frame, footer frame, magic.
enum SessionTail {
    /// `dataEnd` is the file offset where the bytes appended to `w` will start.
    static func encode(index: SparseChunkIndex, summary: RecordedSummary, dataEnd: Int, into w: inout ByteWriter) {
        var f = FrameBuilder(capacity: 1024)
        let base = w.count
        let indexOffset = dataEnd + w.count - base
        f.begin(.index)
        index.encode(into: &f.w)
        f.end()
        w.raw(f.w)
        let summaryOffset = dataEnd + w.count - base
        f.begin(.summary)
        summary.encode(into: &f.w)
        f.end()
        w.raw(f.w)
        f.begin(.footer)
        Footer(indexOffset: UInt64(indexOffset), summaryOffset: UInt64(summaryOffset), dataEnd: UInt64(dataEnd)).encode(into: &f.w)
        f.end()
        w.raw(f.w)
        w.raw(SessionFormat.magic)
    }
}

extension SessionError {
    /// The system error behind an I/O failure.
    var errnoCode: Int32? {
        if case .io(_, _, let code, _) = self { return code }
        return nil
    }
}
