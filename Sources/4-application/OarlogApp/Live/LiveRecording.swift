import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogLive
import OarlogPipeline
import OarlogWorkouts
import OarlogSession

/// What a live recording is asked to do: `oarlog record`, and Start on the web app.
public struct LiveRecordingPlan: Sendable {
    public var title: String?
    /// The boat, kept in the session's metadata (`SessionMetadata.boat`).
    public var boat: String?
    /// Seconds of countdown before data counts (0: at once). Not used with `auto`.
    public var countdown: Int
    /// Record each outing of a headless boat as its own session (nil: one session until stopped).
    public var auto: AutoSessionConfiguration?
    public var sensors: LiveSensorChoice
    public var fencesPath: String?
    /// Stop after this long (unattended runs, tests).
    public var duration: Seconds?
    public var settings: AnalysisSettings
    public var directory: SessionDirectory
    /// A workout plan the recording times (`record --workout`): from the first catch, or from Go
    /// when `workoutStartsAtGo` (not with `auto`, whose outings have no Go).
    public var workout: WorkoutPlan?
    public var workoutStartsAtGo = false
    /// An attempt of a course to race (`record --course NAME --ghost …`): every session (each
    /// outing with `auto`) races it from its start crossing.
    public var ghost: GhostReference?

    public init(title: String? = nil, countdown: Int = 3, auto: AutoSessionConfiguration? = nil, sensors: LiveSensorChoice,
                fencesPath: String? = nil, duration: Seconds? = nil, settings: AnalysisSettings = .defaults,
                directory: SessionDirectory = .default) {
        self.title = title
        self.countdown = countdown
        self.auto = auto
        self.sensors = sensors
        self.fencesPath = fencesPath
        self.duration = duration
        self.settings = settings
        self.directory = directory
    }
}

/// How a live recording talks to whoever runs it (the terminal, the web server).
public struct LiveRecordingHooks {
    /// Messages for the person (sensors found or missing, gaps, where the file goes).
    public var log: @Sendable (String) -> Void
    /// A countdown second (3, 2, 1), then Go (0).
    public var countdown: (Int) -> Void = { _ in }
    /// The sinks that show the session as it happens (a live display, a web socket).
    public var sinks: (SessionMetadata) -> [any PipelineSink] = { _ in [] }
    /// A session's file was opened (with `auto`: the outing, and the UTC of its first stroke).
    public var started: (SessionWriter, (outing: AutoOuting, firstStrokeUTC: Double)?) -> Void = { _, _ in }
    /// A session ended: its summary, the facts gathered, its writer (closed), and the outing
    /// (with `auto`).
    public var finished: (SessionSummary, SessionFacts, SessionWriter, AutoOuting?) -> Void = { _, _, _, _ in }
    /// Cut typed lines into notes (stdin on a terminal).
    public var typedNotes: (@Sendable () -> String?)?
    /// Polled: true stops the recording cleanly (SIGINT, Stop).
    public var shouldStop: @Sendable () -> Bool
    /// Called when `duration` ran out (so the caller stops the rest too).
    public var durationElapsed: @Sendable () -> Void = {}

    public init(log: @escaping @Sendable (String) -> Void, shouldStop: @escaping @Sendable () -> Bool) {
        self.log = log
        self.shouldStop = shouldStop
    }
}

/// A live recording: the sensors opened on a monotonic session clock, fanned in, through the
/// pipeline into crash-safe session files — one session from Go until stopped, or (`auto`) one
/// per outing for as long as it runs.
public enum LiveRecording {
    /// What a recording ended with.
    public enum Outcome: Equatable {
        /// Sessions recorded (their paths).
        case recorded([String])
        /// Stopped during the countdown: nothing recorded.
        case stoppedBeforeGo
    }

    public static func run(_ plan: LiveRecordingPlan, hooks: LiveRecordingHooks) throws -> Outcome {
        _ = try plan.settings.analyzerConfiguration()
        let fences = try RowingPipeline.loadFences(plan.fencesPath)
        let monotonic = MonotonicClock()
        // Session time 0 is Go: the sensors start now and warm up during the countdown; what they
        // deliver before Go is dropped.
        let lead = plan.auto == nil ? Double(plan.countdown) : 0
        let clock = SessionClock(monotonicOrigin: monotonic.now() + lead, wallClockAtOrigin: monotonic.wallClockNow() + lead)
        let sensors = LiveSensors.open(plan.sensors, clock: clock, log: hooks.log, shouldStop: hooks.shouldStop)
        guard sensors.answered else {
            throw AppError("no sensor answered: " + sensors.problems.joined(separator: "; ")
                + ". Check them with `oarlog devices`, `oarlog accel` and `oarlog gps`.")
        }
        if plan.auto != nil && !sensors.hasAccelerometer {
            throw AppError("--auto needs the accelerometer to see rowing begin: " + sensors.problems.joined(separator: "; "))
        }
        let live = LiveSources(sensors.sources)
        live.start()
        let watcher = StopWatcher(live: live, deadline: plan.duration.map { clock.monotonicOrigin + $0 },
                                  shouldStop: hooks.shouldStop, onDeadline: hooks.durationElapsed)
        watcher.start()
        defer { watcher.finish() }
        if let typed = hooks.typedNotes { TypedNotes.start(live: live, clock: clock, readLine: typed) }

        let session = Session(plan: plan, hooks: hooks, clock: clock, sensors: sensors, fences: fences)
        if let auto = plan.auto {
            return .recorded(try session.recordOutings(live: live, configuration: auto))
        }
        Countdown.run(seconds: plan.countdown, clock: clock, tick: hooks.countdown, shouldStop: hooks.shouldStop)
        if hooks.shouldStop() {
            live.stop()
            return .stoppedBeforeGo
        }
        hooks.countdown(0)
        var source = LeadingRecords([startRecord(clock.utc(of: 0))], FromSessionStart(live))
        return .recorded([try session.recordOne(&source, start: 0, outing: nil)])
    }

    /// The session's start as a trace metadata record (recorded, and shown in the summary).
    static func startRecord(_ utc: Double) -> TraceRecord {
        .metadata(key: "start_utc", value: SessionText.iso(utc))
    }

    /// One recording's fixed parts, shared by every session it writes.
    struct Session {
        let plan: LiveRecordingPlan
        let hooks: LiveRecordingHooks
        let clock: SessionClock
        let sensors: LiveSensors
        let fences: FenceFile?

        func metadata(start: Seconds) -> SessionMetadata {
            var settings = plan.settings.sessionSettings
            if let auto = plan.auto {
                settings += [.init("auto_idle_s", "\(auto.idleToEnd)"), .init("auto_start_strokes", "\(auto.strokesToStart)")]
            }
            if let fencesPath = plan.fencesPath { settings.append(.init("fences", fencesPath)) }
            var metadata = SessionMetadata(title: plan.title ?? "", startUTC: clock.utc(of: start),
                                           monotonicOrigin: clock.monotonicOrigin + start, devices: sensors.devices,
                                           accelerometerRate: sensors.accelerometerRate,
                                           softwareVersion: SessionSaving.softwareVersion, settings: settings)
            metadata.fencesGeoJSON = fences?.sourceText
            metadata.boat = plan.boat?.trimmingWhitespace() ?? ""
            return metadata
        }

        /// A pipeline writing a new session file, with the caller's sinks.
        func pipeline(start: Seconds, outing: AutoOuting? = nil) throws -> (Pipeline, SessionWriter, SessionFacts) {
            let metadata = metadata(start: start)
            let writer: SessionWriter
            do {
                writer = try SessionWriter.create(in: plan.directory, metadata: metadata,
                                                  options: SessionWriter.Options(durability: .syncEveryChunk))
            } catch {
                throw AppError("cannot record: \(error)")
            }
            hooks.started(writer, outing.map { ($0, clock.utc(of: $0.firstStroke)) })
            let facts = SessionFacts()
            let tracker = plan.workout.map { WorkoutTracker(plan: $0, goTime: plan.workoutStartsAtGo && plan.auto == nil ? 0 : nil) }
            let pipeline = try RowingPipeline.make(settings: plan.settings, sinks: [writer, facts] + hooks.sinks(metadata), fences: fences,
                                                   workout: tracker, ghost: plan.ghost, live: true)
            return (pipeline, writer, facts)
        }

        /// A session closed is searched for the club's courses (its attempts on the leaderboard
        /// at once); a failure there loses nothing (the next question searches it again).
        func searchCourses(_ path: String) {
            _ = try? SessionStore(directory: plan.directory).searchCourses(inSession: SessionText.id(of: path))
        }

        func recordOne<Source: RecordSource>(_ source: inout Source, start: Seconds, outing: AutoOuting?) throws -> String {
            var (pipeline, writer, facts) = try pipeline(start: start)
            let summary = try pipeline.run(&source, shouldStop: hooks.shouldStop)
            hooks.finished(summary, facts, writer, outing)
            searchCourses(writer.path)
            return writer.path
        }

        func recordOutings(live: LiveSources, configuration: AutoSessionConfiguration) throws -> [String] {
            var configuration = configuration
            configuration.mounting = try plan.settings.analyzerConfiguration().mounting
            let controller = AutoSessionController(source: live, configuration: configuration)
            var paths: [String] = []
            var current: (writer: SessionWriter, facts: SessionFacts)?
            try controller.run(leadingRecords: { [LiveRecording.startRecord(clock.utc(of: $0.start))] }, makePipeline: { outing in
                let (pipeline, writer, facts) = try pipeline(start: outing.start, outing: outing)
                current = (writer, facts)
                return pipeline
            }, finished: { outing, summary, _ in
                if let current {
                    paths.append(current.writer.path)
                    hooks.finished(summary, current.facts, current.writer, outing)
                    searchCourses(current.writer.path)
                }
            }, shouldStop: hooks.shouldStop)
            return paths
        }
    }
}

/// When `record --auto` starts and ends an outing (the session layer's rule, named here for the
/// command line).
public typealias AutoSessionConfiguration = OarlogSession.AutoSessionConfiguration
