import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogPipeline
import OarlogTerminal
import OarlogTrace

/// `oarlog replay TRACE`: runs a recorded trace through the pipeline and prints a summary.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recorded sensor trace through the pipeline and print a coxswain's summary.",
        discussion: """
            Examples:
              oarlog replay samples/sim-workout.csv
              oarlog replay trace.csv --strokes          one row per stroke
              oarlog replay trace.csv --json --strokes   machine-readable, with the stroke list
              oarlog replay trace.csv --realtime         paced by the trace clock (or --speed 10)
              oarlog replay trace.csv --save --title "Head race"   keep it as a session (see `oarlog sessions`)
              oarlog replay trace.csv --workout 3x4:00/2:00r      time a plan's pieces (docs/WORKOUTS.md)
              oarlog replay trace.csv --course "NK 2k" --ghost best   race the course's fastest kept attempt (docs/GHOST.md)
            """
    )

    @OptionGroup var input: TraceArguments
    var trace: String { input.trace }
    var format: TraceFormat? { input.format }

    @Flag(help: "Print one row per stroke (with --json: include `stroke_list`).")
    var strokes = false

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    @Flag(help: "Pace the replay by the trace clock (real time).")
    var realtime = false

    @Option(help: "Pace the replay at this many times real time (e.g. 10).")
    var speed: Double?

    @Option(help: "GeoJSON fences or a course (docs/FENCES.md): show enter/exit/dwell and gate crossings as they happen.")
    var fences: String?

    @Option(help: "A workout plan to time over the trace (`3x4:00/2:00r`, `8x500m@1:50/1:30r`, a saved plan's name or a .json plan; docs/WORKOUTS.md).")
    var workout: String?

    @Flag(help: "Also keep the replay as a session in the data directory (see `oarlog sessions`).")
    var save = false

    @Option(help: "The saved session's title (default: the trace's file name).")
    var title: String?

    @Option(help: "The boat that rowed it, kept with the saved session (`oarlog sessions --boat`, `oarlog bests --boat`); with --ghost best, whose best.")
    var boat: String?

    @OptionGroup(title: "Racing a ghost (docs/GHOST.md)")
    var ghost: GhostOptions

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    @OptionGroup(title: "Fleet (docs/FLEET.md)")
    var fleet: PublishOptions

    func validate() throws {
        if title != nil && !save { throw ValidationError("--title names a saved session: add --save") }
        if boat != nil && !save && fleet.publish == nil && ghost.ghost == nil {
            throw ValidationError("--boat names a saved or published session's boat, or whose best --ghost races: add --save, --publish or --ghost")
        }
        try fleet.validate(boat: boat)
        if let speed, !(speed > 0 && speed.isFinite) {
            throw ValidationError("--speed must be a positive number, e.g. --speed 10")
        }
    }

    func run() throws {
        SignalFlag.install()
        let pacing: Pacing = speed.map { .clock(speed: $0) } ?? (realtime ? .clock(speed: 1) : .asFastAsPossible)
        var replay = try TraceReplay(path: trace, format: format, options: input.options, settings: analysis.settings, fences: try RowingPipeline.loadFences(fences), pacing: pacing)
        replay.workout = try workout.map(WorkoutArgument.plan)
        replay.ghost = try ghost.reference(boat: boat)
        if let reference = replay.ghost, !json { StandardStreams.error(GhostArgument.describe(reference)) }
        let report = ReplayReport(trace: trace, json: json, strokes: strokes)
        var sinks = report.sinks(facts: replay.facts, showsFences: fences != nil)
        let link = try fleet.link(boat: boat)
        if let link {
            sinks.append(link.publisher(title: title ?? SessionSaving.defaultTitle(for: replay.input), startUTC: replay.input.startUTCOrFileTime))
        }
        let kept: KeptSession?
        do {
            kept = save ? try SessionStore.default.keeping(replay, title: title, boat: boat) : nil
        } catch {
            throw CommandFailure("--save: \(error)")
        }
        let outcome = try replay.run(sinks: sinks, keeping: kept, shouldStop: { SignalFlag.interrupted })
        report.finish(outcome, facts: replay.facts)
        if let kept {
            StandardStreams.error("saved as session \(kept.id) (\(kept.path))\n")
            UploadCommand.sendAutomatic(session: kept.id)
        }
        if let link {
            if let problem = link.finish() { throw CommandFailure("--publish: \(problem)") }
            StandardStreams.error("published to \(link.connection.broker) as \(link.boat): \(link.client.status.acknowledged) message(s) delivered\n")
        }
        if outcome.rejectedCrossings > 0 {
            StandardStreams.error("note: \(outcome.rejectedCrossings) gate crossings rejected (implausible gap or jump between fixes)\n")
        }
    }
}
