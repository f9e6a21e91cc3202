import Foundation
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogLive
import OarlogPipeline
import OarlogReport
import OarlogSession
import Synchronization

/// What `oarlog serve` runs: one source — the live sensors, or a recorded trace paced as if live —
/// through the pipeline from the moment it starts (so the cox sees the acceleration trace and the
/// figures before the start), its events as JSON messages (`LiveMessage`) to every subscriber;
/// Start and Stop record a session from the same stream with the same crash-safe writer as
/// `oarlog record`, through a pipeline of its own so that the session's figures count from Go.
public final class LiveStation: @unchecked Sendable {
    public enum Source: Sendable {
        /// A recorded trace, `speed` trace seconds per second (1: real time).
        case replay(path: String, speed: Double)
        /// The boat's sensors, as `oarlog record` opens them.
        case live(LiveSensorChoice)
    }

    public let source: Source
    public let settings: AnalysisSettings
    /// Where recordings are kept.
    let directory: SessionDirectory
    public let fencesPath: String?
    private let log: @Sendable (String) -> Void
    /// More sinks for the source's pipeline (a fleet publisher), made on its thread with the UTC
    /// of the source's time 0.
    private let extraSinks: @Sendable (Double) -> [any PipelineSink]

    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    struct State {
        var status: LiveStatus
        var subscribers: [Int: @Sendable (String) -> Void] = [:]
        var nextSubscriber = 1
        var recording: Recording?
        /// The newest record time of the source (what a Start or a note is stamped with).
        var latestTime: Seconds = -.infinity
        var startUTC: Double = 0
        /// Live: the session clock the sensors stamp records with (a Start is now on it).
        var clock: SessionClock?
        var failure: String?
        init() { status = LiveStatus(source: "live") }
    }

    /// A session being recorded: its own queue and pipeline thread.
    final class Recording: @unchecked Sendable {
        let id: String
        let title: String
        let start: Seconds
        /// 8,192 records: 80 s of a 100 Hz accelerometer, 8 s at 1 kHz — far more than a chunk's
        /// fsync takes on an SD card; a full queue holds the source back, it never drops. (65,536
        /// allocated up front were 7.5 MB of the server's 45 MB while recording.)
        let queue = RecordQueue<TraceRecord>(capacity: 1 << 13)
        let done = DispatchSemaphore(value: 0)
        var path: String
        init(id: String, title: String, start: Seconds, path: String) {
            self.id = id
            self.title = title
            self.start = start
            self.path = path
        }
    }

    public init(source: Source, settings: AnalysisSettings = .defaults, sessions: SessionStore = .default,
                fencesPath: String? = nil, sinks: @escaping @Sendable (Double) -> [any PipelineSink] = { _ in [] },
                log: @escaping @Sendable (String) -> Void) throws {
        _ = try settings.analyzerConfiguration()
        _ = try RowingPipeline.loadFences(fencesPath)
        self.source = source
        self.settings = settings
        self.directory = sessions.directory
        self.fencesPath = fencesPath
        self.extraSinks = sinks
        self.log = log
        let name: String
        if case .replay = source { name = "replay" } else { name = "live" }
        state.withLock { $0.status = LiveStatus(source: name) }
    }

    // MARK: Subscribers

    /// Adds a subscriber: `deliver` gets the current status at once, then every message in order
    /// (on the pipeline's threads: it must not block). Returns the id to unsubscribe with.
    public func subscribe(_ deliver: @escaping @Sendable (String) -> Void) -> Int {
        state.withLock { s in
            let id = s.nextSubscriber
            s.nextSubscriber += 1
            s.subscribers[id] = deliver
            deliver(LiveMessage.status(s.status))
            return id
        }
    }

    public func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// The figures so far.
    public var status: LiveStatus { state.withLock { $0.status } }

    private func broadcast(_ message: String) {
        state.withLock { s in
            for deliver in s.subscribers.values { deliver(message) }
        }
    }

    private func updateStatus(send: Bool, _ change: (inout LiveStatus) -> Void) {
        state.withLock { s in
            change(&s.status)
            guard send else { return }
            let message = LiveMessage.status(s.status)
            for deliver in s.subscribers.values { deliver(message) }
        }
    }

    // MARK: Running

    /// Opens the source and runs it on a thread of its own until it ends or `stop()`.
    public func start() throws {
        switch source {
        case .replay(let path, let speed):
            var replay = try TraceReplay(path: path, settings: settings, fences: try RowingPipeline.loadFences(fencesPath),
                                         pacing: .clock(speed: speed))
            let startUTC = replay.input.startUTCOrFileTime
            state.withLock { $0.startUTC = startUTC }
            let extraSinks = self.extraSinks
            run(Job { sink in
                _ = try replay.run(sinks: [sink] + extraSinks(startUTC), shouldStop: { self.stopping.load(ordering: .relaxed) })
            })
        case .live(let choice):
            let monotonic = MonotonicClock()
            let clock = SessionClock(monotonicOrigin: monotonic.now(), wallClockAtOrigin: monotonic.wallClockNow())
            let sensors = LiveSensors.open(choice, clock: clock, log: log, shouldStop: { self.stopping.load(ordering: .relaxed) })
            updateStatus(send: false) { s in
                if choice.gpsd == nil { s.gps = .absent }
                if choice.accelerometer == nil || !sensors.hasAccelerometer { s.accelerometer = .absent }
            }
            state.withLock { s in
                s.startUTC = clock.wallClockAtOrigin
                s.clock = clock
            }
            let live = LiveSources(sensors.sources)
            live.start()
            let watcher = StopWatcher(live: live, deadline: nil, shouldStop: { self.stopping.load(ordering: .relaxed) })
            watcher.start()
            let fences = try RowingPipeline.loadFences(fencesPath)
            let settings = self.settings
            let extraSinks = self.extraSinks
            run(Job { sink in
                defer { watcher.finish() }
                var source = live
                var pipeline = try RowingPipeline.make(settings: settings, sinks: [sink] + extraSinks(clock.wallClockAtOrigin), fences: fences)
                _ = try pipeline.run(&source, shouldStop: { self.stopping.load(ordering: .relaxed) })
            })
        }
    }

    /// What the source's thread runs (handed to that thread alone).
    final class Job: @unchecked Sendable {
        let body: (StationSink) throws -> Void
        init(_ body: @escaping (StationSink) throws -> Void) { self.body = body }
    }

    private func run(_ job: Job) {
        let thread = Thread { [self] in
            let sink = StationSink(station: self)
            do { try job.body(sink) } catch {
                log("the source stopped: \(error)")
                state.withLock { $0.failure = "\(error)" }
            }
            _ = try? stopRecording()
            updateStatus(send: true) { $0.ended = true }
            finished.signal()
        }
        thread.name = "oarlog-station"
        self.thread = thread
        thread.start()
    }

    /// Stops the source (and a recording: its session is closed) and waits for the thread.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        if thread != nil { finished.wait(); finished.signal() }
    }

    /// Waits until the source ends by itself (a replay ran out).
    public func waitUntilEnded() {
        if thread != nil { finished.wait(); finished.signal() }
    }

    // MARK: Recording

    public enum RecordingError: Error, Equatable, CustomStringConvertible {
        case alreadyRecording(id: String)
        case notRecording
        case sourceEnded
        public var description: String {
            switch self {
            case .alreadyRecording(let id): return "already recording session \(id)"
            case .notRecording: return "not recording"
            case .sourceEnded: return "the source has ended: nothing to record"
            }
        }
    }

    /// Starts recording a session now (session time 0 = the source's newest record). Returns its id.
    public func startRecording(title: String?) throws -> String {
        if let id = state.withLock({ $0.recording?.id }) { throw RecordingError.alreadyRecording(id: id) }
        if status.ended { throw RecordingError.sourceEnded }
        // Live: now on the sensors' clock; a replay: its newest record.
        let (start, startUTC) = state.withLock { s in
            (s.clock.map { $0.sessionTime(ofMonotonic: MonotonicClock().now()) } ?? (s.latestTime.isFinite ? s.latestTime : 0), s.startUTC)
        }
        var settings = self.settings.sessionSettings
        if case .replay(let path, _) = source { settings.append(.init("replayed_from", path)) }
        if let fencesPath { settings.append(.init("fences", fencesPath)) }
        let devices: [String]
        switch source {
        case .replay(let path, let speed): devices = ["replay of \(path) at \(speed)x (oarlog serve)"]
        case .live: devices = ["live (oarlog serve)"]
        }
        let utc = startUTC + start
        let fences = try RowingPipeline.loadFences(fencesPath)
        var metadata = SessionMetadata(title: title ?? "", startUTC: utc, monotonicOrigin: start, devices: devices,
                                       softwareVersion: SessionSaving.softwareVersion, settings: settings)
        metadata.fencesGeoJSON = fences?.sourceText
        let writer: SessionWriter
        do {
            writer = try SessionWriter.create(in: directory, metadata: metadata, options: SessionWriter.Options(durability: .syncEveryChunk))
        } catch {
            throw AppError("cannot record: \(error)")
        }
        let id = SessionText.id(of: writer.path)
        let recording = Recording(id: id, title: title ?? "", start: start, path: writer.path)
        _ = recording.queue.push(LiveRecording.startRecord(utc))
        let pipeline = PipelineHolder(try RowingPipeline.make(settings: self.settings, sinks: [writer, RecordingSink(station: self)],
                                                              fences: fences))
        let thread = Thread { [self] in
            var source = recording.queue
            do { _ = try pipeline.pipeline.run(&source) } catch { log("recording \(id) stopped: \(error)") }
            recording.done.signal()
        }
        thread.name = "oarlog-recording"
        state.withLock { s in
            s.recording = recording
            s.status.recordingID = id
            s.status.figures = nil
            s.status.distancePerStroke = nil
            s.status.lastNote = nil
        }
        thread.start()
        broadcast(LiveMessage.session(event: "started", id: id, title: recording.title))
        updateStatus(send: true) { _ in }
        log("recording session \(id) (\(writer.path))")
        return id
    }

    /// Stops the recording: its session is closed; returns its id.
    @discardableResult
    public func stopRecording() throws -> String {
        guard let recording = state.withLock({ $0.recording }) else { throw RecordingError.notRecording }
        recording.queue.close()
        recording.done.wait()
        state.withLock { s in
            s.recording = nil
            s.status.recordingID = nil
        }
        let summary = (try? StoredSessionReport(try SessionReader(path: recording.path), includeStrokes: false).json(fileNamesOnly: true))
        broadcast(LiveMessage.session(event: "stopped", id: recording.id, title: recording.title, summary: summary))
        updateStatus(send: true) { _ in }
        log("saved session \(recording.id)")
        return recording.id
    }

    /// The session being recorded, if any.
    public var recordingID: String? { state.withLock { $0.recording?.id } }

    /// A note typed on the phone, stamped with the session time now, into the session being recorded.
    public func addNote(_ text: String) throws -> Note {
        guard let (recording, now) = state.withLock({ s in s.recording.map { ($0, s.latestTime) } }) else {
            throw RecordingError.notRecording
        }
        let clock = state.withLock { $0.clock }
        let time = clock.map { $0.sessionTime(ofMonotonic: MonotonicClock().now()) } ?? now
        let note = Note(time: max(0, time - recording.start), text: text)
        _ = recording.queue.push(.note(note))
        return note
    }

    // MARK: From the pipelines

    fileprivate func sourceRecord(_ record: TraceRecord, plot: inout AccelerationPlot, lastFixTime: inout Seconds) {
        guard let t = record.time else { return }
        let recording: Recording? = state.withLock { s in
            if t > s.latestTime { s.latestTime = t }
            switch record {
            case .accel: if s.status.accelerometer != .ok { s.status.accelerometer = .ok }
            case .fix: if s.status.gps != .ok { s.status.gps = .ok }
            default: break
            }
            return s.recording
        }
        if let recording, t >= recording.start {
            switch record {
            case .metadata: break
            case .note: break  // the source's own notes stay with it (a replayed trace's notes)
            default: _ = recording.queue.push(record.shifted(by: -recording.start))
            }
        }
        switch record {
        case .accel(let sample):
            if let message = plot.add(sample) { broadcast(message) }
        case .fix(let fix):
            if recording == nil, fix.time >= lastFixTime + 1 {
                lastFixTime = fix.time
                broadcast(LiveMessage.fix(fix))
            }
        case .gap(let gap):
            updateStatus(send: true) { s in
                if gap.sensor == .gps { s.gps = .lost } else { s.accelerometer = .lost }
            }
        default: break
        }
    }

    /// The preview pipeline's analysis (shown while nothing is recorded) or the recording's.
    fileprivate func analysis(_ event: PipelineEvent, fromRecording: Bool) {
        let recording = state.withLock { $0.recording != nil }
        switch event {
        case .analysis(.stroke(let m)):
            guard fromRecording == recording else { return }
            updateStatus(send: false) { s in
                if let d = m.distancePerStroke { s.distancePerStroke = d }
            }
            broadcast(LiveMessage.stroke(m, emittedUTC: MonotonicClock().wallClockNow()))
        case .analysis(.caught(let m)):
            guard fromRecording == recording else { return }
            broadcast(LiveMessage.caught(m, emittedUTC: MonotonicClock().wallClockNow()))
        case .analysis(.withdrawn(let stroke)):
            guard fromRecording == recording else { return }
            broadcast(LiveMessage.caught(StrokeMetrics(stroke: stroke), emittedUTC: MonotonicClock().wallClockNow()))
        case .analysis(.live(let figures)):
            guard fromRecording == recording else { return }
            updateStatus(send: true) { $0.figures = figures }
        case .fence(let e):
            guard fromRecording == recording else { return }
            broadcast(LiveMessage.fence(e))
        case .record(.note(let n)):
            guard fromRecording == recording else { return }
            updateStatus(send: false) { $0.lastNote = n.text }
            broadcast(LiveMessage.note(n))
        case .record(.fix(let fix)) where fromRecording:
            broadcast(LiveMessage.fix(fix))
        default: break
        }
    }

    fileprivate func finished(summary: SessionSummary, fromRecording: Bool) {
        guard !fromRecording else { return }
        // The final figures of the source: the summary's, as `oarlog replay --json` gives them.
        updateStatus(send: true) { s in
            guard s.recordingID == nil else { return }
            let previous = s.figures
            s.figures = LiveFigures(time: previous?.time ?? 0, elapsed: summary.elapsed ?? 0, distance: summary.distance ?? 0,
                                    speed: previous?.speed, split: previous?.split, strokeRate: previous?.strokeRate,
                                    strokes: summary.strokes)
            if let d = summary.distancePerStroke { s.distancePerStroke = d }
        }
    }
}

/// The preview pipeline's sink: every record (to tap into a recording and for the plot), and the
/// analysis while nothing is recorded.
final class StationSink: PipelineSink {
    unowned let station: LiveStation
    private var plot = AccelerationPlot()
    private var lastFixTime = -Double.infinity
    init(station: LiveStation) { self.station = station }
    var wantsRawRecords: Bool { true }
    func receive(_ event: PipelineEvent) {
        if case .record(let r) = event { station.sourceRecord(r, plot: &plot, lastFixTime: &lastFixTime) }
        station.analysis(event, fromRecording: false)
    }
    func finish(summary: SessionSummary) { station.finished(summary: summary, fromRecording: false) }
}

/// The recording pipeline's sink: its strokes and figures (counted from Go) while it records.
final class RecordingSink: PipelineSink {
    unowned let station: LiveStation
    private var lastFixTime = -Double.infinity
    init(station: LiveStation) { self.station = station }
    var wantsRawRecords: Bool { true }
    func receive(_ event: PipelineEvent) {
        switch event {
        case .record(.fix(let f)):
            guard f.time >= lastFixTime + 1 else { return }
            lastFixTime = f.time
            station.analysis(event, fromRecording: true)
        case .record(.accel): return
        default: station.analysis(event, fromRecording: true)
        }
    }
}

/// The boat's fore-aft acceleration for the live plot, thinned to about 25 points a second and
/// sent five times a second: gravity (the axis with the largest mean) set aside, the horizontal
/// axis that moves most is plotted, its slow mean removed. Fixed memory.
struct AccelerationPlot {
    private var mean = SIMD3<Double>(0, 0, 0)
    private var variance = SIMD3<Double>(0, 0, 0)
    private var seen = 0
    private var lastPoint = -Double.infinity
    private var times: [Seconds] = []
    private var values: [Double] = []
    private var lastSent = -Double.infinity

    mutating func add(_ s: AccelSample) -> String? {
        let v = SIMD3<Double>(Double(s.x), Double(s.y), Double(s.z))
        seen += 1
        let k = seen < 200 ? 1 / Double(seen) : 0.005
        let d = v - mean
        mean += d * k
        variance += (d * d - variance) * k
        guard s.time >= lastPoint + 0.04 else { return nil }
        lastPoint = s.time
        let g = mean.x.magnitude > mean.y.magnitude ? (mean.x.magnitude > mean.z.magnitude ? 0 : 2) : (mean.y.magnitude > mean.z.magnitude ? 1 : 2)
        var axis = g == 0 ? 1 : 0
        for i in 0..<3 where i != g && variance[i] > variance[axis] { axis = i }
        times.append(s.time)
        values.append(v[axis] - mean[axis])
        guard s.time >= lastSent + 0.2 || times.count >= 64 else { return nil }
        lastSent = s.time
        defer {
            times.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
        return LiveMessage.accel(times: times, surge: values)
    }
}

/// A pipeline handed to the thread that runs it (only that thread touches it).
final class PipelineHolder: @unchecked Sendable {
    var pipeline: Pipeline
    init(_ pipeline: Pipeline) { self.pipeline = pipeline }
}
