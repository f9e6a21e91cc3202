import OarlogCore
import OarlogDSP
import OarlogPipeline

/// When `oarlog record --auto` starts and ends a session.
public struct AutoSessionConfiguration: Sendable, Equatable {
    /// Rowing has begun when this many strokes…
    public var strokesToStart = 6
    /// …fall within this many seconds (catch of the first to catch of the last).
    public var startWindow: Seconds = 20
    /// An outing ends after this long without a stroke.
    public var idleToEnd: Seconds = 120
    /// Data kept before the first of those strokes, so the outing starts before rowing did.
    public var leadIn: Seconds = 10
    /// At most this many records are held while waiting (bounded memory; 40 s at 400 Hz).
    public var bufferCapacity = 16_384
    /// Stroke detection settings (mounting axis, thresholds) for the standby detector.
    public var mounting = MountingEstimatorConfiguration()
    public var strokeDetection = StrokeDetectorConfiguration()
    public init() {}
}

/// One outing found by `AutoSessionController`.
public struct AutoOuting: Sendable, Equatable {
    /// 1 for the first outing of the run.
    public var number: Int
    /// Where the outing starts on the source's clock; its records are delivered with this
    /// subtracted (session time 0 = `start`).
    public var start: Seconds
    /// Source-clock catch time of the first stroke of the run of strokes that started it.
    public var firstStroke: Seconds
}

/// A headless boat's recorder logic: watches a live stream with a standby stroke detector; when
/// rowing begins (`strokesToStart` strokes within `startWindow`) it opens an outing that starts
/// `leadIn` before the first of those strokes (the records since then are held in a bounded
/// buffer, so the first strokes are kept); the outing ends `idleToEnd` after the last stroke;
/// then it waits for the next one. Each outing is a `RecordSource` that the ordinary pipeline
/// runs — the same code path as `oarlog record` — so each becomes its own session.
///
/// Strokes come from the accelerometer; a stream without one counts the device's `.reference`
/// strokes. Notes typed while no outing is open are kept only if they fall in the next lead-in.
public final class AutoSessionController<Source: RecordSource> {
    public let configuration: AutoSessionConfiguration
    public private(set) var source: Source
    /// Outings opened so far.
    public private(set) var outingCount = 0
    /// The outing being delivered, if any.
    public private(set) var current: AutoOuting?

    private var detector: SurgeStrokeDetector
    private var recentCatches: [Seconds] = []
    private var lastStroke: Seconds?
    /// The standby lead-in: the latest records, bounded.
    private var buffer: RingBuffer<TraceRecord>
    /// Trace metadata seen so far (latest value per key), repeated at the start of each outing.
    private var metadata: [(key: String, value: String)] = []
    private var latestTime: Seconds = -.infinity
    private var leadIn: [TraceRecord] = []
    private var leadInPosition = 0
    private var sourceEnded = false
    /// A record read in an outing that belongs to the idle time after it.
    private var carried: TraceRecord?

    public init(source: Source, configuration: AutoSessionConfiguration = AutoSessionConfiguration()) {
        self.source = source
        self.configuration = configuration
        detector = SurgeStrokeDetector(mounting: configuration.mounting, detector: configuration.strokeDetection)
        buffer = RingBuffer(capacity: max(16, configuration.bufferCapacity), filler: .metadata(key: "", value: ""))
    }

    /// Reads the stream until rowing begins and returns the new outing; `nil` when the stream
    /// ends (or `shouldStop` turns true) first.
    public func nextOuting(shouldStop: () -> Bool = { false }) throws -> AutoOuting? {
        current = nil
        while !sourceEnded && !shouldStop() {
            let record: TraceRecord
            if let c = carried {
                record = c
                carried = nil
            } else {
                guard let r = try source.next() else {
                    sourceEnded = true
                    break
                }
                record = r
            }
            if case .metadata(let key, let value) = record {
                metadata.removeAll { $0.key == key }
                metadata.append((key, value))
                continue
            }
            if let t = record.time { latestTime = max(latestTime, t) }
            buffer.append(record)
            buffer.dropOlder(than: latestTime - (configuration.startWindow + configuration.leadIn + 10))
            var started: Seconds?
            observeStrokes(in: record) { catchTime in
                recentCatches.append(catchTime)
                if recentCatches.count > configuration.strokesToStart { recentCatches.removeFirst() }
                if recentCatches.count == configuration.strokesToStart,
                   catchTime - recentCatches[0] <= configuration.startWindow {
                    started = recentCatches[0]
                }
            }
            if let first = started { return open(firstStroke: first) }
        }
        return nil
    }

    private func open(firstStroke: Seconds) -> AutoOuting {
        outingCount += 1
        let start = max(buffer.oldestTime ?? firstStroke, firstStroke - configuration.leadIn)
        let outing = AutoOuting(number: outingCount, start: start, firstStroke: firstStroke)
        current = outing
        leadIn = metadata.map { .metadata(key: $0.key, value: $0.value) }
        buffer.drain { r in
            if let t = r.time, t < start { return }
            leadIn.append(r)
        }
        leadInPosition = 0
        lastStroke = recentCatches.last
        recentCatches.removeAll()
        return outing
    }

    /// The current outing's records, session time 0 at its start; `nil` once it has ended.
    public func records() -> Records { Records(controller: self) }

    /// The current outing as a `RecordSource`.
    public struct Records: RecordSource {
        let controller: AutoSessionController
        public mutating func next() throws -> TraceRecord? { try controller.nextOutingRecord() }
    }

    func nextOutingRecord() throws -> TraceRecord? {
        guard let outing = current else { return nil }
        if leadInPosition < leadIn.count {
            let r = leadIn[leadInPosition]
            leadInPosition += 1
            return r.shifted(by: -outing.start)
        }
        guard !sourceEnded, let record = try source.next() else {
            sourceEnded = true
            current = nil
            return nil
        }
        if let t = record.time {
            latestTime = max(latestTime, t)
            if let last = lastStroke, t - last >= configuration.idleToEnd {
                carried = record  // the idle time after the outing: back to standby
                current = nil
                return nil
            }
        }
        observeStrokes(in: record) { lastStroke = max(lastStroke ?? $0, $0) }
        return record.shifted(by: -outing.start)
    }

    /// Runs the standby detector on a record.
    private func observeStrokes(in record: TraceRecord, _ body: (Seconds) -> Void) {
        switch record {
        case .accel(let sample):
            detector.process(sample) { body($0.catchTime) }
        case .reference(let r):
            body(r.time)
        default:
            break
        }
    }

    /// Runs every outing through a pipeline until the stream ends: `makePipeline` builds the
    /// pipeline (sinks: a `SessionWriter`, a display…) for each outing, `finished` gets its
    /// summary; `leadingRecords` are put before each outing's records (e.g. its `start_utc`).
    /// The live recorder and the tests use this same loop.
    public func run(leadingRecords: (AutoOuting) -> [TraceRecord] = { _ in [] },
                    makePipeline: (AutoOuting) throws -> Pipeline,
                    finished: (AutoOuting, SessionSummary, inout Pipeline) throws -> Void,
                    shouldStop: @escaping () -> Bool = { false }) throws {
        while let outing = try nextOuting(shouldStop: shouldStop) {
            var pipeline = try makePipeline(outing)
            var records = LeadingRecords(leadingRecords(outing), self.records())
            let summary = try pipeline.run(&records, shouldStop: shouldStop)
            current = nil
            leadIn = []
            leadInPosition = 0
            try finished(outing, summary, &pipeline)
        }
    }
}

/// The standby lead-in (`AutoSessionController.buffer`): records in a ring, the oldest dropped
/// when it is full.
extension RingBuffer where Element == TraceRecord {
    /// The time of the oldest record that has one.
    var oldestTime: Seconds? {
        for r in self { if let t = r.time { return t } }
        return nil
    }

    /// Drops records from the front while they are older than `time`.
    mutating func dropOlder(than time: Seconds) {
        while let t = first?.time, t < time { removeFirst() }
    }

    /// Hands every record to `body`, oldest first, and empties the ring.
    mutating func drain(_ body: (TraceRecord) -> Void) {
        for r in self { body(r) }
        removeAll()
    }
}

extension TraceRecord {
    /// The record with its time moved by `offset` (metadata unchanged).
    public func shifted(by offset: Seconds) -> TraceRecord {
        switch self {
        case .accel(var s): s.time += offset; return .accel(s)
        case .fix(var f): f.time += offset; return .fix(f)
        case .note(var n): n.time += offset; return .note(n)
        case .gap(var g): g.start += offset; g.end += offset; return .gap(g)
        case .reference(var r): r.time += offset; return .reference(r)
        case .heartRate(var h): h.time += offset; return .heartRate(h)
        case .oarlock(var o): o.time += offset; return .oarlock(o)
        case .metadata: return self
        }
    }
}
