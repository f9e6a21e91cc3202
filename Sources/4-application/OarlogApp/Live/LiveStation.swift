import Foundation
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogLive
import OarlogPipeline
import OarlogSession
import OarlogWorkouts
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
    let log: @Sendable (String) -> Void
    /// More sinks for the source's pipeline (a fleet publisher), made on its thread with the UTC
    /// of the source's time 0.
    private let extraSinks: @Sendable (Double) -> [any PipelineSink]
    /// Hears the cox's answer to a coach's plan (the fleet link publishes it). Set before `start`.
    public var workoutAnswers: (@Sendable (WorkoutOffer, Bool) -> Void)?
    /// Hears the recording's workout events (the fleet link publishes them). Set before `start`.
    public var workoutEvents: (@Sendable (WorkoutEvent) -> Void)?

    let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)
    /// Set (before it starts) once the source's thread runs: `stop` and `waitUntilEnded` wait for it.
    private let hasThread = Atomic<Bool>(false)
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
        /// The plan the next recording rows, whether it starts at the go, its status while rowed,
        /// and a coach's plan waiting for the cox's answer (LiveStation+Workout).
        var workout: WorkoutPlan?
        var workoutStartsAtGo = false
        var workoutStatus: WorkoutStatus?
        var workoutOffer: WorkoutOffer?
        /// The ghost the next recording races, and its race while rowed (LiveStation+Ghost).
        var ghost = LiveGhostState()
        /// When the status goes out next for the heart rates (once a second of the source's
        /// time while there are any: new rates, and old ones turning stale).
        var heartRateTick: Seconds = -.infinity
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
        reloadHeartRateZones()
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
            if s.workout != nil { deliver(LiveMessage.workoutPlan(s.workout, startsAtGo: s.workoutStartsAtGo)) }
            if let offer = s.workoutOffer { deliver(LiveMessage.workoutOffer(offer)) }
            if let status = s.workoutStatus { deliver(LiveMessage.workout(status)) }
            for message in ghostMessages(s) { deliver(message) }
            return id
        }
    }

    public func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// The figures so far.
    public var status: LiveStatus { state.withLock { $0.status } }

    func broadcast(_ message: String) {
        state.withLock { s in
            for deliver in s.subscribers.values { deliver(message) }
        }
    }

    func updateStatus(send: Bool, _ change: (inout LiveStatus) -> Void) {
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
                var pipeline = try RowingPipeline.make(settings: settings, sinks: [sink] + extraSinks(clock.wallClockAtOrigin), fences: fences,
                                                       live: true)
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
        hasThread.store(true, ordering: .sequentiallyConsistent)
        thread.start()
    }

    /// Stops the source (and a recording: its session is closed) and waits for the thread.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        if hasThread.load(ordering: .sequentiallyConsistent) { finished.wait(); finished.signal() }
    }

    /// Waits until the source ends by itself (a replay ran out).
    public func waitUntilEnded() {
        if hasThread.load(ordering: .sequentiallyConsistent) { finished.wait(); finished.signal() }
    }

    // MARK: From the pipelines

    func sourceRecord(_ record: TraceRecord, plot: inout AccelerationPlot, lastFixTime: inout Seconds) {
        guard let t = record.time else { return }
        let (recording, heartRatesDue): (Recording?, Bool) = state.withLock { s in
            if t > s.latestTime { s.latestTime = t }
            switch record {
            case .accel: if s.status.accelerometer != .ok { s.status.accelerometer = .ok }
            case .fix: if s.status.gps != .ok { s.status.gps = .ok }
            case .heartRate(let h): s.status.heartRates.add(h)
            default: break
            }
            // The heart rates' status once a second (a plain comparison on the accelerometer's path).
            guard !s.status.heartRates.isEmpty, t >= s.heartRateTick else { return (s.recording, false) }
            s.status.heartRates.now = max(s.status.heartRates.now, s.latestTime)
            s.heartRateTick = t + 1
            return (s.recording, true)
        }
        if heartRatesDue { updateStatus(send: true) { _ in } }
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
            // A strap's gap: its rate turns stale by its age (LiveHeartRates), the boat's sensors stay as they are.
            guard gap.sensor != .heartRate else { break }
            updateStatus(send: true) { s in
                if gap.sensor == .gps { s.gps = .lost } else { s.accelerometer = .lost }
            }
        default: break
        }
    }

    /// The preview pipeline's analysis (shown while nothing is recorded) or the recording's.
    func analysis(_ event: PipelineEvent, fromRecording: Bool) {
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
        case .workout(let e):
            guard fromRecording else { return }
            workoutEvent(e)
            workoutEvents?(e)
        case .ghost(let e):
            guard fromRecording else { return }
            ghostEvent(e)
        case .record(.note(let n)):
            guard fromRecording == recording else { return }
            updateStatus(send: false) { $0.lastNote = n.text }
            broadcast(LiveMessage.note(n))
        case .record(.fix(let fix)) where fromRecording:
            broadcast(LiveMessage.fix(fix))
        default: break
        }
    }

    func finished(summary: SessionSummary, fromRecording: Bool) {
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
