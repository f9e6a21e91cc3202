import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog play SESSION [--speed 4] [--from 12:30]`: the coxswain's live display from a file.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a recorded session back on the live display, as it was in the boat (or faster).",
        discussion: """
            The display is the one `oarlog record` shows — rate, split, strokes, elapsed, distance, \
            distance per stroke — plus the time remaining, paced by the recorded clock (--speed 4 runs \
            four times as fast). --from starts anywhere, found through the file's index; the figures \
            (strokes, distance, elapsed) then count from there. Ctrl-C stops and prints the summary.
            Examples:
              oarlog play last
              oarlog play last --speed 10 --from 12:30
            """
    )

    @Argument(help: SessionArgument.help)
    var session: String

    @Option(help: "Playback speed: session seconds per second (1 = as recorded).")
    var speed: Double = 1

    @Option(help: "Start at this session time: 12:30 (m:ss), 1:02:30 (h:mm:ss) or seconds.")
    var from: String?

    func validate() throws {
        if !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a positive number, e.g. --speed 4") }
        _ = try sessionTimeOption(from, name: "from")
    }

    func run() throws {
        SignalFlag.install()
        let replay = try SessionStore.default.replay(session)
        let reader = replay.reader
        let start = try sessionTimeOption(from, name: "from")
        let end = reader.summary?.statistics.lastTime
        if let start, let end, start > end {
            throw ValidationError("--from \(RowingFormat.duration(start)) is after the end of the session (\(RowingFormat.duration(end)))")
        }
        let title = reader.metadata.title.isEmpty ? SessionText.id(of: reader.path) : reader.metadata.title
        StandardStreams.error("playing \(title) (\(SessionText.date(reader.metadata.startUTC)) UTC"
            + (end.map { ", " + RowingFormat.duration($0) } ?? "") + ")"
            + (speed == 1 ? "" : " at \(RowingFormat.decimal(speed, places: speed == speed.rounded() ? 0 : 1))×")
            + (start.map { " from \(RowingFormat.duration($0)): strokes, distance and elapsed count from there" } ?? "") + "\n")
        let facts = SessionFacts()
        let display = LiveDisplay(inPlace: StandardStreams.stdoutIsTerminal, lineInterval: 10, totalDuration: end) { StandardStreams.write($0) }
        let outcome = try replay.run(sinks: [facts, display], pacing: .clock(speed: speed), from: start,
                                     shouldStop: { SignalFlag.interrupted })
        if !outcome.damage.isEmpty {
            StandardStreams.error("note: skipped \(outcome.damage.count) damaged place(s) in \(reader.path) (`oarlog recover` can fix it)\n")
        }
        StandardStreams.write("\n" + SummaryTable.render(
            title: "Oarlog playback — \(title)" + (start.map { " from \(RowingFormat.duration($0))" } ?? "")
                + (SignalFlag.interrupted ? " (stopped)" : ""),
            summary: outcome.summary, facts: facts))
    }
}
