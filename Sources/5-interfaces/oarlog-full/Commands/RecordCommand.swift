import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogPipeline
import OarlogTerminal

/// `oarlog record`: what runs in the boat. Reads the accelerometer (IIO) and the GPS (gpsd),
/// shows the coxswain's live display, records the session file, and stops cleanly on Ctrl-C or
/// SIGTERM. `--auto` records each outing of a headless boat as its own session.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a session live from the accelerometer and GPS, with the coxswain's display.",
        discussion: """
            A countdown (3… 2… 1… Go!) comes first: data counts from Go. The display shows stroke rate, \
            split, total strokes, elapsed time, distance and distance per stroke, refreshed about twice a \
            second (in place on a terminal; one line every 10 s otherwise). Each line typed on the \
            keyboard (stdin) is a note stamped with the session time. Ctrl-C or SIGTERM stops: the file \
            is closed and the summary printed. A sensor that is missing is reported once and recorded as \
            absent; gpsd is still watched in case it starts later.

            --auto (a headless boat): no countdown; a session opens when rowing begins (--start-strokes \
            strokes within 20 s; the 10 s before the first are kept), ends --idle seconds after the last \
            stroke, and the next outing becomes another session. Stop with SIGTERM.

            Sessions go to $OARLOG_DATA_DIR/sessions (else $XDG_DATA_HOME/oarlog/sessions, else \
            ~/.local/share/oarlog/sessions); see `oarlog sessions`.
            Examples:
              oarlog record --title "Morning outing"
              oarlog record --gps 192.168.4.1:2947 --iio ip:192.168.4.1
              oarlog record --auto --idle 180
              oarlog record --course "NK 2k" --ghost best     race the course's fastest kept attempt (docs/GHOST.md)
            """
    )

    @Option(help: "The session's title (also in its file name).")
    var title: String?

    @Option(help: "The boat (e.g. \"M8+ Thames\"), kept with the session: `oarlog sessions --boat`, `oarlog bests --boat`.")
    var boat: String?

    @Option(help: "Seconds of countdown before data counts (0: start at once).")
    var countdown: Int = 3

    @Flag(help: "Start a session whenever rowing begins and end it after --idle seconds without strokes; repeat.")
    var auto = false

    @Option(help: "With --auto: seconds without a stroke that end an outing.")
    var idle: Double = 120

    @Option(name: .customLong("start-strokes"), help: "With --auto: strokes within 20 s that mean rowing has begun.")
    var startStrokes: Int = 6

    @OptionGroup(title: "Sensors")
    var sensors: SensorOptions

    @Option(help: "GeoJSON fences or a course (docs/FENCES.md): gate crossings and area events are shown and recorded.")
    var fences: String?

    @Option(help: "Stop after this many seconds (unattended runs, tests).")
    var duration: Double?

    @Option(help: "A workout plan to time (`3x4:00/2:00r`, a saved plan's name or a .json plan; docs/WORKOUTS.md); it starts at the first catch.")
    var workout: String?

    @Flag(name: .customLong("workout-at-go"), help: "Start the --workout plan at Go (the countdown's end), not at the first catch.")
    var workoutAtGo = false

    @OptionGroup(title: "Racing a ghost (docs/GHOST.md)")
    var ghost: GhostOptions

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    @OptionGroup(title: "Fleet (docs/FLEET.md)")
    var fleet: PublishOptions

    func validate() throws {
        if !(0...60).contains(countdown) { throw ValidationError("--countdown must be 0–60 seconds") }
        if !(idle >= 10 && idle.isFinite) { throw ValidationError("--idle must be at least 10 seconds") }
        if !(2...50).contains(startStrokes) { throw ValidationError("--start-strokes must be 2–50") }
        if sensors.noGPS && sensors.noAccel { throw ValidationError("--no-gps and --no-accel leave nothing to record") }
        if auto && sensors.noAccel { throw ValidationError("--auto finds rowing in the accelerometer: it cannot be used with --no-accel") }
        try sensors.validateValues()
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
        try fleet.validate(boat: boat)
        if workoutAtGo && workout == nil { throw ValidationError("--workout-at-go starts a plan: add --workout") }
        if workoutAtGo && auto { throw ValidationError("--workout-at-go: an --auto outing has no Go; its plan starts at the first catch") }
    }

    var plan: LiveRecordingPlan {
        var autoConfiguration: AutoSessionConfiguration?
        if auto {
            var configuration = AutoSessionConfiguration()
            configuration.idleToEnd = idle
            configuration.strokesToStart = startStrokes
            autoConfiguration = configuration
        }
        var plan = LiveRecordingPlan(title: title, countdown: countdown, auto: autoConfiguration,
                                     sensors: sensors.choice,
                                     fencesPath: fences, duration: duration, settings: analysis.settings)
        plan.boat = boat
        plan.workoutStartsAtGo = workoutAtGo
        return plan
    }

    func run() throws {
        SignalFlag.install()
        let terminal = StandardStreams.stdoutIsTerminal
        var hooks = LiveRecordingHooks(log: { StandardStreams.error("\noarlog record: \($0)\n") }, shouldStop: { SignalFlag.interrupted })
        hooks.durationElapsed = { SignalFlag.raise() }
        hooks.typedNotes = { readLine() }
        hooks.countdown = { k in StandardStreams.write(k > 0 ? "\(k)… " : "Go!\n") }
        var recording = plan
        recording.workout = try workout.map(WorkoutArgument.plan)
        recording.ghost = try ghost.reference(boat: boat)
        if let reference = recording.ghost { StandardStreams.error(GhostArgument.describe(reference)) }
        let link = try fleet.link(boat: boat)
        var intervals = WorkoutCollector()
        hooks.sinks = { metadata in
            intervals = WorkoutCollector()
            var sinks: [any PipelineSink] = [LiveDisplay(inPlace: terminal, lineInterval: 10) { StandardStreams.write($0) }, intervals]
            if fences != nil && !terminal { sinks.append(FenceEventPrinter { StandardStreams.write($0 + "\n") }) }
            if ghost.ghost != nil && !terminal { sinks.append(GhostGatePrinter { StandardStreams.write($0 + "\n") }) }
            if let link { sinks.append(link.publisher(title: SessionText.title(metadata), startUTC: metadata.startUTC)) }
            return sinks
        }
        hooks.started = { writer, outing in
            if let outing {
                StandardStreams.error("outing \(outing.outing.number): rowing began at \(SessionText.date(outing.firstStrokeUTC)) UTC\n")
            }
            StandardStreams.error("recording to \(writer.path)\n")
        }
        hooks.finished = { summary, facts, writer, outing in
            let name = SessionText.title(writer.metadata) + (outing.map { " (outing \($0.number))" } ?? "")
            StandardStreams.write("\n" + SummaryTable.render(title: "Oarlog session — \(name)", summary: summary, facts: facts))
            if let plan = intervals.plan { StandardStreams.write("\n" + IntervalTable.render(plan: plan, intervals: intervals.intervals)) }
            StandardStreams.error("saved session \(SessionText.id(of: writer.path)) (\(writer.path), \(SessionText.size(writer.bytesWritten)))\n")
            UploadPump.sessionSaved(SessionText.id(of: writer.path), store: .default)
            if auto && !SignalFlag.interrupted { StandardStreams.error("waiting for rowing…\n") }
        }
        if auto { StandardStreams.error("waiting for rowing (\(startStrokes) strokes within 20 s)…\n") }
        UploadCommand.startPumpIfAuto()  // the queue retried while recording; each saved session sent
        switch try LiveRecording.run(recording, hooks: hooks) {
        case .stoppedBeforeGo:
            StandardStreams.error("stopped before Go: nothing recorded\n")
        case .recorded(let paths):
            if auto { StandardStreams.error("\(paths.count) outing(s) recorded\n") }
        }
        UploadCommand.deliverAtEnd()
        if let link {
            // The session files are complete whatever the broker did; say what it did not take.
            if let problem = link.finish() { throw CommandFailure("--publish: \(problem) (the session file has everything)") }
            StandardStreams.error("published to \(link.connection.broker) as \(link.boat): \(link.client.status.acknowledged) message(s) delivered\n")
        }
    }
}
